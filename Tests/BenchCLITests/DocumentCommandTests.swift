import BenchResults
import BenchTestSupport
import Foundation
import Testing

/// `bench verify` and `bench run` with the document workload, and a document that is not a feed.
@Suite("The document workload from the command line")
struct DocumentCommandTests {
    static let document = """
        <?xml version="1.0"?>
        <catalog xmlns:x="urn:x"><book id="1" x:lang="en">A &amp; B<![CDATA[ <c> ]]></book><?pi data?><book id="2"/></catalog>
        """

    /// Writes ``document`` as `catalog.xml` in `directory`; its path.
    static func writeDocument(in directory: TemporaryDirectory) throws -> String {
        try directory.write("catalog.xml", Array(document.utf8))
        return directory.path("catalog.xml")
    }

    /// Inputs of the wrong kind: each a clear error that says what was given and what would do,
    /// before anything is measured; a FIFO is refused rather than waited on (its open blocked the
    /// run until something wrote to it), and a missing file given to `bench verify` is said to be
    /// unchecked, not a disagreement of the parsers.
    @Test func anInputOfTheWrongKindIsAClearError() throws {
        let directory = try TemporaryDirectory()
        let document = try Self.writeDocument(in: directory)
        let fifo = directory.path("fifo.xml")
        try #require(mkfifo(fifo, 0o600) == 0)
        let cases: [([String], String)] = [
            (["run", "--document", fifo], "not a regular file (a FIFO, a device or a socket?): \(fifo)"),
            (["verify", "--workload", "document", fifo], "not a regular file"),
            (
                ["run", "--document", directory.url.path],
                "document is a directory, not a file: \(directory.url.path) (the .xml files of a directory: --corpus)"
            ),
            (
                ["run", "--corpus", document],
                "corpus is a file, not a directory: \(document) (one document: --document)"
            ),
            (
                ["verify", "--workload", "document", directory.path("missing.xml")],
                "Error: not checked: no such file: \(directory.path("missing.xml"))"
            ),
        ]
        for (arguments, message) in cases {
            let extra = arguments[0] == "run" ? ["--no-store", "--output-dir", directory.path("out")] : []
            let result = try runBench(arguments + extra)
            #expect(result.status == 1, "\(arguments): \(result.standardError)")
            #expect(words(result.standardError).contains(message), "\(arguments): \(result.standardError)")
            #expect(!result.standardError.contains("disagree"), "\(arguments): \(result.standardError)")
        }
        // Nothing measured, nothing written (the output directory is made, empty, as the run begins).
        let written = (try? FileManager.default.contentsOfDirectory(atPath: directory.path("out"))) ?? []
        #expect(written.isEmpty, "\(written)")
    }

    @Test("A document that is not a feed gives no songs: an error with a hint, never 'agree'")
    func noSongsIsAnError() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.writeDocument(in: directory)
        let result = try runBench(["verify", path, "--parsers", "libxml2,expat,c-expat"])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("no songs"), "\(result.standardOutput)")
        #expect(words(result.standardOutput).contains("--workload document"), "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("  agree"))
        // The same words from three parsers are written out once, at the first of them.
        #expect(result.standardOutput.components(separatedBy: "the document has no RSS").count == 2)
        for parser in ["expat", "c-expat"] {
            let row = rows(result.standardOutput).first { $0.hasPrefix(parser + " ") }
            #expect(row?.hasSuffix("FAILED: the same as libxml2") == true, "\(result.standardOutput)")
        }
    }

    @Test("bench verify --workload document: the parsers agree on the events and write the canonical form")
    func verifyDocument() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.writeDocument(in: directory)
        let canonical = directory.path("canonical")
        let result = try runBench([
            "verify", path, "--workload", "document", "--parsers",
            "libxml2,expat,c-libxml2,c-expat,libxml2-dom,xmlcoder",
            "--canonical", canonical,
        ])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains("events"))
        #expect(result.standardOutput.contains("xmlcoder") && result.standardOutput.contains("not applicable"))
        let written = try String(
            contentsOfFile: directory.path("canonical/catalog.expat.canonical.xml"), encoding: .utf8)
        #expect(
            written
                == "<catalog xmlns:x=\"urn:x\"><book id=\"1\" x:lang=\"en\">A &amp; B &lt;c&gt; </book><?pi data?><book id=\"2\"></book></catalog>"
        )
    }

    @Test("bench run --document measures the document scenario")
    func runDocument() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.writeDocument(in: directory)
        let result = try runBench([
            "run", "--document", path, "--parsers", "libxml2,expat,c-libxml2", "--rounds", "2", "--iterations", "2",
            "--warmup", "0", "--no-store", "--no-allocation-counts", "--format", "csv", "--output-dir",
            directory.path("out"),
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let rows = result.standardOutput.split(separator: "\r\n").dropFirst()
        #expect(rows.count == 5, "null, sink and three parsers: \(result.standardOutput)")
        #expect(rows.contains { $0.hasPrefix("sink,") }, "the sink baseline's cell")
        #expect(rows.allSatisfy { $0.contains(",document,") })
        // The document's measured shape, in the run's own file and the JSON.
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path("out"))
        let shapes = try #require(files.first { $0.hasSuffix("-documents.csv") })
        let csv = try String(contentsOfFile: directory.path("out/" + shapes), encoding: .utf8)
        #expect(csv.hasPrefix("document,bytes,elements,attributes,"))
        // 3 elements, 3 attributes (xmlns:x is a declaration), 1 namespace, 1 reference ("&amp;").
        #expect(csv.contains("\(path),\(Self.document.utf8.count),3,3,1.0000,"), "\(csv)")
        // One document: no ratio differs between documents, and the file says so with its header alone.
        let between = try #require(files.first { $0.hasSuffix("-document-contrasts.csv") })
        let contrasts = try String(contentsOfFile: directory.path("out/" + between), encoding: .utf8)
        #expect(
            contrasts == "parser,reference,lowest_document,lowest_ratio,lowest_ci95_low,lowest_ci95_high,"
                + "highest_document,highest_ratio,highest_ci95_low,highest_ci95_high\r\n", "\(contrasts)")
        let json = try #require(files.first { $0.hasSuffix(".json") && !$0.hasPrefix("latest") })
        let run = try JSONDecoder().decode(
            RunResult.self, from: Data(contentsOf: URL(fileURLWithPath: directory.path("out/" + json))))
        #expect(run.documents?.count == 1)
        #expect(run.documents?.first?.maximumDepth == 2 && run.documents?.first?.references == 1)
        // One document: nothing to contrast, but the list is there (empty), as in every document run.
        #expect(run.betweenDocuments == [])
        // A parser with no document walk is refused before anything runs.
        let refused = try runBench(["run", "--document", path, "--parsers", "xmlcoder", "--no-store"])
        #expect(refused.status != 0)
        #expect(words(refused.standardError).contains("no document workload"))
    }

    @Test("The store keeps a document run's shapes: bench report gives them in the table, JSON and CSV")
    func reportFromTheStoreHasTheShapes() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.writeDocument(in: directory)
        let store = directory.path("stats.sqlite")
        let run = try runBench([
            "run", "--document", path, "--parsers", "libxml2,expat", "--rounds", "1", "--iterations", "2",
            "--warmup", "0", "--store", store, "--no-allocation-counts", "--format", "csv", "--output-dir",
            directory.path("out"),
        ])
        #expect(run.status == 0, "\(run.standardError)")
        let table = try runBench(["report", "--store", store, "--include-debug"])
        #expect(table.status == 0, "\(table.standardError)")
        #expect(
            table.standardOutput.contains(
                "Shape: \(Self.document.utf8.count) bytes, 3 elements, 1.00 attributes per element, "),
            "\(table.standardOutput)")
        let json = try runBench(["report", "--store", store, "--include-debug", "--format", "json"])
        let rows = try JSONDecoder().decode([HistoryRow].self, from: Data(json.standardOutput.utf8))
        #expect(!rows.isEmpty && rows.allSatisfy { $0.document?.elements == 3 && $0.document?.references == 1 })
        let csv = try runBench(["report", "--store", store, "--include-debug", "--format", "csv"])
        let lines = csv.standardOutput.split(separator: "\r\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        let header = try #require(lines.first)
        let elements = try #require(header.firstIndex(of: "document_elements"))
        #expect(lines.dropFirst().allSatisfy { $0[elements] == "3" }, "\(csv.standardOutput)")
    }

    /// `bench compare` gives the shape of each document it compares, whether its sides are stored
    /// runs or run files; a baseline on other content of the same name shows both shapes.
    @Test
    func compareHasTheShapes() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.writeDocument(in: directory)
        let store = directory.path("stats.sqlite")
        func run(_ name: String) throws -> (id: String, file: String) {
            let result = try runBench([
                "run", "--document", path, "--parsers", "libxml2,expat", "--rounds", "1", "--iterations", "2",
                "--warmup", "0", "--store", store, "--no-allocation-counts", "--format", "json", "--quiet",
                "--output-dir", directory.path(name),
            ])
            #expect(result.status == 0, "\(result.standardError)")
            let file = directory.path("\(name).json")
            try Data(result.standardOutput.utf8).write(to: URL(fileURLWithPath: file))
            let run = try JSONDecoder().decode(RunResult.self, from: Data(result.standardOutput.utf8))
            return (run.environment.runID, file)
        }
        let first = try run("one")
        let second = try run("two")
        let stored = try runBench(["compare", first.id, second.id, "--store", store])
        #expect(stored.standardOutput.contains("Documents (measured shape"), "\(stored.standardOutput)")
        let block = stored.standardOutput.components(separatedBy: "Documents (measured shape").last ?? ""
        let row = block.split(separator: "\n").first { $0.contains("catalog.xml") }?.split(separator: " ")
        #expect(row?.prefix(3) == ["catalog.xml", "\(Self.document.utf8.count)", "3"], "\(stored.standardOutput)")
        let markdown = try runBench(["compare", first.file, second.file, "--format", "markdown"])
        #expect(markdown.standardOutput.contains("**Documents** (measured shape)"), "\(markdown.standardOutput)")
        let json = try runBench(["compare", first.file, second.file, "--format", "json"])
        let comparison = try JSONDecoder().decode(RunComparison.self, from: Data(json.standardOutput.utf8))
        #expect(comparison.documents?.map(\.elements) == [3])
        #expect(comparison.documents?.first?.document == path)

        // The same name, other content: the current shape, then the baseline's, named so.
        try directory.write("catalog.xml", Array(Self.document.replacingOccurrences(of: "</", with: "<x/></").utf8))
        let changed = try run("three")
        let both = try runBench(["compare", first.file, changed.file, "--format", "json"])
        let sides = try JSONDecoder().decode(RunComparison.self, from: Data(both.standardOutput.utf8))
        #expect(sides.documents?.map(\.document) == [path, path + " (baseline)"])
        #expect(sides.documents?.map(\.elements) == [3 + 2, 3])
    }
}
