import BenchResults
import BenchTestSupport
import Foundation
@testable import StatsStore
import Testing

/// Retention (`bench store prune`) on every store: it removes the raw samples of the runs its
/// policy names and nothing else, keeps every run's row and summaries, never touches a run that
/// may still be recording or has no summaries, and says so of a pruned run when it is read back
/// or copied.
enum RetentionContract {
    static func run(_ id: String, host: String, minute: Int) -> RunEnvironment {
        StoreContract.environment(id, host: host, minute: minute)
    }

    /// The samples of a run (two cells, three iterations each) and the summaries `bench run`
    /// records with them.
    static func record(_ environment: RunEnvironment, in store: any StatsStoring, finish: Bool = true) throws {
        try record(
            environment,
            samples: StoreContract.samples("expat", walls: [3, 1, 2])
                + StoreContract.samples("libxml2", walls: [6, 5, 4]),
            in: store, finish: finish)
    }

    /// Records a run of `samples` with the summaries `bench run` records with them, a cell a parser.
    static func record(
        _ environment: RunEnvironment, samples: [Sample], in store: any StatsStoring, finish: Bool = true
    ) throws {
        let cells = Dictionary(grouping: samples, by: \.cell).keys.sorted { $0.parser < $1.parser }.map { cell in
            CellSummary.summarise(
                cell, samples: samples.filter { $0.cell == cell }, peakResidentBytes: nil, baselinePeakBytes: nil,
                outcome: nil)
        }
        try store.beginRun(environment, settings: StoreContract.settings)
        try store.record(samples, cells: CellRecord.of(cells, samples: samples), runID: environment.runID)
        if finish {
            try store.finishRun(
                environment.runID, endedAt: environment.startedAt, noise: nil, rounds: nil,
                cells: CellRecord.of(cells, samples: samples))
        }
    }

    static let a0 = run("20261122T100000Z-a000", host: "alpha", minute: 0)
    static let a1 = run("20261122T100100Z-a001", host: "alpha", minute: 1)
    static let a2 = run("20261122T100200Z-a002", host: "alpha", minute: 2)
    static let a3 = run("20261122T100300Z-a003", host: "alpha", minute: 3)
    static let b0 = run("20261122T100000Z-b000", host: "beta", minute: 0)
    static let b1 = run("20261122T100500Z-b001", host: "beta", minute: 5)

    /// alpha: four runs, the second still recording (incomplete); beta: two, the older copied in
    /// from `other` (a copy is summarised at the next writer's open: until then it has none).
    static func fill(_ store: any StatsStoring, other: any StatsStoring) throws {
        try record(a0, in: store)
        try record(a1, in: store, finish: false)
        try record(a2, in: store)
        try record(a3, in: store)
        try record(b0, in: other)
        try record(a0, in: other)
        #expect(try store.importRun(try #require(try other.storedRun(b0.runID))) == .added)
        try record(b1, in: store)
    }

    static func sampleCounts(_ store: any StatsStoring) throws -> [String: Int] {
        Dictionary(grouping: try store.samples(matching: SampleFilter()), by: \.runID).mapValues(\.count)
    }

    static func prunesOnlyWhatItMay(_ store: any StatsStoring, other: any StatsStoring) throws {
        try fill(store, other: other)
        let counts = try sampleCounts(store)
        #expect(counts.count == 6 && counts.values.allSatisfy { $0 == 6 }, "\(counts)")
        let summaries = try store.runs().map(\.runID).map { ($0, try store.cellRecords(of: $0)) }

        // Beyond the newest run of each host: a2, a1 (recording), a0; b0 (no summaries yet).
        let plan = try store.retentionPlan(RetentionPolicy(keepNewestRuns: 1))
        #expect(plan.pruned.map(\.runID) == [a0.runID, a2.runID])
        #expect(plan.pruned.map(\.samples) == [6, 6] && plan.samples == 12 && plan.storeSamples == 36)
        #expect(plan.incomplete.map(\.runID) == [a1.runID])
        #expect(plan.unsummarised.map(\.runID) == [b0.runID])
        #expect(plan.alreadyPruned == 0)
        #expect(try sampleCounts(store) == counts, "a plan changes nothing")

        // By age: started more than a day before 2026-11-23T10:01:30Z, that is before 10:01:30 the
        // day before: a0, a1, b0. With both policies, only what both name: a2 is too young.
        let now = try #require(ISO8601DateFormatter().date(from: "2026-11-23T10:01:30Z"))
        let old = try store.retentionPlan(RetentionPolicy(olderThanDays: 1, now: now))
        #expect(old.pruned.map(\.runID) == [a0.runID] && old.incomplete.map(\.runID) == [a1.runID])
        #expect(old.unsummarised.map(\.runID) == [b0.runID])
        #expect(
            try store.retentionPlan(RetentionPolicy(olderThanDays: 1, keepNewestRuns: 1, now: now)).pruned.map(\.runID)
                == [a0.runID])

        var progress: [Int] = []
        let when = try #require(ISO8601DateFormatter().date(from: "2026-11-26T12:00:00Z"))
        let pruned = try store.prune(plan.pruned, at: when) { progress.append($0) }
        #expect(pruned == plan.pruned)
        #expect(progress.last == 2)
        var left = counts
        left[a0.runID] = nil
        left[a2.runID] = nil
        #expect(try sampleCounts(store) == left)
        // Every run and every summary is kept; a pruned run says what went, and when.
        #expect(try store.runs().count == 6)
        #expect(try summaries.allSatisfy { id, records in try store.cellRecords(of: id) == records })
        let a0Back = try #require(try store.storedRun(a0.runID))
        #expect(a0Back.samples.isEmpty)
        #expect(a0Back.prunedSamples == PrunedSamples(prunedAt: "2026-11-26T12:00:00Z", samples: 6))
        #expect(try store.storedRun(a3.runID)?.prunedSamples == nil)
        // A pruned run is never summarised again from its (no) samples.
        #expect(try store.unsummarisedRuns() == [b0.runID])

        // Again: nothing more to do; a pruned run is not pruned twice.
        let again = try store.retentionPlan(RetentionPolicy(keepNewestRuns: 1))
        #expect(again.pruned.isEmpty && again.alreadyPruned == 2)
        #expect(try store.prune(plan.pruned, at: when) { _ in }.isEmpty)

        // A full copy of a pruned run is already there: its samples are not brought back, its
        // summaries stay.
        #expect(try store.importRun(try #require(try other.storedRun(a0.runID))) == .alreadyThere)
        #expect(try store.storedRun(a0.runID)?.samples.isEmpty == true)
        #expect(try store.unsummarisedRuns() == [b0.runID])
    }

    /// A pruned run copied to another store stays pruned there (it is not taken for a run with no
    /// samples).
    static func aPrunedRunIsCopiedAsPruned(_ store: any StatsStoring, other: any StatsStoring, copy: any StatsStoring)
        throws
    {
        try fill(store, other: other)
        let plan = try store.retentionPlan(RetentionPolicy(keepNewestRuns: 3))
        #expect(plan.pruned.map(\.runID) == [a0.runID])
        let when = try #require(ISO8601DateFormatter().date(from: "2026-11-26T12:00:00Z"))
        _ = try store.prune(plan.pruned, at: when) { _ in }
        #expect(try copy.importRun(try #require(try store.storedRun(a0.runID))) == .added)
        #expect(
            try copy.storedRun(a0.runID)?.prunedSamples == PrunedSamples(prunedAt: "2026-11-26T12:00:00Z", samples: 6))
        #expect(try copy.importRun(try #require(try store.storedRun(a0.runID))) == .alreadyThere)
    }

    /// A copy (`bench store push`, `pull`) carries a complete run's summaries: the target does not
    /// summarise it again, and a run whose samples retention removed keeps what it concluded; an
    /// incomplete run is summarised there from its samples, as before.
    static func copiesCarryTheirSummaries(
        _ store: any StatsStoring, other: any StatsStoring, copy: any StatsStoring
    ) throws {
        try fill(store, other: other)
        let when = try #require(ISO8601DateFormatter().date(from: "2026-11-26T12:00:00Z"))
        _ = try store.prune(try store.retentionPlan(RetentionPolicy(keepNewestRuns: 3)).pruned, at: when) { _ in }
        #expect(try store.storedRun(a0.runID)?.prunedSamples != nil)
        let runs = [a0, a1, a2].map(\.runID)
        let items = runs.map { RunCopy.Item.stored($0, in: store) }
        #expect(try RunCopy(to: copy).copy(items).added == 3)
        for run in [a0, a2] {
            let summaries = try #require(try store.cellRecords(of: run.runID))
            #expect(try copy.cellRecords(of: run.runID) == summaries)
        }
        #expect(try copy.unsummarisedRuns() == [a1.runID])
        // Again: every run already there, nothing changed.
        #expect(try RunCopy(to: copy).copy(items).alreadyThere == 3)
        #expect(try copy.cellRecords(of: a0.runID) == store.cellRecords(of: a0.runID))
        #expect(try copy.unsummarisedRuns() == [a1.runID])
    }

    /// The space a store says it takes, and a vacuum after a prune.
    static func saysItsSpace(_ store: any StatsStoring, other: any StatsStoring) throws {
        try fill(store, other: other)
        let before = try store.space()
        #expect(before.bytes > 0)
        let when = try #require(ISO8601DateFormatter().date(from: "2026-11-26T12:00:00Z"))
        _ = try store.prune(try store.retentionPlan(RetentionPolicy(keepNewestRuns: 1)).pruned, at: when) { _ in }
        try store.reclaimSpace()
        #expect(try store.space().bytes > 0)
        #expect(try sampleCounts(store).count == 4)
    }
}

@Suite("Retention: SQLite")
struct SQLiteRetentionTests {
    @Test func prunesOnlyWhatItMay() throws {
        let directory = try TemporaryDirectory()
        try RetentionContract.prunesOnlyWhatItMay(
            try StatsStores.open(directory.path("a.sqlite")), other: try StatsStores.open(directory.path("b.sqlite")))
    }

    @Test func aPrunedRunIsCopiedAsPruned() throws {
        let directory = try TemporaryDirectory()
        try RetentionContract.aPrunedRunIsCopiedAsPruned(
            try StatsStores.open(directory.path("a.sqlite")), other: try StatsStores.open(directory.path("b.sqlite")),
            copy: try StatsStores.open(directory.path("c.sqlite")))
    }

    @Test func copiesCarryTheirSummaries() throws {
        let directory = try TemporaryDirectory()
        try RetentionContract.copiesCarryTheirSummaries(
            try StatsStores.open(directory.path("a.sqlite")), other: try StatsStores.open(directory.path("b.sqlite")),
            copy: try StatsStores.open(directory.path("c.sqlite")))
    }

    @Test func aVacuumGivesTheSpaceBack() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("a.sqlite")
        let store = try StatsStores.open(path)
        try RetentionContract.saysItsSpace(store, other: try StatsStores.open(directory.path("b.sqlite")))
        // Nothing is left free inside the file after a vacuum.
        #expect(try store.space().freeBytes == 0)
    }
}

@Suite(
    "Retention: PostgreSQL", .serialized,
    .enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.missing)))
struct PostgresRetentionTests {
    @Test func prunesOnlyWhatItMay() throws {
        let database = try PostgresTestServer.Database()
        let directory = try TemporaryDirectory()
        try RetentionContract.prunesOnlyWhatItMay(
            try StatsStores.open(database.url), other: try StatsStores.open(directory.path("b.sqlite")))
    }

    @Test func aPrunedRunIsCopiedAsPruned() throws {
        let database = try PostgresTestServer.Database()
        let directory = try TemporaryDirectory()
        try RetentionContract.aPrunedRunIsCopiedAsPruned(
            try StatsStores.open(database.url), other: try StatsStores.open(directory.path("b.sqlite")),
            copy: try StatsStores.open(directory.path("c.sqlite")))
    }

    @Test func copiesCarryTheirSummaries() throws {
        let database = try PostgresTestServer.Database()
        let directory = try TemporaryDirectory()
        try RetentionContract.copiesCarryTheirSummaries(
            try StatsStores.open(directory.path("a.sqlite")), other: try StatsStores.open(directory.path("b.sqlite")),
            copy: try StatsStores.open(database.url))
    }

    @Test func saysItsSpace() throws {
        let database = try PostgresTestServer.Database()
        let directory = try TemporaryDirectory()
        let store = try StatsStores.open(database.url)
        try RetentionContract.saysItsSpace(store, other: try StatsStores.open(directory.path("b.sqlite")))
        #expect(try store.space().sampleBytes ?? 0 > 0)
    }
}
