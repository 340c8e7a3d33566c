import BenchResults
import BenchTestSupport
import FeedParsers
import Foundation
import SongFeed
import Testing

@testable import BenchEngine
@testable import BenchWorker

/// The concurrent scenario: N parses at once on N threads of one worker, each thread's songs
/// checked against the worker's single-thread answer.
@Suite("Concurrent scenario")
struct ConcurrentScenarioTests {
    static let feed = FeedGenerator(songs: 40).generate()

    /// Every parser that may run on several threads gives every thread the single-thread answer,
    /// which is the feed's songs.
    @Test(arguments: ParserRegistry.names + ["null"])
    func everyThreadGivesTheSingleThreadAnswer(parser: String) throws {
        let type = try #require(ParserRegistry.parser(named: parser))
        guard type.concurrency == .independentInstances else { return }
        let measured = try ConcurrentWorker.measure(
            type, bytes: Self.feed.bytes, threads: 3, iterations: 2, warmup: 1, chunkSize: 4_096)
        #expect(measured.iterations.count == 2)
        for iteration in measured.iterations {
            #expect(iteration.error == nil)
            #expect(iteration.wallNs > 0)
            #expect(iteration.songs == (type.buildsSongs ? 40 : 0))
        }
        if type.buildsSongs { #expect(measured.digest == SongDigest.sha256(of: Self.feed.songs)) }
    }

    /// A thread whose songs are not the single-thread answer's makes its batch a failure that names
    /// the thread; one that throws, too.
    @Test func aWrongAnswerOrAFailureOnAThreadIsReportedAsSuch() throws {
        FlakyParser.parses.reset()
        let measured = try ConcurrentWorker.measure(
            FlakyParser.self, bytes: Self.feed.bytes, threads: 2, iterations: 3, warmup: 0, chunkSize: 0)
        // Parse 1 is the single-thread answer; parses 2–3 the first batch, 4–5 the second, 6–7 the third.
        let errors = measured.iterations.map(\.error)
        #expect(errors.count == 3)
        let wrong = try #require(errors[0])
        #expect(errors[1] == nil)
        #expect(wrong.contains("of 2") && wrong.contains("differ from the single-thread answer"))
        let thrown = try #require(errors[2])
        #expect(thrown.contains("of 2") && thrown.contains("flaky parse 7"))
    }

    /// Its cells: one per thread count, for the parsers given, no network, the plan's chunk size.
    @Test func itsCellsAreOnePerThreadCount() throws {
        var cells = try ScenarioCellsTests.cells([.concurrent], agreeing: ["expat"])
        #expect(
            cells.filter { $0.parser == "expat" }.map(\.scenario.name) == [
                "concurrent-1", "concurrent-2", "concurrent-4",
            ])
        #expect(cells.allSatisfy { $0.network.isEmpty && $0.chunkSize == 4_096 })
        #expect(Set(cells.map(\.parser)) == ["null", "expat"])
        let feed = try FeedFile(path: TestPaths.top300)
        var plan = RunPlan(
            parsers: ["expat"], feeds: [feed.path], settings: ScenarioCellsTests.settings,
            executable: TestPaths.workerExecutable, debugBuild: true, scenarios: [.concurrent])
        plan.threadCounts = [3]
        cells = ConcurrentScenario().cells(in: plan).map {
            CellKey(parser: "expat", scenario: $0, feedPath: "f", feedSHA256: "s", feedBytes: 1, chunkSize: 1)
        }
        #expect(cells.map(\.scenario.name) == ["concurrent-3"])
        #expect(!ScenarioID.concurrent.traits.inDefaultRun && ScenarioID.concurrent.traits.runsEveryRound)
    }
}

/// A parser whose 3rd parse of the process builds one song too few and whose 7th throws: a
/// thread with a wrong answer, then a thread that fails.
private final class FlakyParser: SongFeedParser {
    static let name = "flaky"
    static let summary = "a parser that gives a wrong answer on some threads"
    static let kind = ParserKind.event
    static let parses = Counter()

    private let number: Int
    private var bytes: [UInt8] = []

    init(onSong: ((Song) -> Void)?) throws {
        number = Self.parses.next()
    }

    func consume(_ chunk: UnsafeRawBufferPointer) throws {
        bytes.append(contentsOf: chunk)
    }

    func finish() throws -> [Song] {
        if number == 7 { throw FeedParseError(parser: Self.name, message: "flaky parse 7", line: 1, column: 1) }
        let songs = try LibXML2FeedParser.parse(bytes, chunkSize: 4_096)
        return number == 3 ? Array(songs.dropLast()) : songs
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0

        func next() -> Int {
            lock.lock()
            defer { lock.unlock() }
            count += 1
            return count
        }

        func reset() {
            lock.lock()
            count = 0
            lock.unlock()
        }
    }
}
