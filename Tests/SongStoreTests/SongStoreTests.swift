import BenchTestSupport
import Foundation
import GRDB
import SongFeed
import SongStore
import Testing

/// The app-side store of the `store` practice: every plan writes every song, in the order it says.
@Suite("SongStore: plans, order, settings")
struct SongStoreTests {
    static let songs = FeedGenerator(songs: 120, seed: 7).generate().songs

    /// The songs as stored, in row order (the order they were written).
    static func stored(_ queue: DatabaseQueue) throws -> [[String?]] {
        try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT title, category, artist, album, releaseDate FROM song ORDER BY id").map {
                row in
                (0..<5).map { row[$0] as String? }
            }
        }
    }

    @Test(
        arguments: SongStore.Plan.all + [
            SongStore.Plan(transactionPerSong: false, inIndexOrder: true, cacheForBatch: true)
        ])
    func everyPlanWritesEverySongInItsOrder(plan: SongStore.Plan) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("songs.sqlite")
        let queue = try SongStore.create(at: path, plan: plan, songs: Self.songs.count)
        let ordered = SongStore.ordered(Self.songs, plan: plan)
        try SongStore.write(ordered, to: queue, plan: plan)
        #expect(try SongStore.count(queue) == Self.songs.count)
        let rows = try Self.stored(queue)
        #expect(rows.map { $0[0] } == ordered.map(\.title))
        #expect(rows.map { $0[4] } == ordered.map { $0.releaseDate?.description })
        #expect(Set(ordered) == Set(Self.songs))
        if plan.inIndexOrder {
            #expect(
                ordered.map { [$0.artist, $0.title] }
                    == ordered.map { [$0.artist, $0.title] }.sorted { $0.lexicographicallyPrecedes($1) })
        }
    }

    @Test func theShuffleIsTheSameEveryTimeAndNotTheIndexOrder() {
        let plan = SongStore.Plan(transactionPerSong: false, inIndexOrder: false)
        let once = SongStore.ordered(Self.songs, plan: plan)
        #expect(once == SongStore.ordered(Self.songs, plan: plan))
        #expect(
            once != SongStore.ordered(Self.songs, plan: SongStore.Plan(transactionPerSong: false, inIndexOrder: true)))
    }

    @Test func aCellNameNamesItsPlanAndNothingElseDoes() {
        for plan in SongStore.Plan.all + [
            SongStore.Plan(transactionPerSong: true, inIndexOrder: false, cacheForBatch: true)
        ] {
            #expect(SongStore.Plan(cellName: plan.description) == plan)
        }
        for name in [
            "store", "store-song", "store-row-ordered", "store-song-sorted", "store-song-ordered-big", "paged-25",
        ] {
            #expect(SongStore.Plan(cellName: name) == nil, "\(name)")
        }
    }

    @Test func createReplacesWhatWasThereAndTheSettingsSaySo() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("songs.sqlite", "not a database")
        let plan = SongStore.Plan(transactionPerSong: false, inIndexOrder: true, cacheForBatch: true)
        let queue = try SongStore.create(at: path, plan: plan, songs: 30_000)
        #expect(try SongStore.count(queue) == 0)
        let settings = try SongStore.settings(queue)
        #expect(settings.cacheSize == -(30_000 / 4 + 1_024))
        #expect(settings.synchronous == "FULL")
        #expect(!settings.sqliteVersion.isEmpty && settings.pageSize > 0)
    }

    @Test func aStoreThatCannotBeOpenedIsAnError() {
        #expect(throws: (any Error).self) {
            try SongStore.create(at: "/nonexistent/directory/songs.sqlite", plan: SongStore.Plan.all[0], songs: 1)
        }
    }
}
