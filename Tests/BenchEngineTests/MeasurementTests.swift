@testable import BenchWorker
import BenchEngine
import BenchResults
import BenchTestSupport
import FeedParsers
import Foundation
import SongFeed
import Testing

@Suite("Measuring: the worker protocol and the runner")
struct MeasurementTests {
    static let feed = FeedGenerator(songs: 50).generate()

    @Test(arguments: ParserRegistry.names + ["null"])
    func workerMeasuresEveryIteration(parser: String) throws {
        let type = try #require(ParserRegistry.parser(named: parser))
        let measured = MeasureWorker.measure(type, bytes: Self.feed.bytes, iterations: 4, warmup: 2, chunkSize: 4_096)
        let buildsSongs = ParserRegistry.buildsSongs(parser)
        #expect(measured.iterations.count == 4)
        for iteration in measured.iterations {
            #expect(iteration.error == nil)
            #expect(iteration.wallNs > 0)
            #expect(iteration.cpuNs >= 0)
            #expect(iteration.songs == (buildsSongs ? 50 : 0))
            if buildsSongs {
                let first = try #require(iteration.figures[.firstSongNs])
                #expect(first > 0 && first <= iteration.wallNs)
            } else {
                #expect(iteration.figures[.firstSongNs] == nil)
            }
        }
        if buildsSongs { #expect(measured.digest == SongDigest.sha256(of: Self.feed.songs)) }
    }

    /// The gate's injected slowdown adds work to the timed parse but changes nothing it reports.
    @Test(arguments: ParserRegistry.names.filter(ParserRegistry.buildsSongs))
    func anInjectedSlowdownKeepsTheSongs(parser: String) throws {
        let type = try #require(ParserRegistry.parser(named: parser))
        let measured = MeasureWorker.measure(
            type, bytes: Self.feed.bytes, iterations: 2, warmup: 0, chunkSize: 4_096, slowdownPercent: 10)
        #expect(measured.iterations.allSatisfy { $0.error == nil && $0.songs == 50 })
        #expect(measured.digest == SongDigest.sha256(of: Self.feed.songs))
    }

    @Test func aFailingParseIsAFailedIterationNotACrash() {
        let measured = MeasureWorker.measure(
            ExpatFeedParser.self, bytes: Array("<rss><a></rss>".utf8), iterations: 3, warmup: 1, chunkSize: 0)
        #expect(measured.iterations.count == 3)
        #expect(measured.iterations.allSatisfy { $0.error?.hasPrefix("expat: mismatched tag") == true })
        #expect(measured.digest == nil)
    }

    @Test func theWorkerReportsThroughThePipe() throws {
        let job = MeasureJob(parser: "libxml2", feed: TestPaths.top300, iterations: 3, warmup: 1, chunkSize: 512)
        let outcome = try WorkerProcess.run(
            WorkerCommand(executable: TestPaths.workerExecutable, job: .measure(job)), timeout: 120)
        #expect(outcome.termination == .exited(0))
        let report = try JSONDecoder().decode(MeasureWorkerReport.self, from: Data(outcome.result))
        #expect(report.parser == "libxml2")
        #expect(report.iterations.count == 3)
        #expect(report.iterations.allSatisfy { $0.songs == 300 && $0.wallNs > 0 })
        #expect((report.peakResidentBytes ?? 0) > 1 << 20)
    }

    /// A timed parse records its minor page faults (`getrusage` across the parse, outside the
    /// clocks); a counting parse (callgrind, the interposer) records none.
    @Test func aTimedParseRecordsItsMinorPageFaults() {
        let timed = MeasureWorker.measure(
            LibXML2FeedParser.self, bytes: Self.feed.bytes, iterations: 3, warmup: 1, chunkSize: 4_096)
        #expect(timed.iterations.count == 3)
        #expect(timed.iterations.allSatisfy { ($0.figures[.minorPageFaults] ?? -1) >= 0 }, "\(timed.iterations)")
        let counted = MeasureWorker.measure(
            LibXML2FeedParser.self, bytes: Self.feed.bytes, iterations: 2, warmup: 1, chunkSize: 4_096,
            countingOnly: true)
        #expect(counted.iterations.allSatisfy { $0.figures[.minorPageFaults] == nil })
    }

    /// The runner's tests need a few parsers, not all of them: the classic three.
    static let classic = ["foundation", "libxml2", "expat"]

    static func plan(_ settings: RunSettings, parsers: [String] = classic, feeds: [String] = [TestPaths.top300])
        -> RunPlan
    {
        RunPlan(
            parsers: parsers, feeds: feeds, settings: settings, executable: TestPaths.workerExecutable, debugBuild: true
        )
    }

    @Test func runnerRotatesCellsAcrossRounds() throws {
        let runner = BenchRunner(
            plan: Self.plan(RunSettings(iterations: 2, warmup: 0, rounds: 3, chunkSize: 16_384, timeoutSeconds: 120)))
        let checks = try runner.checkAgreement()
        #expect(checks.count == 1)
        #expect(checks[0].agreeing == Self.classic)
        let cells = runner.cells(for: checks)
        #expect(cells.map(\.parser) == ["null"] + Self.classic)
        var order: [String] = []
        var iterationsReported = 0
        var roundsEnded: [Int] = []
        var stored = 0
        // With each iteration reported, as on a terminal (the reporting closure must not outlive the
        // worker: the runtime stops the process if it does).
        let runs = try runner.measure(
            cells, referenceDigests: [TestPaths.top300: checks[0].verification.referenceDigest ?? ""],
            iterationProgress: true,
            progress: { step in
                if step.iteration == 0 { order.append("\(step.round):\(step.parser)") } else { iterationsReported += 1 }
            },
            cellFinished: { stored += $0.samples.count },
            afterRound: { round, runs in
                roundsEnded.append(round)
                return true
            })
        #expect(roundsEnded == [1, 2, 3])
        #expect(iterationsReported >= 4 * 3 * 2, "every worker reports each of its iterations")
        // (Required first: a worker that failed to start leaves fewer, and slicing them would stop
        // the whole test process.)
        try #require(order.count == 12, "one worker a cell and round: \(order)")
        #expect(order.prefix(4) == ["1:null", "1:foundation", "1:libxml2", "1:expat"])
        #expect(order[4..<8] == ["2:foundation", "2:libxml2", "2:expat", "2:null"])
        #expect(order[8..<12] == ["3:libxml2", "3:expat", "3:null", "3:foundation"])
        #expect(stored == 4 * 3 * 2)
        let summaries = BenchSession.summarise(runs, cells: cells, samples: runs.flatMap(\.samples), reference: nil)
        #expect(summaries.count == 4)
        for summary in summaries {
            // Parses that lost the CPU are flagged and left out of the figures.
            #expect((summary.wall?.count ?? 0) + (summary.preempted ?? 0) == 6)
            #expect(summary.failed == 0)
            #expect(summary.songs == (summary.cell.parser == "null" ? 0 : 300))
            #expect((summary.peakResidentBytes ?? 0) > 0)
            #expect((summary.peakOverBaselineBytes != nil) == (summary.cell.parser != "null"))
        }
        let iterations = runs.filter { $0.cell.parser == "expat" }.flatMap(\.samples).map(\.iteration)
        #expect(iterations == [1, 2, 3, 4, 5, 6])
    }

    @Test func aCrashingOrHangingWorkerIsThatCellsOutcome() throws {
        let directory = try TemporaryDirectory()
        // Foundation crashes on this well-formed feed (pinned in FeedParsersTests); time it anyway.
        let path = try directory.write(
            "attlist.xml",
            Samples.feed([Samples.item()], prolog: "\n<!DOCTYPE rss [<!ATTLIST item id CDATA #IMPLIED>]>"))
        let feed = try FeedFile(path: path)
        let cell = CellKey(
            parser: "foundation", scenario: .parse, feedPath: path, feedSHA256: feed.sha256,
            feedBytes: feed.bytes.count, chunkSize: 0)
        let runner = BenchRunner(
            plan: Self.plan(RunSettings(iterations: 2, warmup: 0, rounds: 1, chunkSize: 0, timeoutSeconds: 60)))
        let runs = try runner.measure([cell], referenceDigests: [:], progress: { _ in }, cellFinished: { _ in })
        #if os(Linux)
            #expect(runs[0].samples.count == 1)
            #expect(runs[0].samples[0].error?.hasPrefix("worker crashed with signal 11 (SIGSEGV)") == true)
            #expect(runs[0].outcome == runs[0].samples[0].error)
            let summary = BenchSession.summarise(runs, cells: [cell], samples: runs.flatMap(\.samples), reference: nil)[
                0]
            #expect(summary.failed == 1 && summary.wall == nil)
        #endif

        // A worker past its time limit: 2,000 parses of a 900 KB feed do not fit in 2,001 × 0.5 ms.
        let slow = BenchRunner(
            plan: Self.plan(
                RunSettings(iterations: 2_000, warmup: 0, rounds: 1, chunkSize: 16_384, timeoutSeconds: 0.0005)))
        let top = try FeedFile(path: TestPaths.top300)
        let expatCell = CellKey(
            parser: "expat", scenario: .parse, feedPath: top.path, feedSHA256: top.sha256, feedBytes: top.bytes.count,
            chunkSize: 16_384)
        let timedOut = try slow.measure([expatCell], referenceDigests: [:], progress: { _ in }, cellFinished: { _ in })
        #expect(timedOut[0].samples.first?.error?.contains("time limit") == true)
    }

    @Test func songsThatDifferFromTheAgreedOnesAreFailedSamples() throws {
        let top = try FeedFile(path: TestPaths.top300)
        let cell = CellKey(
            parser: "expat", scenario: .parse, feedPath: top.path, feedSHA256: top.sha256, feedBytes: top.bytes.count,
            chunkSize: 16_384)
        let runner = BenchRunner(
            plan: Self.plan(RunSettings(iterations: 2, warmup: 0, rounds: 1, chunkSize: 16_384, timeoutSeconds: 60)))
        let runs = try runner.measure(
            [cell], referenceDigests: [top.path: "not-the-digest"], progress: { _ in }, cellFinished: { _ in })
        #expect(runs[0].samples.count == 2)
        #expect(runs[0].samples.allSatisfy { $0.error?.hasPrefix("songs differ") == true })
        #expect(
            BenchSession.summarise(runs, cells: [cell], samples: runs.flatMap(\.samples), reference: nil)[0].wall == nil
        )
    }
}
