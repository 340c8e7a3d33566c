import BenchResults
import BenchTestSupport
import Foundation
import SongFeed
import Testing

@testable import BenchEngine

/// What a run learns from its history once it has run (`RunAssessment`), and what its options
/// make of the defaults (`RunRequest`) and of its feeds (`FeedResolver`): the engine's, for
/// `bench run` and `bench sweep` alike.
@Suite("A run's assessment, settings and feeds")
struct RunAssessmentTests {
    /// A store's history made of runs in memory; it records what it was asked.
    final class History: RunHistorySource, @unchecked Sendable {
        var runs: [RunResult]
        var failure: (any Error)?
        var asked: [(parsers: [String], scenarios: [String], lastRuns: Int)] = []

        init(_ runs: [RunResult], failure: (any Error)? = nil) {
            self.runs = runs
            self.failure = failure
        }

        func calibrations(host: String, excluding runID: String?, lastRuns: Int) throws -> [RunCalibration] {
            if let failure { throw failure }
            return runs.filter { $0.environment.runID != runID }.map { run in
                RunCalibration(
                    runID: run.environment.runID, startedAt: run.environment.startedAt, feedSHA256: "feedsha",
                    calibrationNs: run.samples.compactMap(\.calibrationNs))
            }
        }

        func parseHistory(host: String, excluding runID: String?, lastRuns: Int, feeds: [String]) throws
            -> [StoredSample]
        {
            if let failure { throw failure }
            return runs.filter { $0.environment.runID != runID }.flatMap { run in
                run.samples.map {
                    StoredSample(runID: run.environment.runID, runStartedAt: run.environment.startedAt, sample: $0)
                }
            }
        }

        func recentFigures(parsers: [String], scenarios: [String], lastRuns: Int) throws -> [RunFigures] {
            asked.append((parsers, scenarios, lastRuns))
            if let failure { throw failure }
            return runs.map {
                RunFigures($0, metrics: RunFigures.pageMetrics, workerMedians: RunFigures.pageWorkerMedians)
            }
        }
    }

    struct Unreadable: Error, CustomStringConvertible {
        var description: String { "disk I/O error" }
    }

    static func run(_ index: Int, calibration: Int) -> RunResult {
        SyntheticRuns.run(
            id: "run-\(index)", started: "2026-11-2\(index)T10:00:00Z",
            rounds: ["expat": [1_000_000, 1_010_000, 990_000], "libxml2": [2_000_000, 2_020_000, 1_980_000]],
            calibrationNs: calibration)
    }

    @Test func aRunIsComparedWithItsHostsEarlierRunsAndItsIntervalsWidened() throws {
        let earlier = (1...6).map { Self.run($0, calibration: 1_000 + $0) }
        var run = Self.run(7, calibration: 1_500)
        let before = try #require(run.cells.first { $0.cell.parser == "expat" }?.estimate)
        RunAssessment.assess(&run, history: History(earlier))
        let state = try #require(run.hostState)
        #expect(state.historyRuns == 6 && state.moved, "\(state.message)")
        let note = try #require(run.runToRun)
        #expect(note.earlierRuns == 6 && note.whole, "\(note.message)")
        let after = try #require(run.cells.first { $0.cell.parser == "expat" }?.estimate)
        #expect(after.value == before.value)
        #expect(after.low <= before.low && after.high >= before.high)
    }

    @Test func withNoStoreOrAnUnreadableOneTheRunSaysWhy() {
        var alone = Self.run(1, calibration: 1_000)
        RunAssessment.assess(&alone, history: nil)
        #expect(alone.hostState?.message == "Host state not compared: --no-store, so no history was read.")
        #expect(
            alone.runToRun?.message
                == "Next-run intervals cover within-run noise only: --no-store, so no earlier run was read.")
        var failed = Self.run(1, calibration: 1_000)
        RunAssessment.assess(&failed, history: History([], failure: Unreadable()))
        #expect(failed.hostState?.message.contains("could not be read (disk I/O error)") == true)
        #expect(failed.runToRun?.message.contains("could not be read (disk I/O error)") == true)
    }

    @Test func thePageHistoryIsReadForTheRunsParsersAndScenariosOnly() {
        let history = History([Self.run(1, calibration: 1_000)])
        let run = Self.run(2, calibration: 1_000)
        let figures = RunAssessment.pageHistory(of: run, from: history, lastRuns: 30)
        #expect(figures.map(\.runID) == ["run-1"])
        #expect(history.asked.count == 1)
        #expect(history.asked.first?.parsers == ["expat", "libxml2"] && history.asked.first?.scenarios == ["parse"])
        #expect(history.asked.first?.lastRuns == 30)
        var empty = run
        empty.cells = []
        #expect(RunAssessment.pageHistory(of: empty, from: history, lastRuns: 30).isEmpty)
        #expect(history.asked.count == 1)
    }

    @Test func theRequestMakesTheSettingsFromTheDefaults() {
        // A timed parse run given no rounds stops at the default precision, from the floor to the
        // default rounds, with no time limit; its download cells keep their own iterations.
        let plain = RunRequest(parsers: ["libxml2", "expat"], scenarios: [.parse, .download])
        #expect(plain.precisionByDefault && plain.settings.rounds == RunDefaults.rounds)
        #expect(
            plain.settings.warmup == RunDefaults.warmup && plain.settings.iterations == RunDefaults.iterations.parse)
        #expect(plain.settings.downloadIterationsPerWorker == RunDefaults.iterations.download)
        #expect(plain.settings.downloadWarmupPerWorker == RunDefaults.downloadWarmup)
        #expect(
            plain.settings.stopping
                == {
                    var rule = StoppingRule(
                        precision: RunDefaults.precision, maxSeconds: nil, maxRounds: RunDefaults.rounds)
                    rule.floorRounds = RunDefaults.floorRounds
                    return rule
                }())
        #expect(
            plain.settings.countsAllocations == true && plain.settings.retryPreempted == true
                && plain.settings.reference == nil)

        // Rounds given: exactly those, as before; a download-only run has nothing the rule watches.
        var fixed = RunRequest(parsers: ["libxml2", "expat"], scenarios: [.parse, .download])
        fixed.rounds = 40
        #expect(!fixed.precisionByDefault && fixed.settings.stopping == nil && fixed.settings.rounds == 40)
        let downloads = RunRequest(parsers: ["libxml2"], scenarios: [.download])
        #expect(!downloads.precisionByDefault && downloads.settings.stopping == nil)

        var precise = RunRequest(parsers: ["expat"], scenarios: [.parse])
        precise.precision = 0.02
        #expect(!precise.precisionByDefault && precise.settings.rounds == RunDefaults.stoppingMaxRounds)
        #expect(precise.settings.stopping?.maxSeconds == RunDefaults.stoppingMaxSeconds)
        #expect(precise.settings.stopping?.floorRounds == nil)

        let document = RunRequest(
            parsers: ["expat", "c-libxml2"], scenarios: [.parseFromMemory(.document)], workload: .document)
        // The document workload's most rounds are its own (a round of the default corpus is 81
        // workers); rounds given are exactly those.
        #expect(document.precisionByDefault && document.settings.rounds == RunDefaults.documentRounds)
        #expect(document.settings.stopping?.maxRounds == RunDefaults.documentRounds)
        #expect(RunDefaults.documentRounds >= RunDefaults.floorRounds)
        var documentRounds = document
        documentRounds.rounds = 40
        #expect(!documentRounds.precisionByDefault && documentRounds.settings.rounds == 40)
        #expect(document.settings.stopping?.precision == RunDefaults.precision)
        #expect(document.settings.stopping?.floorRounds == RunDefaults.floorRounds)
        #expect(document.settings.reference == "c-libxml2")

        var counted = RunRequest(parsers: ["expat"], scenarios: [.parse])
        counted.countsInstructions = true
        #expect(counted.settings.counter == RunSettings.instructionCounter)
        #expect(counted.settings.countsAllocations == false && counted.settings.retryPreempted == false)
        #expect(!counted.precisionByDefault && counted.settings.stopping == nil)
    }

    @Test func theFeedsAreTheNamedOnesOrTheDefaultAndAMissingOneIsNamed() throws {
        let directory = try TemporaryDirectory()
        var resolver = FeedResolver(outputDirectory: directory.url.path)
        resolver.feeds = [directory.path("missing.xml")]
        #expect(throws: FeedResolutionError.feedNotFound(directory.path("missing.xml"))) { try resolver.resolve() }
        resolver.feeds = []
        resolver.songs = 3
        let generated = try resolver.resolve().feeds
        #expect(generated == [directory.path("feeds/songs-3-seed-\(FeedGenerator.defaultSeed).rss.xml")])
        #expect(FileManager.default.fileExists(atPath: generated[0]))
        resolver.documents = DocumentCorpus(directory: directory.path("nowhere"))
        #expect(throws: FeedResolutionError.corpusNotFound(directory.path("nowhere"))) { try resolver.resolve() }
    }

    /// A feed named twice by two spellings, or the same bytes at two paths, is measured once, and
    /// the run says which: its two cells of each parser were pooled in one table's ratios.
    @Test func theSameFeedByAnotherNameIsMeasuredOnce() throws {
        let directory = try TemporaryDirectory()
        let feed = try directory.write("feed.xml", Samples.feed([Samples.item(title: "One")]))
        let copy = try directory.write("copy.xml", Samples.feed([Samples.item(title: "One")]))
        let other = try directory.write("other.xml", Samples.feed([Samples.item(title: "Two")]))
        let sub = directory.path("sub")
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        var resolver = FeedResolver(outputDirectory: directory.url.path)
        resolver.feeds = [feed, sub + "/../feed.xml", copy, other]
        var said: [String] = []
        #expect(try resolver.resolve { said.append($0) }.feeds == [feed, other])
        #expect(
            said == [
                "\(sub)/../feed.xml is \(feed), the same file: measured once",
                "\(copy) holds the same bytes as \(feed): measured once",
            ])
    }
}
