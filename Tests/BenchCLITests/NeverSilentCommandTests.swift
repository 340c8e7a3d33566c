import BenchResults
import BenchTestSupport
import Foundation
import StatsStore
import Testing

/// For tests whose point is not the figures (a store, a file, the running build): no parse counts
/// as one that lost the CPU, so that a busy machine, where a cell can end with no timed figure and
/// the run exits 1 (issue 43), does not fail them.
enum AnyMachine {
    static let environment = ["BENCH_PREEMPTION_SHARE": "1e9"]
}

/// Issue 43: nothing passes silently.
///
/// A run whose parser has no timed figure, a comparison that judged nothing and an input no parser
/// can read each end with their own exit status and say why; an interrupted run says what it kept;
/// a full disk still shows the table.
@Suite("Never silent: exit codes, unusable input, interrupts", .endToEnd)
struct NeverSilentCommandTests {
    /// A cell whose every parse lost the CPU has no time: the run fails naming the parser.
    ///
    /// It exited 0 with every time blank. `BENCH_PREEMPTION_SHARE=-1` makes every parse one that
    /// lost the CPU, as on a machine at its busiest.
    @Test func aParserWithNoTimedFigureFailsTheRun() throws {
        let directory = try TemporaryDirectory()
        let result = try runBench(
            [
                "run", "--scenario", "parse", "--parsers", "libxml2,expat", "--iterations", "1", "--warmup", "0",
                "--rounds", "1", "--no-allocation-counts", "--no-store", "--format", "csv", "--output-dir",
                directory.path("out"),
            ], environment: ["BENCH_PREEMPTION_SHARE": "-1", "COLUMNS": "100"])
        #expect(result.status == 1, "\(result.standardError)")
        // What it says fits the terminal (a debug build's warning too).
        let wide = result.standardError.split(separator: "\n").filter { $0.count > 100 }
        #expect(wide.isEmpty, "\(wide)")
        // One problem a paragraph, its continuations indented (broken at the terminal's width).
        let problems = result.standardError.replacingOccurrences(of: "\n    ", with: " ")
        for parser in ["libxml2", "expat"] {
            let line = problems.split(separator: "\n").first {
                $0.contains("\(parser) on Data/top300.rss.xml")
            }
            #expect(line?.contains("no timed figure") == true, "\(result.standardError)")
            #expect(line?.contains("lost the CPU") == true, "\(result.standardError)")
        }
        // The baseline was not asked for: it is not named.
        #expect(!words(result.standardError).contains("null on"))
    }

    /// Runs `bench` with its standard output and error into one pipe, as `2>&1` into a file does.
    static func combined(_ arguments: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, output: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.benchExecutable)
        process.arguments = arguments
        process.currentDirectoryURL = TestPaths.packageRoot
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Each fact once, in order, when standard output and error go to one file (issue 68, item 12).
    ///
    /// A parser with no timed figure was named at the top ("Error: … not every parser succeeded: …")
    /// and again under the table, the same sentence for each: now under the table, with the
    /// parsers named once in the error after it. An error after a table (`bench verify`'s, `bench
    /// hostile`'s) came first, or inside the table: standard output is flushed before it.
    @Test func eachFactIsSaidOnceAndInOrder() throws {
        let directory = try TemporaryDirectory()
        let run = try Self.combined(
            [
                "run", "--scenario", "parse", "--parsers", "libxml2,expat", "--iterations", "1", "--warmup", "0",
                "--rounds", "1", "--no-allocation-counts", "--no-store", "--output-dir", directory.path("out"),
            ], environment: ["BENCH_PREEMPTION_SHARE": "-1", "COLUMNS": "100"])
        #expect(run.status == 1, "\(run.output)")
        let text = words(run.output)
        for parser in ["libxml2", "expat"] {
            #expect(text.components(separatedBy: " \(parser): no time: ").count == 2, "\(run.output)")
            #expect(!text.contains("\(parser) on Data/top300.rss.xml (parse): no timed figure:"), "\(run.output)")
        }
        let table = text.range(of: "parse: Data/top300.rss.xml")
        let error = text.range(
            of: "Error: the run's figures are written, but not every parser succeeded: libxml2, expat on "
                + "Data/top300.rss.xml (parse): no timed figure (why: under its table)")
        #expect(table != nil && error != nil, "\(run.output)")
        if let table, let error { #expect(table.upperBound < error.lowerBound, "\(run.output)") }

        let bad = try directory.write("bad.xml", "<rss><channel><item><title>x</titl></item></channel></rss>")
        let verify = try Self.combined(["verify", bad, "--parsers", "libxml2,expat"], environment: ["COLUMNS": "100"])
        #expect(verify.status == 1, "\(verify.output)")
        let rows = verify.output.range(of: "FAILED: mismatched tag")
        let failed = verify.output.range(of: "Error: parsers disagree or fail")
        #expect(rows != nil && failed != nil, "\(verify.output)")
        if let rows, let failed { #expect(rows.upperBound < failed.lowerBound, "\(verify.output)") }
    }

    static func write(_ run: RunResult, to directory: TemporaryDirectory, as name: String) throws -> String {
        try directory.write(name, String(decoding: try JSONEncoder().encode(run), as: UTF8.self))
    }

    /// A comparison that judged nothing, or compared nothing, does not pass (it exited 0), unless
    /// the option named in its message says it may.
    @Test func aComparisonThatJudgedNothingDoesNotPass() throws {
        let directory = try TemporaryDirectory()
        func run(_ id: String, _ parsers: [String: [Double]]) throws -> String {
            try Self.write(
                SyntheticRuns.run(id: id, started: "2026-11-22T10:00:00Z", rounds: parsers), to: directory,
                as: "\(id).json")
        }
        // One worker a side: too few to judge.
        let base = try run("20261122T100000Z-a", ["expat": [1e7], "null": [500]])
        let current = try run("20261122T100100Z-b", ["expat": [1.01e7], "null": [500]])
        let unjudged = try runBench(["compare", base, current], environment: ["COLUMNS": "100"])
        #expect(unjudged.standardOutput.contains("Nothing judged"), "\(unjudged.standardOutput)")
        #expect(unjudged.status == 4, "\(unjudged.standardError)")
        #expect(words(unjudged.standardError).contains("--allow-nothing-judged"), "\(unjudged.standardError)")
        #expect(
            unjudged.standardError.split(separator: "\n").allSatisfy { $0.count <= 100 }, "\(unjudged.standardError)")
        let allowed = try runBench(["compare", base, current, "--allow-nothing-judged"])
        #expect(allowed.status == 0, "\(allowed.standardError)")
        // No cell on both sides.
        let other = try run("20261122T100200Z-c", ["libxml2": [6e6, 6e6, 6e6, 6e6, 6e6, 6e6]])
        let disjoint = try runBench(["compare", base, other])
        #expect(disjoint.standardOutput.contains("Nothing compared"), "\(disjoint.standardOutput)")
        #expect(disjoint.status == 4, "\(disjoint.standardError)")
    }

    /// Inputs no parser can read: the run stops after the check, one line a file saying what is
    /// wrong, nothing measured, written or stored, exit 5 (it timed the baselines, wrote 9 files
    /// and exited 1).
    @Test func unusableInputStopsBeforeAnythingIsMeasured() throws {
        let directory = try TemporaryDirectory()
        let feed = try String(contentsOfFile: TestPaths.top300, encoding: .utf8)
        let inputs = [
            try directory.write("empty.xml", ""),
            try directory.write("image.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]),
            try directory.write("passwd", "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/bin/sh\n"),
            try directory.write("truncated.xml", String(feed.prefix(20_000))),
            try directory.write(
                "catalog.xml", "<?xml version=\"1.0\"?>\n<catalog><book id=\"1\">XML</book></catalog>\n"),
        ]
        let store = directory.path("stats.sqlite")
        let output = directory.path("out")
        let result = try runBench(
            [
                "run", "--scenario", "parse", "--rounds", "1", "--iterations", "1", "--warmup", "0", "--store", store,
                "--output-dir", output,
            ] + inputs.flatMap { ["--feed", $0] })
        #expect(result.status == 5, "\(result.standardError)")
        let lines = entries(result.standardError).filter { $0.hasPrefix("Unusable input: ") }
        #expect(!result.standardError.split(separator: "\n").contains { $0.count > 100 }, "\(result.standardError)")
        #expect(lines.count == inputs.count, "\(result.standardError)")
        let expected = [
            "empty.xml": "the file is empty", "image.png": "not XML: a PNG image", "passwd": "not XML: it starts with",
            "truncated.xml": "cut short", "catalog.xml": "not a feed",
        ]
        for (name, words) in expected {
            let line = lines.first { $0.contains("/\(name): ") }
            #expect(line?.contains(words) == true, "\(name): \(line ?? "no line")")
        }
        #expect(words(result.standardError).contains("Nothing measured"))
        #expect(!words(result.standardError).contains("line 0, column 0"))
        #expect(result.standardOutput.isEmpty, "no report: \(result.standardOutput)")
        // Nothing written, nothing stored.
        let files = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []
        #expect(files.isEmpty, "\(files)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    /// `bench verify`'s table keeps its columns when a parser's failure is longer than the line: the
    /// failure continues under the result column (the line was re-flowed, its columns collapsed to
    /// single spaces); a good feed beside it is still checked.
    @Test func verifyKeepsItsColumnsWhenAFailureIsLong() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.write(
            "catalog.xml", "<?xml version=\"1.0\"?>\n<catalog><book id=\"1\">XML</book></catalog>\n")
        let result = try runBench(
            ["verify", catalog, TestPaths.top300, "--parsers", "libxml2,expat", "--chunk-sizes", "512"],
            environment: ["COLUMNS": "80"])
        #expect(result.status == 1, "\(result.standardOutput)\n\(result.standardError)")
        #expect(result.standardOutput.contains("top300.rss.xml"), "\(result.standardOutput)")
        // A failure's continuation lines start under the result column, not at the row's indent.
        let output = result.standardOutput.split(separator: "\n").map(String.init)
        let header = try #require(output.first { $0.hasPrefix("  parser ") })
        let resultColumn = try #require(header.range(of: "result")).lowerBound.utf16Offset(in: header)
        let failed = try #require(output.firstIndex { $0.contains("FAILED: ") })
        let next = output[failed + 1]
        #expect(next.prefix(while: { $0 == " " }).count == resultColumn, "\(result.standardOutput)")
        #expect(output.allSatisfy { $0.count <= 80 }, "\(result.standardOutput)")
    }

    /// Each parser's failure on those inputs in words a person can act on: Foundation's named (it
    /// said "XMLParser error 4 (libxml2 xmlParserErrors code)"), positions real or absent, never
    /// "line 0, column 0".
    @Test func eachParsersFailureIsSaidInWords() throws {
        let directory = try TemporaryDirectory()
        let empty = try directory.write("empty.xml", "")
        let passwd = try directory.write("passwd", "root:x:0:0:root:/root:/bin/bash\n")
        let result = try runBench(["verify", empty, passwd, "--chunk-sizes", "16384"])
        #expect(result.status == 1)
        #expect(!result.standardOutput.contains("line 0, column 0"), "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("xmlParserErrors"), "\(result.standardOutput)")
        let foundation = rows(result.standardOutput).filter { $0.hasPrefix("foundation ") }
        #expect(foundation.count == 2)
        #expect(foundation.allSatisfy { $0.contains("empty") }, "\(foundation)")
        // Rows wider than the terminal wrap: the name of the error may be on the row's next line.
        let words = result.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("XMLParser.ErrorCode.emptyDocumentError"), "\(result.standardOutput)")
    }

    /// A running process and its standard error, read as it ends.
    final class Started: @unchecked Sendable {
        let process = Process()
        private let error = Pipe()
        private var errorData = Data()
        private let done = DispatchSemaphore(value: 0)

        init(_ arguments: [String], environment: [String: String] = [:]) throws {
            process.executableURL = URL(fileURLWithPath: TestPaths.benchExecutable)
            process.arguments = arguments
            process.currentDirectoryURL = TestPaths.packageRoot
            process.environment = ProcessInfo.processInfo.environment.merging(["COLUMNS": "100"]) { $1 }
                .merging(environment) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = error
            try process.run()
            DispatchQueue.global().async {
                self.errorData = self.error.fileHandleForReading.readDataToEndOfFile()
                self.done.signal()
            }
        }

        /// Waits for the end; its standard error.
        func wait() -> String {
            process.waitUntilExit()
            done.wait()
            return String(decoding: errorData, as: UTF8.self)
        }
    }

    /// Ctrl-C (SIGINT to the process group) or SIGTERM in the middle of a run: it ends with 130 or
    /// 143 and says which run the store keeps incomplete, what was written and how to remove it;
    /// the run file holds the workers that finished (it ended silently by the signal).
    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptedRunSaysWhatItKept(signal: Int32) throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("stats.sqlite")
        let output = directory.path("out")
        let run = try Started([
            "run", "--scenario", "parse", "--parsers", "libxml2", "--iterations", "2", "--warmup", "0", "--rounds",
            "200", "--no-allocation-counts", "--store", store, "--output-dir", output,
        ])
        // Wait for the first worker's samples in the store.
        var stored = 0
        let deadline = Date().addingTimeInterval(240)
        while Date() < deadline && run.process.isRunning && stored == 0 {
            if FileManager.default.fileExists(atPath: store) {
                stored =
                    (try? StatsDatabase(path: store).samples(matching: SampleFilter(includeDebug: true)).count) ?? 0
            }
            if stored == 0 { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(stored > 0, "no samples stored before the deadline")
        let pid = run.process.processIdentifier
        // Ctrl-C goes to the terminal's process group: the workers get it too.
        if signal == SIGINT && getpgid(pid) == pid { kill(-pid, signal) } else { kill(pid, signal) }
        let standardError = run.wait()
        #expect(run.process.terminationReason == .exit, "ended by a signal, silently: \(standardError)")
        #expect(run.process.terminationStatus == 128 + signal, "\(standardError)")

        let runs = try StatsDatabase(path: store).runs()
        let runID = try #require(runs.first?.runID)
        #expect(runs.count == 1 && runs.first?.complete == false)
        #expect(standardError.contains("Interrupted by \(signal == SIGINT ? "SIGINT" : "SIGTERM")"), "\(standardError)")
        #expect(standardError.contains("run \(runID) is incomplete"), "\(standardError)")
        #expect(standardError.contains("store remove --run \(runID)"), "\(standardError)")
        // Within 100 columns at COLUMNS=100, but for the paths and the command, whole on lines of their own.
        let wide = standardError.split(separator: "\n").filter { $0.count > 100 && !$0.hasPrefix("  ") }
        #expect(wide.isEmpty, "\(wide)")
        // The finished workers' files: the run file holds what the store holds.
        let file = (output as NSString).appendingPathComponent("\(runID).json")
        #expect(standardError.contains(file), "\(standardError)")
        let written = try JSONDecoder().decode(RunResult.self, from: Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(written.environment.complete == false)
        let inStore = try StatsDatabase(path: store).samples(matching: SampleFilter(includeDebug: true)).count
        #expect(written.samples.count == inStore && inStore >= stored)
        // And the store removes it as the message says.
        let removed = try runBench(["store", "remove", "--run", runID, "--store", store])
        #expect(removed.status == 0, "\(removed.standardError)")
        #expect(try StatsDatabase(path: store).runs().isEmpty)
    }

    /// A file that cannot be written says what is in the way, not Foundation's "error 512": a
    /// directory at the path, a parent that is a file or is missing.
    @Test func aFileThatCannotBeWrittenSaysWhatIsInTheWay() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("a-file", "x")
        let feed = try directory.write("feed.xml", Samples.feed([Samples.item(title: "One")]))
        let cases: [([String], String)] = [
            (
                ["generate", "--songs", "3", "--output", file + "/a.xml"],
                "cannot write \(file)/a.xml: \(file) is not a directory"
            ),
            (
                ["generate", "--songs", "3", "--output", directory.path("none/a.xml")],
                "\(directory.path("none")) does not exist"
            ),
            (["verify", "--parsers", "libxml2,expat", "--dump", directory.path(""), feed], "is a directory"),
            (["run", "--feed", feed, "--no-store", "--output-dir", file + "/out"], "\(file) is not a directory"),
            (["generate", "--songs", "3", "--output", ""], "no path given"),
        ]
        for (arguments, said) in cases {
            let result = try runBench(arguments)
            #expect(result.status == 1, "\(arguments): \(result.standardError)")
            #expect(words(result.standardError).contains(said), "\(arguments): \(result.standardError)")
            #expect(!result.standardError.contains("NSCocoaErrorDomain"), "\(arguments): \(result.standardError)")
        }
    }

    /// A full output directory: the table is printed all the same, and no `latest` file names an
    /// earlier run as this one (the table was lost and latest.json held the previous run).
    @Test(.enabled(if: StoreFaultTests.canMountTmpfs, Comment(rawValue: StoreFaultTests.noTmpfs)))
    func aFullDiskStillShowsTheTableAndLeavesNoStaleLatest() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("stats.sqlite")
        let mount = directory.path("full")
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        let result = try StoreFaultTests.inMountNamespace(
            """
            mount -t tmpfs -o size=16k tmpfs '\(mount)' && printf '{"runID":"20261101T000000Z-previous"}' > '\(mount)/latest.json' \
            && COLUMNS=200 '\(TestPaths.benchExecutable)' run --scenario parse --parsers expat \
            --iterations 1 --warmup 0 --rounds 2 --no-allocation-counts --store '\(store)' --output-dir '\(mount)'; echo "status=$?"; \
            cat '\(mount)/latest.json' 2>/dev/null || echo "no latest.json"
            """)
        #expect(result.standardOutput.contains("status=1"), "\(result.standardOutput) \(result.standardError)")
        #expect(words(result.standardError).contains("No space left on device"), "\(result.standardError)")
        #expect(!result.standardOutput.contains("20261101T000000Z-previous"), "\(result.standardOutput)")
        // The parse table, with its parser's row.
        #expect(result.standardOutput.contains("× fastest"), "\(result.standardOutput)")
        #expect(
            result.standardOutput.split(separator: "\n").contains {
                $0.trimmingCharacters(in: .whitespaces).hasPrefix("expat ")
            }, "\(result.standardOutput)")
    }
}
