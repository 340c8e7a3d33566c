@testable import BenchWorker
import BenchEngine
import BenchReports
import BenchResults
import BenchTestSupport
import Foundation
import SongFeed
import StatsStore
import Testing

/// `bench compare` end to end: its exit codes and formats, on run files written by the test.
@Suite("bench compare, end to end")
struct CompareCommandTests {
    static func write(_ run: RunResult, to directory: TemporaryDirectory, as name: String) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try directory.write(name, String(decoding: try encoder.encode(run), as: UTF8.self))
    }

    /// A run of `workers` worker processes a parser (the noise is measured between workers).
    static func run(_ id: String, minute: Int, expat: Double, libxml2: Double, workers: Int = 1) -> RunResult {
        SyntheticRuns.run(
            id: id, started: String(format: "2026-11-22T10:%02d:00Z", minute),
            rounds: [
                "expat": Array(repeating: expat, count: workers), "libxml2": Array(repeating: libxml2, count: workers),
                "null": Array(repeating: 500, count: workers),
            ], iterations: 9, spread: 0.001)
    }

    @Test func exitCodesSayNoRegressionRegressionOrBadInput() throws {
        let directory = try TemporaryDirectory()
        let base = try Self.write(
            Self.run("20261122T100000Z-a", minute: 0, expat: 1e7, libxml2: 6e6, workers: 6), to: directory,
            as: "base.json")
        let same = try Self.write(
            Self.run("20261122T100100Z-b", minute: 1, expat: 1.001e7, libxml2: 5.99e6, workers: 6), to: directory,
            as: "same.json")
        let slower = try Self.write(
            Self.run("20261122T100200Z-c", minute: 2, expat: 1.2e7, libxml2: 6e6, workers: 6), to: directory,
            as: "slower.json")
        // A broken parser: every expat iteration failed in the current run. Exit 3, before any regression.
        var brokenRun = Self.run("20261122T100300Z-d", minute: 3, expat: 1.2e7, libxml2: 9e6, workers: 6)
        for index in brokenRun.samples.indices where brokenRun.samples[index].cell.parser == "expat" {
            brokenRun.samples[index].error = "worker crashed with signal 11 (SIGSEGV)"
        }
        let broken = try Self.write(brokenRun, to: directory, as: "broken.json")
        let failed = try runBench(["compare", base, broken])
        #expect(failed.status == 3, "\(failed.standardOutput)")
        #expect(failed.standardOutput.contains("FAILED"))

        let quiet = try runBench(["compare", base, same])
        #expect(quiet.status == 0, "\(quiet.standardError)")
        #expect(quiet.standardOutput.hasPrefix("No regression in 2 compared cells"))

        let regression = try runBench([
            "compare", base, slower, "--format", "markdown", "--markdown", directory.path("compare.md"),
        ])
        #expect(regression.status == 2, "\(regression.standardError)")
        #expect(regression.standardOutput.contains("| expat |"))
        #expect(regression.standardOutput.contains("**slower**"))
        let written = try String(contentsOfFile: directory.path("compare.md"), encoding: .utf8)
        #expect(written == regression.standardOutput)

        // A higher threshold lets a 20% change through.
        #expect(try runBench(["compare", base, slower, "--threshold", "25"]).status == 0)

        let json = try runBench(["compare", base, slower, "--format", "json"])
        #expect(json.status == 2)
        let decoded = try JSONDecoder().decode(RunComparison.self, from: Data(json.standardOutput.utf8))
        #expect(decoded.regressions.map(\.key.parser) == ["expat"])

        // For other tools: the same verdict and exit code; JMH has no place for a ratio.
        let influx = try runBench(["compare", base, slower, "--format", "influx"])
        #expect(influx.status == 2)
        let ratioLine = influx.standardOutput.split(separator: "\n").first {
            $0.contains("parser=expat,") && $0.contains("measure=ratio,")
        }
        #expect(ratioLine?.contains("verdict=\"slower\"") == true, "\(influx.standardOutput)")
        let jmh = try runBench(["compare", base, slower, "--format", "jmh"])
        #expect(jmh.status == 1 && words(jmh.standardError).contains("no place for a ratio"))

        // Bad input: status 1 with a message.
        let missing = try runBench(["compare", base, directory.path("nope.json")])
        #expect(missing.status == 1 && words(missing.standardError).contains("no such file"))
        let garbage = try directory.write("garbage.json", "{\"not\": \"a run\"}")
        let unreadable = try runBench(["compare", garbage, base])
        #expect(unreadable.status == 1 && words(unreadable.standardError).contains("not a run file"))
        let noCounts = try runBench(["compare", base, same, "--metric", "instructions"])
        #expect(noCounts.status == 1 && words(noCounts.standardError).contains("--counter instructions"))
        let badMetric = try runBench(["compare", base, same, "--metric", "speed"])
        #expect(badMetric.status == 1)
        let badThreshold = try runBench(["compare", base, same, "--threshold", "-3"])
        #expect(badThreshold.status == 1)
        // A run on both sides among others would be pooled with itself, pulling its cells toward
        // unchanged on no evidence: refused. The same run on both sides checks the comparison: said.
        try FileManager.default.createDirectory(atPath: directory.path("both"), withIntermediateDirectories: true)
        for (file, name) in [(base, "20261122T100000Z-a"), (same, "20261122T100100Z-b")] {
            try FileManager.default.copyItem(atPath: file, toPath: directory.path("both/\(name).json"))
        }
        let pooled = try runBench(["compare", directory.path("both"), same])
        #expect(pooled.status == 1, "\(pooled.standardOutput)")
        #expect(
            words(pooled.standardError).contains("run 20261122T100100Z-b is on both sides among other runs"),
            "\(pooled.standardError)")
        let itself = try runBench(["compare", base, base])
        #expect(itself.status == 0, "\(itself.standardError)")
        #expect(words(itself.standardError).contains("Both sides are the same run(s), 20261122T100000Z-a"))
    }

    /// Records a run into a store through the recorder, as `bench run` does: begun, the cells it
    /// did not time and why, each cell's samples, finished.
    static func record(_ run: RunResult, into store: any StatsStoring) throws {
        var begun = run.environment
        begun.endedAt = nil
        begun.complete = false
        let id = run.environment.runID
        try store.beginRun(begun, settings: run.settings)
        try store.recordNotTimed(run.cells.filter { $0.cell.scenario == .notTimed }, runID: id)
        for cell in run.cells where cell.cell.scenario != .notTimed {
            try store.record(run.samples.filter { $0.cell == cell.cell }, runID: id)
        }
        try store.finishRun(id, endedAt: run.environment.endedAt ?? "", noise: run.noise, rounds: nil)
        try store.summariseStoredRuns()
    }

    /// The same comparison gives the same verdicts, notes and exit code whether it reads run files or
    /// the same runs stored (SQLite, and PostgreSQL when its test server is there): here a head whose
    /// expat was not timed because it disagreed, which fails the comparison (exit 3) either way.
    @Test func runFilesAndStoredRunsGiveTheSameVerdict() throws {
        let directory = try TemporaryDirectory()
        var base = Self.run("20261122T100000Z-a", minute: 0, expat: 1e7, libxml2: 6e6, workers: 6)
        var head = Self.run("20261122T100100Z-b", minute: 1, expat: 1e7, libxml2: 6e6, workers: 6)
        head.samples.removeAll { $0.cell.parser == "expat" }
        head.cells.removeAll { $0.cell.parser == "expat" }
        head.cells.append(
            CellSummary.notTimed(
                parser: "expat", feedPath: "Data/top300.rss.xml", feedSHA256: "feedsha", feedBytes: 901_440,
                chunkSize: 16_384, why: "DISAGREE: expat built 299 songs, libxml2 built 300"))
        // Described as `bench run` describes its cells (their parsers' kinds), on both sides alike.
        BenchSession.describeParsers(&base.cells, samples: base.samples)
        BenchSession.describeParsers(&head.cells, samples: head.samples)
        var files: [String] = []
        for run in [base, head] {
            let written = try RunFiles(directory: directory.path("runs")).write(run, html: "")
            files.append(try #require(written.first { $0.hasSuffix("/\(run.environment.runID).json") }))
        }
        var stores = [directory.path("s.sqlite")]
        let database = PostgresTestServer.isAvailable ? try PostgresTestServer.Database() : nil
        if let database { stores.append(database.url) }
        for store in stores {
            let opened = try StatsStores.open(store)
            for run in [base, head] { try Self.record(run, into: opened) }
        }
        let ids = [base, head].map(\.environment.runID)

        for format in ["table", "json"] {
            let byFiles = try runBench(["compare", files[0], files[1], "--format", format])
            #expect(byFiles.status == 3, "\(byFiles.standardOutput)\(byFiles.standardError)")
            let failure = "FAILED in the current runs: expat on top300.rss.xml was not timed (not timed: DISAGREE"
            // The notes are wrapped at the terminal's width (100 off a terminal).
            #expect(
                byFiles.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains(failure))
            for store in stores {
                let byIDs = try runBench(["compare", ids[0], ids[1], "--store", store, "--format", format])
                #expect(byIDs.status == byFiles.status, "\(store): \(byIDs.standardOutput)\(byIDs.standardError)")
                #expect(byIDs.standardOutput == byFiles.standardOutput, "\(store)")
                if format == "json" {
                    let fromFiles = try JSONDecoder().decode(
                        RunComparison.self, from: Data(byFiles.standardOutput.utf8))
                    let fromStore = try JSONDecoder().decode(RunComparison.self, from: Data(byIDs.standardOutput.utf8))
                    #expect(fromStore.cells == fromFiles.cells, "\(store)")
                    #expect(fromStore.failures.map(\.key.parser) == ["expat"], "\(store)")
                }
            }
        }
        // A run named twice is read once: its samples pooled with themselves narrowed the interval
        // on no new data, and turned a pass into a regression.
        let once = try runBench(["compare", ids[0], ids[1], "--store", stores[0]])
        let twice = try runBench([
            "compare", "\(ids[0]),\(ids[0])", "\(ids[1]),\(ids[1]),\(ids[1])", "--store", stores[0],
        ])
        #expect(twice.status == once.status, "\(twice.standardOutput)")
        #expect(twice.standardOutput == once.standardOutput)
    }

    @Test func directoriesMakeOneSideOfSeveralRunsPairedInOrder() throws {
        let directory = try TemporaryDirectory()
        let baseDirectory = directory.path("base")
        let headDirectory = directory.path("head")
        try FileManager.default.createDirectory(atPath: baseDirectory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: headDirectory, withIntermediateDirectories: true)
        // Eight pairs, the machine drifting by ±30% between pairs, expat 10% slower in the head.
        let drift = SyntheticRuns.noisy(1, count: 8, noise: 0.3, seed: 42)
        for pair in 0..<8 {
            let a = Self.run(
                "2026112\(pair)T1000\(pair)0Z-a", minute: pair * 2, expat: 1e7 * drift[pair], libxml2: 6e6 * drift[pair]
            )
            let b = Self.run(
                "2026112\(pair)T1000\(pair)1Z-b", minute: pair * 2 + 1, expat: 1.1e7 * drift[pair],
                libxml2: 6e6 * drift[pair])
            _ = try Self.write(a, to: directory, as: "base/\(a.environment.runID).json")
            _ = try Self.write(b, to: directory, as: "head/\(b.environment.runID).json")
        }
        let result = try runBench(["compare", baseDirectory, headDirectory, "--format", "json"])
        #expect(result.status == 2, "\(result.standardError)")
        let comparison = try JSONDecoder().decode(RunComparison.self, from: Data(result.standardOutput.utf8))
        #expect(comparison.baselineRuns.count == 8 && comparison.currentRuns.count == 8)
        let expat = comparison.cells.first { $0.key.parser == "expat" }
        #expect(expat?.method == "8 workers paired by turn, Wilcoxon signed-rank")
        #expect(expat?.verdict == .slower)
        #expect(comparison.cells.first { $0.key.parser == "libxml2" }?.verdict == .unchanged)
        let empty = directory.path("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let none = try runBench(["compare", empty, headDirectory])
        #expect(none.status == 1 && words(none.standardError).contains("no run files"))
    }
}

/// `bench run --counter instructions`: callgrind's counts repeat exactly.
@Suite("Instruction counts", .endToEnd)
struct InstructionCountTests {
    /// What is missing to count instructions, if anything.
    static var missingTools: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        func found(_ name: String) -> Bool {
            path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
        }
        let missing = ["valgrind", "objcopy", "nm"].filter { !found($0) }
        return missing.isEmpty ? nil : missing.joined(separator: ", ")
    }

    /// The tests that count run only where the tools are, saying which are missing otherwise.
    static var countingTools: ConditionTrait {
        .enabled(
            if: missingTools == nil,
            Comment(rawValue: "instruction counts need \(missingTools ?? "") (apt-get install valgrind binutils)"))
    }

    /// A counted run of `feed`.
    static func count(in directory: TemporaryDirectory, _ name: String, feed: String) throws -> RunResult {
        let result = try runBench([
            "run", "--counter", "instructions", "--parsers", "libxml2,expat", "--iterations", "2", "--warmup", "1",
            "--rounds", "1", "--feed", feed, "--no-store", "--format", "json", "--quiet", "--output-dir",
            directory.path(name),
        ])
        #expect(result.status == 0, "\(result.standardError)")
        return try JSONDecoder().decode(RunResult.self, from: Data(result.standardOutput.utf8))
    }

    /// The counted parses come after a warm-up parse, as in every counted run: the first parse of a
    /// process also pays for one-time set-ups (lazy globals, type metadata) that need not repeat
    /// to the instruction.
    @Test(Self.countingTools)
    ///
    /// A feed of 30 songs rather than the committed 300: the same parses, a tenth of the work for
    /// callgrind (a debug build's counted run of the 300 took 24 CPU-s).
    func theSameBinaryCountsTheSameTwice() throws {
        let directory = try TemporaryDirectory()
        let feed = try directory.write("songs-30.rss.xml", FeedGenerator(songs: 30).generate().bytes)
        let first = try Self.count(in: directory, "one", feed: feed)
        // At least a second apart: libxml2 would seed its hashes from a different time() without the frozen clock.
        Thread.sleep(forTimeInterval: 1.1)
        let second = try Self.count(in: directory, "two", feed: feed)
        func counts(_ run: RunResult) -> [String] {
            run.samples.map { "\($0.cell.parser)#\($0.iteration)=\($0.instructions.map(String.init) ?? "none")" }
        }
        #expect(first.settings.counter == "instructions")
        #expect(first.samples.count == 6)
        #expect(first.samples.allSatisfy { $0.error == nil && $0.wallNs == nil && $0.peakResidentBytes == nil })
        #expect(first.samples.filter { $0.cell.parser != "null" }.allSatisfy { ($0.instructions ?? 0) > 1_000_000 })
        #expect(counts(first) == counts(second))
        // And the comparison of the two finds nothing, exactly.
        let comparison = RunComparison.compare(
            baseline: [first], current: [second], metric: .instructions, threshold: 0.01)
        #expect(comparison.cells.filter { $0.ratio != nil }.allSatisfy { $0.ratio == 1 })
    }

    /// The gate works on document cells as on song cells: two counted document runs agree exactly,
    /// and a run with extra parse work injected is a regression of every parser's document cell (the
    /// `sink` baseline's count included in each run, never compared as a parser).
    @Test(Self.countingTools)
    func aSlowerDocumentWalkIsARegression() throws {
        let directory = try TemporaryDirectory()
        // 8 KiB: the sink's replay still counts 0.5 million instructions, libxml2's walk 5 million.
        let document = try directory.write("wide.xml", DocumentShape.wide.generate(bytes: 8 << 10))
        func count(_ name: String, slowdown: Int = 0) throws -> String {
            let result = try runBench(
                [
                    "run", "--document", document, "--counter", "instructions", "--parsers", "libxml2,expat",
                    "--iterations", "5", "--warmup", "1", "--rounds", "1", "--no-store", "--format", "json",
                    "--quiet", "--output-dir", directory.path(name),
                ] + (slowdown > 0 ? ["--inject-slowdown", String(slowdown)] : []))
            #expect(result.status == 0, "\(result.standardError)")
            let path = directory.path("\(name).json")
            try Data(result.standardOutput.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        let base = try count("base")
        let run = try JSONDecoder().decode(RunResult.self, from: Data(contentsOf: URL(fileURLWithPath: base)))
        #expect(Set(run.cells.map(\.cell.parser)) == ["null", "sink", "libxml2", "expat"])
        #expect(run.cells.allSatisfy { $0.cell.scenario.kind == .document })
        #expect((run.cells.first { $0.cell.parser == "sink" }?.instructions?.median ?? 0) > 100_000)
        let same = try count("same")
        let slower = try count("slower", slowdown: 20)
        let quiet = try runBench(["compare", base, same, "--metric", "instructions"])
        #expect(quiet.status == 0, "\(quiet.standardOutput)")
        let regression = try runBench(["compare", base, slower, "--metric", "instructions", "--format", "json"])
        #expect(regression.status == 2, "\(regression.standardOutput)")
        let comparison = try JSONDecoder().decode(RunComparison.self, from: Data(regression.standardOutput.utf8))
        // The sink baseline's replay has the same share of extra work: slower too.
        #expect(Set(comparison.regressions.map(\.key.parser)) == ["libxml2", "expat", "sink"])
    }

    /// Ctrl-C during a counted run: the workers are killed, both of the lanes that run side by side,
    /// and the stripped copy (~30 MB) removed.
    ///
    /// Both lanes: the handler once killed only the worker started last, and the run waited for the
    /// other to finish its parses (up to 68 s here), then kept its samples as if it had not been
    /// interrupted. Here no worker can finish before the signal, so the run keeps none.
    @Test(Self.countingTools)
    func anInterruptedCountedRunLeavesNoCopyBehind() throws {
        let directory = try TemporaryDirectory()
        let temporary = directory.path("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.benchExecutable)
        process.arguments = [
            "run", "--counter", "instructions", "--parsers", "libxml2", "--iterations", "50", "--rounds", "1",
            "--no-store",
            "--output-dir", directory.path("out"),
        ]
        process.currentDirectoryURL = TestPaths.packageRoot
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary]) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        func copies() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []).filter {
                $0.hasPrefix("bench-callgrind-")
            }
        }
        // Wait for the copy and a worker under callgrind in each lane (not objcopy or nm, which make
        // the copy), then interrupt.
        func workers() -> [pid_t] {
            StoreFaultTests.children(of: process.processIdentifier).filter { child in
                let arguments = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(child)/cmdline"))) ?? Data()
                let words = arguments.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
                return words.contains("--tool=callgrind") && words.contains(WorkerCommand.workerArgument)
            }
        }
        // The workers seen are the ones interrupted: looking again could fall between two workers
        // (the short null baseline's has ended, the next has not started).
        let lanes = min(2, ProcessInfo.processInfo.activeProcessorCount)
        let deadline = Date().addingTimeInterval(TestWaits.condition)
        var measuring: [pid_t] = []
        while Date() < deadline && process.isRunning {
            measuring = copies().count == 1 ? workers() : []
            if measuring.count >= lanes { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(copies().count == 1, "no copy was made")
        #expect(!measuring.isEmpty, "no worker under callgrind")
        process.interrupt()
        process.waitUntilExit()
        // bench run ends itself with SIGINT's code once it has said what it kept (issue 43).
        #expect(process.terminationReason == .exit && process.terminationStatus == 128 + SIGINT)
        #expect(copies().isEmpty, "left behind: \(copies())")
        Thread.sleep(forTimeInterval: 0.2)
        #expect(measuring.allSatisfy { !StoreFaultTests.isAlive($0) })
        // Nothing counted after the signal was kept: both workers were killed mid-run.
        let kept = try JSONDecoder().decode(
            RunResult.self, from: Data(contentsOf: URL(fileURLWithPath: directory.path("out/latest.json"))))
        let keptCells = Set(kept.samples.map(\.cell.parser))
        #expect(keptCells.isEmpty, "kept the samples of \(keptCells.sorted())")
    }

    @Test func instructionsCountTheParseScenarioOnly() throws {
        let result = try runBench(["run", "--counter", "instructions", "--scenario", "download", "--no-store"])
        #expect(result.status == 1)
        #expect(words(result.standardError).contains("parse scenario only"))
    }
}
