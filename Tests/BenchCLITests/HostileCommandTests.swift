import BenchTestSupport
import Foundation
import Testing

/// `bench hostile`: the hostile corpus against the parsers asked for, a verdict and a table per
/// parser, and an exit status that fails on a crash, a hang, a leak or wrong songs.
@Suite("bench hostile", .serialized)
struct HostileCommandTests {
    /// The parser's verdict line and its row for `document`.
    static func rows(_ output: String, parser: String, document: String) -> (verdict: String?, row: String?) {
        let lines = output.split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("\(parser) (") }) else { return (nil, nil) }
        let row = lines[(start + 1)...].prefix { $0.hasPrefix("  ") }.first { $0.hasPrefix("  \(document) ") }
        return (lines[start], row)
    }

    /// A parser that holds: exit 0, its verdict, one row per document, within 100 columns; run from a
    /// directory other than the checkout (the corpus is generated, not read from Data/).
    ///
    /// libxml2's only run of the whole corpus in the tests (`HostileCorpusTests.runByTheCommandTests`).
    @Test func aParserThatHoldsExitsZero() throws {
        let directory = try TemporaryDirectory()
        let result = try runBench(
            ["hostile", "--parsers", "libxml2", "--quiet"], in: URL(fileURLWithPath: directory.path("")),
            environment: ["COLUMNS": "100"])
        #expect(result.status == 0, "\(result.standardOutput)\n\(result.standardError)")
        let (verdict, laughs) = Self.rows(result.standardOutput, parser: "libxml2", document: "billion laughs")
        #expect(verdict == "libxml2 (push/event): held on all 4109 documents", "\(result.standardOutput)")
        #expect(laughs?.hasSuffix("  typed error") == true, "\(laughs ?? "missing")")
        let truncated = Self.rows(result.standardOutput, parser: "libxml2", document: "truncated at 0 to 4095 bytes")
        #expect(truncated.row?.hasSuffix("  typed error 4096") == true, "\(truncated.row ?? "missing")")
        let nesting = Self.rows(result.standardOutput, parser: "libxml2", document: "100,000-deep nesting")
        #expect(nesting.row?.contains("  typed error") == true || nesting.row?.contains("correct songs (1)") == true)
        #expect(result.standardOutput.split(separator: "\n").allSatisfy { $0.count <= 100 }, "\(result.standardOutput)")
        #expect(result.standardOutput.hasSuffix("Held: libxml2.\n"), "\(result.standardOutput)")
    }

    /// Foundation's `XMLParser` traps on invalid UTF-8 in a name and takes longer than the limit
    /// over 1,000,000 attributes: exit 1, each named as it is, and every other document held.
    ///
    /// Its only run of the whole corpus in the tests, so these are its pins
    /// (`HostileCorpusTests.runByTheCommandTests`): a crash or hang that comes or goes fails here.
    @Test func aParserThatCrashesOrHangsFails() throws {
        let result = try runBench(["hostile", "--parsers", "foundation", "--quiet"], environment: ["COLUMNS": "100"])
        #expect(result.status == 1, "\(result.standardOutput)\n\(result.standardError)")
        let (verdict, crash) = Self.rows(
            result.standardOutput, parser: "foundation", document: "invalid UTF-8 in a name")
        #expect(
            verdict == "foundation (push/event): FAILED on 2 of 4109 documents: CRASHED 1, TIMED OUT 1",
            "\(result.standardOutput)")
        #expect(crash?.hasSuffix("  CRASHED (SIGILL)") == true, "\(crash ?? "missing")")
        let hang = Self.rows(result.standardOutput, parser: "foundation", document: "1,000,000 attributes").row
        // The limit, and when the worker was stopped (the limit and ConformanceRunner.startGrace).
        #expect(hang?.hasSuffix("  TIMED OUT (no result within 5 s (stopped at 6 s))") == true, "\(hang ?? "missing")")
        #expect(result.standardOutput.contains("Did not hold: foundation (CRASHED 1, TIMED OUT 1)."))
        #expect(words(result.standardError).contains("foundation did not hold"), "\(result.standardError)")
    }

    /// The corpus (4,100 files, the secret among them) is removed however `bench hostile` ends.
    ///
    /// Issue 68, item 9: interrupted, it was left behind; now it is removed then, and, when a crash
    /// or a SIGKILL left it, by the next `bench hostile`, which says what it removed. A live
    /// process's directory is left alone.
    @Test(arguments: [SIGINT, SIGTERM])
    func theCorpusIsRemovedOnEveryExit(signal: Int32) throws {
        let directory = try TemporaryDirectory()
        let temporary = directory.path("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        // A process that has ended: its id is free.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let dead = (temporary as NSString).appendingPathComponent(
            "bench-hostile-\(ended.processIdentifier)-00000000-0000-0000-0000-000000000000")
        let live = (temporary as NSString).appendingPathComponent(
            "bench-hostile-\(getpid())-00000000-0000-0000-0000-000000000001")
        for planted in [dead, live] {
            try FileManager.default.createDirectory(atPath: planted, withIntermediateDirectories: true)
            try Data("TOP-SECRET".utf8).write(to: URL(fileURLWithPath: planted + "/secret.txt"))
        }
        let planted = Set([dead, live].map { ($0 as NSString).lastPathComponent })
        let hostile = try NeverSilentCommandTests.Started(
            ["hostile", "--parsers", "libxml2", "--quiet"], environment: ["TMPDIR": temporary])
        // Its own directory, once its corpus is being written.
        func own() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []).filter {
                $0.hasPrefix("bench-hostile-") && !planted.contains($0)
            }
        }
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline && hostile.process.isRunning && own().isEmpty {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(!own().isEmpty, "no corpus directory in \(temporary)")
        Thread.sleep(forTimeInterval: 1)
        kill(hostile.process.processIdentifier, signal)
        let standardError = hostile.wait()
        #expect(hostile.process.terminationReason == .uncaughtSignal, "\(standardError)")
        #expect(hostile.process.terminationStatus == signal, "\(standardError)")
        #expect(own().isEmpty, "left behind: \(own())")
        #expect(!FileManager.default.fileExists(atPath: dead), "a dead process's corpus is kept")
        #expect(FileManager.default.fileExists(atPath: live + "/secret.txt"), "a live process's corpus was removed")
        #expect(
            words(standardError).contains(
                "Removed \(dead) (1 file), left by process \(ended.processIdentifier), which ended without removing it"),
            "\(standardError)")
    }

    @Test func aParserThatBuildsNoSongsIsRefused() throws {
        let result = try runBench(["hostile", "--parsers", "memchr"])
        #expect(result.status == 1)
        #expect(words(result.standardError).contains("memchr builds no songs"), "\(result.standardError)")
    }
}
