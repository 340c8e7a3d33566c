@testable import BenchWorker
import BenchEngine
import BenchResults
import BenchTestSupport
import FeedParsers
import Foundation
import SongFeed
import Testing

@Suite("Workers side by side, parses that lose the CPU, the parse's own memory")
struct WorkersAndMemoryTests {
    static func cell(_ parser: String, _ scenario: CellScenario = .parse) -> CellKey {
        CellKey(parser: parser, scenario: scenario, feedPath: "f.xml", feedSHA256: "s", feedBytes: 1, chunkSize: 16_384)
    }

    /// Each table's cells stay together in a round (so that a parser's worker runs next to the
    /// reference's), and the order within a table turns by one each round.
    @Test func aRoundKeepsEachTableTogetherAndTurnsItsOrder() {
        let parse = ["null", "libxml2", "expat"].map { Self.cell($0) }
        let download = ["null", "libxml2", "expat"].map { Self.cell($0, .download) }
        let jobs = parse + download
        let first = BenchRunner.order(jobs, round: 1)
        #expect(first == jobs)
        let second = BenchRunner.order(jobs, round: 2)
        #expect(second.map(\.parser) == ["libxml2", "expat", "null", "libxml2", "expat", "null"])
        #expect(second.prefix(3).allSatisfy { $0.scenario == .parse })
        #expect(BenchRunner.order(jobs, round: 4) == first)
    }

    @Test func downloadWorkersAreSpreadOverTheRounds() {
        let settings = RunSettings(
            iterations: 5, warmup: 1, rounds: 20, chunkSize: 16_384, timeoutSeconds: 30, downloadRounds: 5)
        #expect((1...20).filter { settings.runsDownloads(inRound: $0) } == [1, 5, 9, 13, 17])
        #expect(settings.downloadWorkers == 5)
        let every = RunSettings(
            iterations: 5, warmup: 1, rounds: 3, chunkSize: 16_384, timeoutSeconds: 30, downloadRounds: 5)
        #expect((1...3).allSatisfy { every.runsDownloads(inRound: $0) } && every.downloadWorkers == 3)
    }

    @Test func aParseLostTheCPUWhenWallTimeExceedsCPUTimeByMoreThan3Percent() {
        #expect(!MeasureWorker.lostTheCPU(wallNs: 1_000_000, cpuNs: 990_000))
        #expect(!MeasureWorker.lostTheCPU(wallNs: 1_000_000, cpuNs: 970_000))
        #expect(MeasureWorker.lostTheCPU(wallNs: 1_000_000, cpuNs: 969_000))
        #expect(MeasureWorker.lostTheCPU(wallNs: 10_000_000, cpuNs: 4_000_000))
    }

    /// With retries on, a worker reports at least the parses asked that kept the CPU (on a quiet
    /// machine, exactly those; on a busy one, more, each flagged), and never more than the limit.
    @Test func retriesStopAtTheAskedCleanParsesOrTheLimit() throws {
        let feed = FeedGenerator(songs: 50).generate()
        let measured = MeasureWorker.measure(
            LibXML2FeedParser.self, bytes: feed.bytes, iterations: 4, warmup: 1, chunkSize: 4_096, retryPreempted: true)
        let clean = measured.iterations.filter { !$0.preempted }.count
        #expect(measured.iterations.count <= 4 * MeasureWorker.attemptsPerIteration)
        #expect(clean == 4 || measured.iterations.count == 4 * MeasureWorker.attemptsPerIteration)
        #expect(
            measured.iterations.allSatisfy {
                $0.preempted == MeasureWorker.lostTheCPU(wallNs: $0.wallNs, cpuNs: $0.cpuNs)
            })
    }

    /// Every measured parse carries the calibration timed just before it.
    @Test func everyParseCarriesItsCalibration() throws {
        let feed = FeedGenerator(songs: 50).generate()
        let measured = MeasureWorker.measure(
            ExpatFeedParser.self, bytes: feed.bytes, iterations: 3, warmup: 1, chunkSize: 4_096)
        #expect(measured.iterations.allSatisfy { ($0.figures[.calibrationNs] ?? 0) > 0 })
        // The workload runs no parser code and gives the same answer every time.
        let first = feed.bytes.withUnsafeBytes { Calibration.work($0) }
        let second = feed.bytes.withUnsafeBytes { Calibration.work($0) }
        #expect(first == second)
    }

    #if os(Linux)
        @Test func aWindowMeasuresTheRiseAboveTheResidentSetAtItsStart() throws {
            let window = try #require(PeakMemory.Window.open(), "/proc/self/clear_refs must be writable on Linux")
            let bytes = 64 << 20
            let block = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 4096)
            // Touch every page so that it is resident.
            for offset in stride(from: 0, to: bytes, by: 4096) {
                block.storeBytes(of: 1, toByteOffset: offset, as: UInt8.self)
            }
            let rise = try #require(window.close())
            block.deallocate()
            // Other tests run in this process meanwhile, and their in-process measurements open
            // windows of their own (each resets the one peak this process has) and free feeds of
            // several MiB: loose bounds on both sides. The exact figure is a worker's, in a
            // process of its own (theParsesOwnPeakShowsTheSongsNotTheFeed).
            #expect(rise >= bytes / 2)
            #expect(rise < bytes + (512 << 20))
            #expect(window.lifetimePeakBefore > 0)
        }

        /// At 3,000 songs the songs alone take several MiB: a streaming parse shows them; the null parser,
        /// which builds none, shows about nothing; nothing is negative.
        ///
        /// Measured in worker processes, as
        /// `bench run` does (this test process runs other tests at the same time).
        @Test func theParsesOwnPeakShowsTheSongsNotTheFeed() throws {
            let directory = try TemporaryDirectory()
            let feed = FeedGenerator(songs: 3_000).generate()
            let path = try directory.write("songs-3000.rss.xml", feed.bytes)
            func peak(_ parser: String) throws -> MeasureWorkerReport {
                let job = MeasureJob(parser: parser, feed: path, iterations: 1, warmup: 1, chunkSize: 16_384)
                let outcome = try WorkerProcess.run(
                    WorkerCommand(executable: TestPaths.workerExecutable, job: .measure(job)), timeout: 120)
                #expect(outcome.termination == .exited(0), "\(outcome.standardError)")
                return try JSONDecoder().decode(MeasureWorkerReport.self, from: Data(outcome.result))
            }
            let null = try #require(try peak("null").parsePeakBytes)
            let expat = try peak("expat")
            let expatPeak = try #require(expat.parsePeakBytes)
            #expect(null >= 0 && null < 1 << 20, "null: \(null) bytes")
            #expect(expatPeak > 1 << 20, "expat: \(expatPeak) bytes for 3,000 songs")
            // Far below the feed itself (9 MB): the feed was loaded before the window opened; the
            // worker's whole-life peak includes it.
            #expect(expatPeak < feed.bytes.count)
            #expect((expat.peakResidentBytes ?? 0) > feed.bytes.count)
        }
    #endif
}
