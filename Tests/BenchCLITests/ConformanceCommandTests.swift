import BenchResults
import BenchTestSupport
import Foundation
import Testing

@testable import BenchEngine
@testable import BenchWorker

/// `bench conformance`, on a small suite written here and on the W3C suite in `../shared/data`.
@Suite("bench conformance", .endToEnd)
struct ConformanceCommandTests {
    /// A suite in the W3C catalog's format: two not-wf and two valid documents chosen, four tests
    /// the rules leave out.
    static func smallSuite(in directory: TemporaryDirectory) throws -> String {
        try FileManager.default.createDirectory(atPath: directory.path("suite/a"), withIntermediateDirectories: true)
        try directory.write("suite/a/nwf1.xml", "<doc><open></doc>\n")
        try directory.write("suite/a/nwf2.xml", "<doc/><second/>\n")
        // A symbolic link that stays inside the suite is read (one that leads out of it is refused).
        try directory.write("suite/a/v1-file.xml", "<?xml version=\"1.0\"?>\n<doc>text &amp; more</doc>\n")
        try FileManager.default.createSymbolicLink(
            atPath: directory.path("suite/a/v1.xml"), withDestinationPath: "v1-file.xml")
        // Its expected canonical form: what the canonical-events columns are judged on.
        try FileManager.default.createDirectory(
            atPath: directory.path("suite/a/out"), withIntermediateDirectories: true)
        try directory.write("suite/a/out/v1.xml", "<doc>text &amp; more</doc>")
        // Well-formed, and fatal to Foundation's XMLParser with a delegate (DESIGN.md).
        try directory.write("suite/a/v2.xml", "<!DOCTYPE doc [<!ATTLIST doc a CDATA #IMPLIED>]>\n<doc a=\"1\"/>\n")
        try directory.write(
            "suite/xmlconf-flattened.xml",
            """
            <?xml version="1.0"?>
            <TESTSUITE PROFILE="small">
            <TESTCASES PROFILE="a" xml:base="a/">
              <TEST TYPE="not-wf" ENTITIES="none" ID="nwf-1" URI="nwf1.xml" SECTIONS="3">Unclosed
                element.</TEST>
              <TEST TYPE="not-wf" ID="nwf-2" URI="nwf2.xml" SECTIONS="2.1">Two roots.</TEST>
              <TEST TYPE="valid" ID="v-1" URI="v1.xml" OUTPUT="out/v1.xml" SECTIONS="2.1">A <EM>small</EM> document.</TEST>
              <TEST TYPE="valid" ID="v-attlist" URI="v2.xml" SECTIONS="3.3" EDITION="5">An ATTLIST.</TEST>
              <TEST TYPE="not-wf" ID="out-1.1" URI="nwf1.xml" VERSION="1.1" RECOMMENDATION="XML1.1" SECTIONS="">1.1</TEST>
              <TEST TYPE="not-wf" ENTITIES="general" ID="out-entity" URI="nwf1.xml" SECTIONS="">needs an entity</TEST>
              <TEST TYPE="invalid" ID="out-invalid" URI="v1.xml" SECTIONS="">invalid</TEST>
              <TEST TYPE="not-wf" ID="out-edition" EDITION="1 2 3 4" URI="nwf1.xml" SECTIONS="">before 5th</TEST>
              <TEST TYPE="not-wf" ID="out-ns" RECOMMENDATION="NS1.0" URI="nwf1.xml" SECTIONS="">namespaces</TEST>
            </TESTCASES>
            </TESTSUITE>
            """)
        return directory.path("suite")
    }

    @Test func theTableOfASmallSuite() throws {
        let directory = try TemporaryDirectory()
        let suite = try Self.smallSuite(in: directory)
        let output = directory.path("out")
        let result = try runBench([
            "conformance", suite, "--parsers", "libxml2,expat,foundation,memchr", "--output-dir", output,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("2 not-well-formed and 2 valid documents, 4 parsers"))
        #expect(result.standardOutput.contains("Documents chosen:"))

        let data = try Data(contentsOf: URL(fileURLWithPath: output + "/conformance.json"))
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let table = try decoder.decode(ConformanceTable.self, from: data)
        #expect(table.cases.map(\.id) == ["nwf-1", "nwf-2", "v-1", "v-attlist"])
        #expect(table.cases[0].path == "a/nwf1.xml" && table.cases[0].summary == "Unclosed element.")
        #expect(table.cases[2].summary == "A small document.")
        func outcomes(_ parser: String) -> [ConformanceResult.Outcome] {
            table.parsers.first { $0.parser == parser }?.results.map(\.outcome) ?? []
        }
        for parser in ["libxml2", "expat"] {
            #expect(outcomes(parser) == [.rejected, .rejected, .accepted, .accepted], "\(parser)")
        }
        // The crash costs its document only, and is confirmed alone.
        #expect(outcomes("foundation") == [.rejected, .rejected, .accepted, .crashed])
        let foundation = try #require(table.parsers.first { $0.parser == "foundation" })
        #expect(foundation.results[3].signal == SIGSEGV && foundation.notReproducedAlone.isEmpty)
        #expect(outcomes("memchr") == [.accepted, .accepted, .accepted, .accepted])
        #expect(table.parsers.first { $0.parser == "memchr" }?.kind == "floor")
        // Errors keep the parser's message and position.
        let libxml2 = try #require(table.parsers.first { $0.parser == "libxml2" })
        #expect(libxml2.results[0].detail?.contains("line 1") == true)

        let csv = try String(contentsOfFile: output + "/conformance-results.csv", encoding: .utf8)
        #expect(csv.split(separator: "\r\n").count == 1 + 4 * 4)
        #expect(csv.contains("foundation,push/event,v-attlist,valid,a/v2.xml,3.3,crashed,no,\(SIGSEGV),SIGSEGV"))
        let summary = try String(contentsOfFile: output + "/conformance-summary.csv", encoding: .utf8)
        #expect(summary.contains("expat,push/event,not-wf,2,2,0,0,0,0,0"))
        let markdown = try String(contentsOfFile: output + "/conformance.md", encoding: .utf8)
        #expect(
            markdown.contains("| foundation | push/event | 2 | 0 | 0 | 0 | 1 | 0 | 1 (1 SIGSEGV) | 0 | 1 | 0 | 0 |"))
        // The canonical-events check of each parser that walks documents, in every output (issue 68, item 4).
        #expect(markdown.contains("| memchr | floor | 0 | 2 | 0 | 0 | 2 | 0 | 0 | 0 | n/a | n/a | n/a |"))
        #expect(summary.contains("expat,push/event,valid,2,0,2,0,0,0,0,1,1,0,0"))
        #expect(csv.contains("libxml2,push/event,v-1,valid,a/v1.xml,2.1,accepted,yes,,,reproduced,"))
        #expect(table.parsers.first { $0.parser == "expat" }?.canonical?.reproduced == 1)
        #expect(table.parsers.first { $0.parser == "memchr" }?.canonical == nil)
        #expect(words(result.standardOutput).contains("canonical events (1)"))
    }

    @Test func aDirectoryWithoutACatalogIsAClearError() throws {
        let directory = try TemporaryDirectory()
        let result = try runBench(["conformance", directory.path(""), "--output-dir", directory.path("out")])
        #expect(result.status == 1)
        #expect(words(result.standardError).contains("no xmlconf-flattened.xml in"))
    }

    @Test func aCatalogThatIsNotXMLIsAClearError() throws {
        let directory = try TemporaryDirectory()
        try directory.write("xmlconf-flattened.xml", "<TESTSUITE><TEST ID='a'>")
        let result = try runBench(["conformance", directory.path(""), "--output-dir", directory.path("out")])
        #expect(result.status == 1)
        #expect(words(result.standardError).contains("cannot read the catalog"), "\(result.standardError)")
    }

    /// A catalog names its documents, and none is read from outside the suite's directory.
    ///
    /// A test whose document or output climbs out with `..`, or reaches out through a symbolic link in
    /// the suite (to a file or to a directory; to one that exists or not yet), refuses the catalog,
    /// naming it, before any document is parsed (an absolute path was already read inside the suite).
    /// So does a catalog that is itself a link out of the suite.
    @Test func aCatalogThatNamesAFileOutsideTheSuiteIsRefused() throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("secret.xml", "<secret/>")
        let suite = directory.path("suite")
        try FileManager.default.createDirectory(atPath: suite + "/sub", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: suite + "/sub/link.xml", withDestinationPath: "../../secret.xml")
        try FileManager.default.createSymbolicLink(atPath: suite + "/up", withDestinationPath: directory.path(""))
        // A link to a file that does not exist yet: it could be made outside between the check and the read.
        try FileManager.default.createSymbolicLink(
            atPath: suite + "/sub/later.xml", withDestinationPath: directory.path("later.xml"))
        let names = [
            ("URI", "../secret.xml"), ("OUTPUT", "sub/../../secret.xml"), ("URI", "sub/link.xml"),
            ("OUTPUT", "up/secret.xml"), ("URI", "sub/later.xml"), ("OUTPUT", "up/not-yet.xml"),
        ]
        for (attribute, name) in names {
            let uri = attribute == "URI" ? name : "sub/a.xml"
            let output = attribute == "OUTPUT" ? " OUTPUT=\"\(name)\"" : ""
            try Data(
                """
                <?xml version="1.0"?>
                <TESTSUITE PROFILE="p"><TESTCASES PROFILE="q" xml:base="">
                <TEST TYPE="valid" ENTITIES="none" ID="out-1" URI="\(uri)"\(output) SECTIONS="2.1" EDITION="5">out</TEST>
                </TESTCASES></TESTSUITE>
                """.utf8
            ).write(to: URL(fileURLWithPath: suite + "/xmlconf-flattened.xml"))
            let result = try runBench([
                "conformance", suite, "--parsers", "libxml2", "--output-dir", directory.path("out"), "--quiet",
            ])
            #expect(result.status == 1, "\(attribute): \(result.standardOutput)")
            #expect(
                words(result.standardError).contains(
                    "names \(name) (test out-1), outside the suite's directory"
                        + (CatalogEntry.climbsOut(name) ? ": refused" : " through a symbolic link: refused")),
                "\(attribute): \(result.standardError)")
        }
        // The catalog itself, a link to one outside.
        try FileManager.default.removeItem(atPath: suite + "/xmlconf-flattened.xml")
        let elsewhere = try directory.write(
            "catalog.xml",
            """
            <?xml version="1.0"?>
            <TESTSUITE PROFILE="p"><TESTCASES PROFILE="q" xml:base="">
            <TEST TYPE="valid" ENTITIES="none" ID="in-1" URI="sub/a.xml" SECTIONS="2.1" EDITION="5">in</TEST>
            </TESTCASES></TESTSUITE>
            """)
        try FileManager.default.createSymbolicLink(
            atPath: suite + "/xmlconf-flattened.xml", withDestinationPath: elsewhere)
        let linked = try runBench(["conformance", suite, "--parsers", "libxml2", "--output-dir", directory.path("out")])
        #expect(linked.status == 1, "\(linked.standardOutput)")
        #expect(
            words(linked.standardError).contains("is a symbolic link out of the suite's directory: refused"),
            "\(linked.standardError)")
        #expect(CatalogEntry.climbsOut("a/../../b") && CatalogEntry.climbsOut("../a"))
        #expect(
            !CatalogEntry.climbsOut("a/../b") && !CatalogEntry.climbsOut("./a/./b") && !CatalogEntry.climbsOut("/a"))
    }

    /// A catalog none of whose documents could be run checked nothing: exit 1, the table and files
    /// still made (it exited 0, "whatever the table shows").
    @Test func aSuiteWhereNothingRanIsNoSuccess() throws {
        let directory = try TemporaryDirectory()
        try directory.write(
            "xmlconf-flattened.xml",
            """
            <?xml version="1.0"?>
            <TESTSUITE PROFILE="p"><TESTCASES PROFILE="q" xml:base="">
            <TEST TYPE="not-wf" ENTITIES="none" ID="missing-1" URI="nowhere/missing.xml" SECTIONS="2.1" EDITION="5">gone</TEST>
            </TESTCASES></TESTSUITE>
            """)
        let output = directory.path("out")
        let result = try runBench([
            "conformance", directory.path(""), "--parsers", "libxml2,expat", "--output-dir", output, "--quiet",
        ])
        #expect(result.status == 1, "\(result.standardOutput)")
        #expect(
            words(result.standardError).contains("nothing checked: every document failed to run for every parser"),
            "\(result.standardError)")
        #expect(FileManager.default.fileExists(atPath: output + "/conformance.json"))
    }

    /// The W3C suite: libxml2 and expat reject what xmllint and expat themselves reject, so no
    /// adapter swallows its library's error.
    @Test(.enabled(if: TestPaths.hasSharedData, Comment(rawValue: TestPaths.sharedDataMissing)))
    func theW3CSuiteWithTheCLibraries() throws {
        let suite = try #require(TestPaths.sharedData).appendingPathComponent("xmlconf").path
        let directory = try TemporaryDirectory()
        let result = try runBench([
            "conformance", suite, "--parsers", "libxml2,expat,c-libxml2,c-expat", "--output-dir", directory.path("out"),
            "--quiet",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let table = try decoder.decode(
            ConformanceTable.self, from: Data(contentsOf: URL(fileURLWithPath: directory.path("out/conformance.json"))))
        #expect(table.caseCount(.notWellFormed) == 927 && table.caseCount(.valid) == 594)
        let accepted: [String: [String]] = [
            "libxml2": ["eduni/misc/007.xml", "eduni/misc/008.xml"],
            "c-libxml2": ["eduni/misc/007.xml", "eduni/misc/008.xml"],
            "expat": ["eduni/misc/007.xml"], "c-expat": ["eduni/misc/007.xml"],
        ]
        for parser in table.parsers {
            let counts = table.counts(parser, .notWellFormed)
            #expect(counts.rejected == 927 - (accepted[parser.parser]?.count ?? 0), "\(parser.parser)")
            let notRejected = table.exceptions(parser).filter { $0.0.expectation == .notWellFormed }.map(\.0.path)
            #expect(notRejected == accepted[parser.parser], "\(parser.parser)")
        }
    }
}
