import BenchResults
import BenchTestSupport
import Foundation
import StatsStore
import Testing

/// Output that fits (issue 43, item 7): every command's terminal output within 100 columns at
/// `COLUMNS=100`, the parse table within 80 at `COLUMNS=80`, a short key under a run's tables (the
/// whole legend on asking), and progress from `bench verify` on a terminal.
@Suite("Terminal widths", .endToEnd)
struct TerminalWidthTests {
    static let wide = ["COLUMNS": "100"]

    /// The lines of `text` wider than `width`.
    static func tooWide(_ text: String, _ width: Int = 100) -> [String] {
        text.split(separator: "\n").map(String.init).filter { $0.count > width }
    }

    /// A store of 30 runs of two parsers, expat 5% slower from run 21, with a long feed path (the
    /// widest a table's title gets).
    static func store(in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("stats.sqlite")
        let store = try StatsStores.open(path)
        for run in 0..<30 {
            var walls: [String: [Double]] = [:]
            for (index, parser) in ["expat", "libxml2", "c-libxml2", "null"].enumerated() {
                let slow = parser == "expat" && run >= 20 ? 1.05 : 1.0
                walls[parser] = SyntheticRuns.noisy(
                    (parser == "null" ? 10_000 : 3_000_000) * slow, count: 6, noise: 0.01,
                    seed: UInt64(run * 4 + index + 1) &* 0x9E37_79B9_7F4A_7C15)
            }
            var result = SyntheticRuns.run(
                id: String(format: "20261122T10%02d00Z-w", run), started: String(format: "2026-11-22T10:%02d:00Z", run),
                rounds: walls, feedPath: "Results/feeds/songs-30000-seed-20120515.rss.xml")
            result.environment.gitCommit = String(repeating: run >= 20 ? "b" : "a", count: 40)
            try store.beginRun(result.environment, settings: result.settings)
            try store.record(result.samples, runID: result.environment.runID)
            try store.finishRun(
                result.environment.runID, endedAt: result.environment.startedAt, noise: nil, rounds: nil)
        }
        try store.summariseStoredRuns()
        return path
    }

    @Test func reportFits() throws {
        let directory = try TemporaryDirectory()
        let result = try runBench(["report", "--store", try Self.store(in: directory)], environment: Self.wide)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("expat"))
        #expect(Self.tooWide(result.standardOutput).isEmpty, "\(Self.tooWide(result.standardOutput))")
    }

    @Test func historyFits() throws {
        let directory = try TemporaryDirectory()
        let result = try runBench(
            ["history", "--store", try Self.store(in: directory), "--metric", "wall"], environment: Self.wide)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("1 change(s)"), "\(result.standardOutput)")
        #expect(Self.tooWide(result.standardOutput).isEmpty, "\(Self.tooWide(result.standardOutput))")
    }

    @Test func compareFits() throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(in: directory)
        let result = try runBench(
            [
                "compare", "--store", store, "20261122T100000Z-w,20261122T100100Z-w",
                "20261122T102800Z-w,20261122T102900Z-w",
            ],
            environment: Self.wide)
        #expect([0, 2, 3].contains(result.status), "\(result.standardError)")
        #expect(result.standardOutput.contains("expat"), "\(result.standardOutput)")
        #expect(Self.tooWide(result.standardOutput).isEmpty, "\(Self.tooWide(result.standardOutput))")
    }

    @Test func listFits() throws {
        let result = try runBench(["list"], environment: Self.wide)
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("swxmlhash"))
        #expect(Self.tooWide(result.standardOutput).isEmpty, "\(Self.tooWide(result.standardOutput))")
    }

    /// `bench verify` shows its progress on a terminal.
    ///
    /// Off a terminal, its output is checked by `BenchCommandTests.verifyChecksTheFeedsInData`,
    /// whose run is at this width.
    @Test func verifyShowsProgressOnATerminal() throws {
        // On a terminal (script(1) gives the command one): which parser, and for how long.
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        let onTerminal = try runProgram(
            "/usr/bin/script",
            ["-qec", "'\(TestPaths.benchExecutable)' verify --parsers libxml2,expat Data/top300.rss.xml", "/dev/null"],
            environment: Self.wide)
        #expect(onTerminal.status == 0, "\(onTerminal.standardOutput)")
        #expect(
            onTerminal.standardOutput.contains("checking Data/top300.rss.xml: libxml2 (1 of 2)"),
            "\(onTerminal.standardOutput)")
    }

    /// `bench generate`'s and `bench store push`'s output fits.
    ///
    /// A sweep's output is checked by `SweepCommandTests.aSmallSweepWritesEveryPointAndTheSlopes`,
    /// whose sweep runs at this width.
    @Test func generateAndStorePushFit() throws {
        let directory = try TemporaryDirectory()
        let generate = try runBench(
            ["generate", "--songs", "10", "--output", directory.path("a-feed-with-a-long-name-of-ten-songs.rss.xml")],
            environment: Self.wide)
        #expect(generate.status == 0 && Self.tooWide(generate.standardOutput).isEmpty, "\(generate.standardOutput)")
        let push = try runBench(
            ["store", "push", "--from", try Self.store(in: directory), "--to", directory.path("copy.sqlite")],
            environment: Self.wide)
        #expect(push.status == 0, "\(push.standardError)")
        #expect(Self.tooWide(push.standardOutput).isEmpty, "\(push.standardOutput)")
    }

    /// `bench conformance`'s table (about 130 columns wide before) within 100, saying what it left out.
    @Test func conformanceFits() throws {
        let directory = try TemporaryDirectory()
        let result = try runBench(
            [
                "conformance", try ConformanceCommandTests.smallSuite(in: directory), "--parsers",
                "libxml2,expat,foundation,memchr", "--output-dir", directory.path("out"),
            ], environment: Self.wide)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("foundation crashed on 1 valid (1 SIGSEGV)"), "\(result.standardOutput)")
        #expect(Self.tooWide(result.standardOutput).isEmpty, "\(Self.tooWide(result.standardOutput))")
    }

    /// A practice's table (the store practice's was 111 columns wide, the read practice's 150)
    /// within 100, saying what it left out.
    @Test func aPracticeTableFits() throws {
        let directory = try TemporaryDirectory()
        let result = try runBench(
            [
                "run", "--scenario", "store,read", "--rounds", "1", "--iterations", "1", "--parsers", "libxml2",
                "--no-store", "--output-dir", directory.path("out"), "--count-preempted",
            ], environment: Self.wide)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("a transaction per song"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("a new connection per screen"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("not shown at this width:"), "\(result.standardOutput)")
        #expect(Self.tooWide(result.standardOutput).isEmpty, "\(Self.tooWide(result.standardOutput))")
    }

    /// Every command's help, its USAGE line too (swift-argument-parser writes it whole: 263
    /// columns for report's), and the messages a command ends with: an error, a bad value's usage
    /// and help (the library's "Help:" line holds the option's whole help).
    @Test func everyHelpAndErrorFits() throws {
        let commands: [[String]] = [
            [], ["run"], ["verify"], ["conformance"], ["hostile"], ["sweep"], ["report"], ["history"], ["compare"],
            ["store"], ["store", "push"], ["store", "pull"], ["store", "remove"], ["serve"], ["generate"], ["list"],
        ]
        for command in commands {
            let help = try runBench(command + ["--help"], environment: Self.wide)
            #expect(help.status == 0)
            #expect(Self.tooWide(help.standardOutput).isEmpty, "\(command): \(Self.tooWide(help.standardOutput))")
            // The usage line continues under itself.
            if let usage = help.standardOutput.range(of: "USAGE: ") {
                let after = help.standardOutput[usage.upperBound...].split(
                    separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
                if after.count > 1, !after[1].isEmpty { #expect(after[1].hasPrefix("       "), "\(command)") }
            }
        }
        let directory = try TemporaryDirectory()
        let failures: [[String]] = [
            // (A path is one word: wider than the terminal, it would stay whole.)
            ["report", "--store", directory.path("missing/stats.sqlite")],
            ["run", "--rounds", "x"],
            ["compare", "--metric", "nonsense", "a.json", "b.json"],
        ]
        for arguments in failures {
            let result = try runBench(arguments, environment: Self.wide)
            #expect(result.status != 0, "\(arguments)")
            #expect(!result.standardError.isEmpty, "\(arguments)")
            #expect(Self.tooWide(result.standardError).isEmpty, "\(arguments): \(Self.tooWide(result.standardError))")
        }
    }

    /// A default run's terminal output: the answer, the tables and a short key, within 100 columns,
    /// the parse table within 80 at 80; the whole legend with --legend.
    @Test func aRunFitsAndEndsWithAShortKey() throws {
        let directory = try TemporaryDirectory()
        func run(_ environment: [String: String], _ extra: [String] = []) throws -> String {
            let result = try runBench(
                [
                    "run", "--scenario", "parse,download", "--network", "loopback", "--rounds", "2", "--iterations",
                    "1",
                    "--download-rounds", "1", "--no-store", "--output-dir", directory.path("out"), "--count-preempted",
                ] + extra, environment: environment)
            #expect(result.status == 0, "\(result.standardError)")
            return result.standardOutput
        }
        let output = try run(Self.wide)
        #expect(Self.tooWide(output).isEmpty, "\(Self.tooWide(output))")
        #expect(output.contains("Key: times in ms"), "\(output)")
        #expect(!output.contains("Times in ms (wall clock, monotonic)"), "the whole legend, unasked")
        #expect(output.contains("--legend"))
        let legend = try run(Self.wide, ["--legend"])
        #expect(legend.contains("Times in ms (wall clock, monotonic)") && Self.tooWide(legend).isEmpty)
        let narrow = try run(["COLUMNS": "80"])
        let lines = narrow.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("parse: ") }, "\(narrow)")
        let table = lines[start...].prefix { !$0.isEmpty }
        #expect(table.count >= 5)
        #expect(table.allSatisfy { $0.count <= 80 }, "\(table.joined(separator: "\n"))")
        // The key names the columns left out (its lines wrapped at the width), a figure kept by
        // metric (minor faults) among them when it did not fit.
        let key = narrow.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(key.contains("Not shown at this width: "), "\(narrow)")
        let notShown = key.components(separatedBy: "Not shown at this width: ").dropFirst().first?
            .prefix { $0 != "." }
        #expect(
            table.joined().contains("minor faults") != (notShown?.contains("minor faults") == true), "\(narrow)")
    }
}
