import BenchResults
import BenchTestSupport
import Foundation
import Testing

@testable import StatsStore

/// A counted run's profiles on every store: recorded with the run, read back by run ID exactly as
/// written, carried by a copy (`store push` / `pull`), removed by retention with the raw samples,
/// and none for a run that has none.
enum ProfileContract {
    static func profile(_ parser: String, instructions: Int) -> CellProfile {
        let profile = ParseProfile(
            events: ["Ir", "Dr"], totals: [instructions, 10],
            functions: [
                ParseProfile.Function(
                    name: "static MeasureWorker.callgrindParseRegion(_:_:step:extraBytes:)", object: "bench",
                    selfCost: [100, 1], inclusive: instructions, calls: 0),
                ParseProfile.Function(
                    name: "xmlParseChunk", object: "libxml2", selfCost: [instructions - 100, 9],
                    inclusive: instructions - 100, calls: 2),
            ], calls: [ParseProfile.Call(caller: 0, callee: 1, count: 2, inclusive: instructions - 100)])
        return CellProfile(
            key: ComparisonKey(
                parser: parser, scenario: CellScenario(.parse), feed: "top300.rss.xml", chunkSize: 16384, network: ""),
            round: 1, parse: 2, profile: profile)
    }

    static func keepsProfiles(_ store: any StatsStoring, copy: any StatsStoring) throws {
        let counted = RetentionContract.a0
        let newer = RetentionContract.a2
        try RetentionContract.record(counted, in: store)
        let profiles = [profile("libxml2", instructions: 44_000_000), profile("expat", instructions: 58_000_000)]
        try store.recordProfiles(profiles, runID: counted.runID)
        // Recorded again (a cell's profile replaced), not duplicated.
        try store.recordProfiles([profiles[0]], runID: counted.runID)
        try RetentionContract.record(newer, in: store)

        let stored = try store.profiles(of: counted.runID)
        #expect(stored.count == 2)
        let decoded = try stored.map { try $0.decoded() }.sorted { $0.key.parser < $1.key.parser }
        #expect(decoded == profiles.sorted { $0.key.parser < $1.key.parser })
        #expect(stored.allSatisfy { $0.source.contains(counted.runID) })
        #expect(try store.profiles(of: newer.runID).isEmpty)
        #expect(try store.profiles(of: "20261122T000000Z-none").isEmpty)

        // A copy carries them.
        let run = try #require(try store.storedRun(counted.runID))
        #expect(try copy.importRun(run) == .added)
        #expect(
            try copy.profiles(of: counted.runID).map { try $0.decoded() }.sorted { $0.key.parser < $1.key.parser }
                == decoded)

        // Retention removes them with the samples; the run's row and summaries stay.
        let plan = try store.retentionPlan(RetentionPolicy(keepNewestRuns: 1))
        #expect(plan.pruned.map(\.runID) == [counted.runID])
        _ = try store.prune(plan.pruned, at: Date(), progress: { _ in })
        #expect(try store.profiles(of: counted.runID).isEmpty)
        #expect(try store.cellRecords(of: counted.runID)?.isEmpty == false)
        #expect(try copy.profiles(of: counted.runID).count == 2)
    }
}

@Suite("Profiles in the store: SQLite")
struct SQLiteProfileStoreTests {
    @Test func keepsProfiles() throws {
        let directory = try TemporaryDirectory()
        try ProfileContract.keepsProfiles(
            try StatsStores.open(directory.path("a.sqlite")), copy: try StatsStores.open(directory.path("b.sqlite")))
    }

    /// A profile row whose bytes are not a profile is refused, naming it, when it is decoded.
    @Test func aDamagedRowIsRefusedNamingIt() throws {
        let directory = try TemporaryDirectory()
        let store = try StatsStores.open(directory.path("a.sqlite"))
        try RetentionContract.record(RetentionContract.a0, in: store)
        try store.recordProfiles(
            [ProfileContract.profile("libxml2", instructions: 1_000)], runID: RetentionContract.a0.runID)
        var stored = try #require(try store.profiles(of: RetentionContract.a0.runID).first)
        stored.data = Array(stored.data.prefix(stored.data.count - 8))
        #expect {
            try stored.decoded()
        } throws: { error in
            "\(error)".contains("libxml2") && "\(error)".contains(RetentionContract.a0.runID)
                && "\(error)".contains("truncated")
        }
    }
}

@Suite(
    "Profiles in the store: PostgreSQL",
    .enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.missing)))
struct PostgresProfileStoreTests {
    @Test func keepsProfiles() throws {
        let database = try PostgresTestServer.Database()
        let directory = try TemporaryDirectory()
        try ProfileContract.keepsProfiles(
            try StatsStores.open(database.url), copy: try StatsStores.open(directory.path("b.sqlite")))
    }

    @Test func carriesProfilesIntoPostgreSQL() throws {
        let database = try PostgresTestServer.Database()
        let directory = try TemporaryDirectory()
        try ProfileContract.keepsProfiles(
            try StatsStores.open(directory.path("a.sqlite")), copy: try StatsStores.open(database.url))
    }
}
