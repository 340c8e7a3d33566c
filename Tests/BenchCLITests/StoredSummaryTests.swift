import BenchEngine
import BenchResults
import BenchTestSupport
import Foundation
import StatsStore
import Testing

/// A run's summaries as a stats store keeps them: recorded worker by worker as `bench run`
/// records them, and read back, they are the run's own (one function makes both); a run stored
/// without them and summarised from its samples gets the same.
enum StoredSummaryContract {
    /// A run of three parsers and the null baseline over four rounds, one worker per cell and
    /// round, with a parser that failed an iteration and one the agreement check refused.
    static func workers() -> (runs: [CellRun], cells: [CellKey], notTimed: [CellSummary], environment: RunEnvironment) {
        let made = SyntheticRuns.run(
            id: "20261126T100000Z-5a11", started: "2026-11-26T10:00:00Z",
            rounds: [
                "c-libxml2": [2.0e6, 2.1e6, 1.9e6, 2.05e6], "libxml2": [2.3e6, 2.4e6, 2.2e6, 2.35e6],
                "expat": [3.1e6, 3.3e6, 3.0e6, 3.2e6], "null": [0.2e6, 0.21e6, 0.19e6, 0.2e6],
            ], iterations: 4, calibrationNs: 900_000)
        var byWorker: [String: CellRun] = [:]
        var order: [String] = []
        for var sample in made.samples {
            if sample.cell.parser == "expat" && sample.round == 2 && sample.iteration % 4 == 1 {
                sample.error = "a made-up failure"
                sample.wallNs = nil
            }
            if sample.cell.parser == "libxml2" && sample.iteration == 3 { sample.preempted = true }
            let key = "\(sample.round)/\(sample.cell.parser)"
            if byWorker[key] == nil {
                order.append(key)
                byWorker[key] = CellRun(
                    cell: sample.cell, round: sample.round, samples: [], peakResidentBytes: sample.peakResidentBytes,
                    outcome: nil)
            }
            byWorker[key]?.samples.append(sample)
        }
        let runs = order.sorted().compactMap { byWorker[$0] }
        let cells = made.cells.map(\.cell)
        var refused = cells[0]
        refused.parser = "foundation"
        refused.scenario = CellKey.notTimedScenario
        var notTimed = [
            CellSummary(
                cell: refused, songs: 0, wall: nil, cpuMedianNs: nil, firstSongMedianNs: nil, peakResidentBytes: nil,
                peakOverBaselineBytes: nil, failed: 0, outcome: "not timed: disagrees")
        ]
        // As the session describes them before it records them.
        BenchSession.describeParsers(&notTimed, samples: [])
        return (runs, cells, notTimed, made.environment)
    }

    /// Records the run as `BenchSession` does (its summaries so far with each worker, the final
    /// ones at the end) and reads it back.
    static func recordedAsARunRecordsIt(_ store: any StatsStoring) throws {
        let (runs, cells, notTimed, environment) = workers()
        let runID = environment.runID
        try store.beginRun(environment, settings: nil)
        try store.recordNotTimed(notTimed, runID: runID)
        var recorded: [CellRun] = []
        for run in runs {
            recorded.append(run)
            let measured = Set(recorded.map(\.cell))
            let samples = recorded.flatMap(\.samples)
            let sofar = BenchSession.summarise(
                recorded, cells: cells.filter(measured.contains), samples: samples, reference: nil)
            try store.record(run.samples, cells: CellRecord.of(sofar + notTimed, samples: samples), runID: runID)
        }
        let samples = runs.flatMap(\.samples)
        let own = BenchSession.summarise(runs, cells: cells, samples: samples, reference: nil) + notTimed
        // Halfway (no end recorded): what was recorded last is there.
        #expect(try store.cellRecords(of: runID)?.map(\.summary) == own)
        try store.finishRun(
            runID, endedAt: "2026-11-26T10:01:00Z", noise: nil, rounds: nil,
            cells: CellRecord.of(own, samples: samples))
        let back = try #require(try store.cellRecords(of: runID))
        #expect(back.map(\.summary) == own)
        #expect(back == CellRecord.of(own, samples: samples))
        #expect(own.contains { $0.relative != nil } && own.contains { $0.failed > 0 })
        #expect(try store.unsummarisedRuns().isEmpty)
        // The metric rows answer the queries of history and report.
        let walls = try store.metricSummaries(matching: SampleFilter(), metrics: [.wallNs])
        #expect(Set(walls.map(\.cell.parser)) == ["c-libxml2", "libxml2", "expat", "null"])
        #expect(walls.allSatisfy { $0.summary.workerMedians.count == 4 && $0.runID == runID })
        // `bench report` of this one run gives the run's own times, as its table did.
        var aggregator = HistoryRow.Aggregator()
        try store.forEachRunFigures(
            matching: SampleFilter(), metrics: HistoryRow.summarisedMetrics, workerMedians: HistoryRow.workerMetrics
        ) { aggregator.add($0) }
        let rows = aggregator.rows()
        #expect(rows.count == 4)
        for row in rows {
            let mine = own.first { $0.cell.parser == row.parser && $0.cell.scenario == row.scenario }
            #expect(row.wall?.median == mine?.time, "\(row.parser)")
        }
    }

    /// A run stored without summaries is summarised from its samples, once, to the run's own.
    static func summarisedFromItsSamples(_ store: any StatsStoring, copy: any StatsStoring) throws {
        let (runs, cells, notTimed, environment) = workers()
        let samples = runs.flatMap(\.samples)
        var result = RunResult(
            environment: environment,
            settings: RunSettings(iterations: 4, warmup: 1, rounds: 4, chunkSize: 16_384, timeoutSeconds: 30),
            cells: notTimed, samples: samples)
        result.environment.complete = true
        // A copy (bench store push) brings samples, not summaries.
        #expect(try copy.importRun(StoredRun(result)) == .added)
        #expect(try copy.unsummarisedRuns() == [environment.runID])
        #expect(try copy.cellRecords(of: environment.runID) == nil)
        let back = try #require(try copy.storedRun(environment.runID))
        let read = RunResult.summarising(
            back.samples, environment: back.environment, settings: back.settings, noise: back.noise,
            documents: back.documents, notTimed: back.notTimed)
        try SummaryBackfill.run(
            try copy.unsummarisedRuns(), read: { _ in [read] }, record: { try copy.recordSummaries($0) },
            progress: { _, _ in })
        let own = BenchSession.summarise(runs, cells: cells, samples: samples, reference: nil) + notTimed
        #expect(try copy.cellRecords(of: environment.runID)?.map(\.summary) == own)
        #expect(try copy.unsummarisedRuns().isEmpty)
        _ = store
    }
}

@Suite("Stored summaries: SQLite")
struct StoredSummarySQLiteTests {
    @Test func aRunReadBackIsItsOwnSummary() throws {
        let directory = try TemporaryDirectory()
        try StoredSummaryContract.recordedAsARunRecordsIt(try StatsStores.open(directory.path("a.sqlite")))
    }

    @Test func aRunStoredWithoutSummariesIsSummarisedFromItsSamples() throws {
        let directory = try TemporaryDirectory()
        try StoredSummaryContract.summarisedFromItsSamples(
            try StatsStores.open(directory.path("a.sqlite")), copy: try StatsStores.open(directory.path("b.sqlite")))
    }
}

@Suite(
    "Stored summaries: PostgreSQL", .serialized,
    .enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.missing)))
struct StoredSummaryPostgresTests {
    @Test func aRunReadBackIsItsOwnSummary() throws {
        let database = try PostgresTestServer.Database()
        try StoredSummaryContract.recordedAsARunRecordsIt(try StatsStores.open(database.url))
    }

    @Test func aRunStoredWithoutSummariesIsSummarisedFromItsSamples() throws {
        let database = try PostgresTestServer.Database()
        let directory = try TemporaryDirectory()
        try StoredSummaryContract.summarisedFromItsSamples(
            try StatsStores.open(directory.path("a.sqlite")), copy: try StatsStores.open(database.url))
    }
}
