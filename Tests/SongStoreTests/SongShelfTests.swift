import BenchTestSupport
import Foundation
import GRDB
import SongFeed
import SongStore
import Testing

/// The read side of the song store (`bench run --scenario read`): every choice shows the feed's songs,
/// in the index's order, the pairs see the same screens, and a broken database is an error with its
/// message, after which the next screen reads again.
@Suite("SongShelf: the screens that read the stored songs")
struct SongShelfTests {
    static let songs = FeedGenerator(songs: 120, seed: 11).generate().songs

    /// Runs `body` on a freshly stocked shelf, its directory kept until `body` returns.
    static func withShelf(_ body: (SongShelf) throws -> Void) throws {
        let directory = try TemporaryDirectory()
        try withExtendedLifetime(directory) {
            try body(try SongShelf.stock(songs, at: directory.path("shelf.sqlite")))
        }
    }

    /// Shows `count` visits from `first`, returns the songs shown and the visits.
    static func show(
        _ reader: SongShelfReader, from first: Int = 0, count: Int = 60
    ) throws -> ([(key: Int64, song: Song)], [SongShelf.Visit]) {
        let visits = (first..<first + count).map { reader.shelf.visit($0, choice: reader.choice) }
        var shown: [(key: Int64, song: Song)] = []
        for visit in visits { try reader.show(visit, into: &shown) }
        return (shown, visits)
    }

    @Test func theListIsTheIndexOrderAndEveryKeyIsTheFeedsPlace() throws {
        try Self.withShelf { shelf in
            #expect(shelf.listOrder.count == Self.songs.count)
            let listed: [Song] = shelf.listOrder.map { Self.songs[Int($0) - 1] }
            let names: [[String]] = listed.map { (song: Song) -> [String] in [song.artist, song.title] }
            let sorted: [[String]] = names.sorted { $0.lexicographicallyPrecedes($1) }
            #expect(names == sorted)
            #expect(shelf.pages == 5)
            #expect(shelf.expectedKeys(.list(page: 4)).count == 20)
            #expect(Array(shelf.expectedKeys(.list(page: 1))) == Array(shelf.listOrder[25..<50]))
        }
    }

    @Test(arguments: SongShelf.Choice.allCases)
    func everyChoiceShowsTheFeedsSongs(choice: SongShelf.Choice) throws {
        try Self.withShelf { shelf in
            let reader = SongShelfReader(shelf: shelf, choice: choice)
            let (shown, visits) = try Self.show(reader)
            #expect(shelf.check(shown, visits: visits) == nil)
            let expected: Int = visits.map { (visit: SongShelf.Visit) -> Int in shelf.expectedKeys(visit).count }
                .reduce(0, +)
            #expect(shown.count == expected)
            let lists: Int = visits.filter { (visit: SongShelf.Visit) -> Bool in
                if case .list = visit { return true } else { return false }
            }.count
            switch choice {
            case .faults:
                #expect(reader.queries == lists + expected)
            case .batch, .cacheDefault, .cacheTable, .perScreen: #expect(reader.queries == visits.count)
            case .shared:
                // Only what the cache did not hold: one list, and the details of songs not yet shown.
                #expect(reader.queries < visits.count)
                #expect(reader.queries >= 1)
            }
            if choice == .perScreen {
                #expect(reader.pagesRead >= visits.count, "a new connection reads its pages every visit")
            }
        }
    }

    @Test func thePairsSeeTheSameScreensOnEveryRun() throws {
        try Self.withShelf { shelf in
            let pairs: [(SongShelf.Choice, SongShelf.Choice)] = [
                (.shared, .perScreen), (.batch, .faults), (.cacheDefault, .cacheTable),
            ]
            for (a, b) in pairs {
                let first = (0..<200).map { shelf.visit($0, choice: a) }
                #expect(first == (0..<200).map { shelf.visit($0, choice: b) })
                #expect(first == (0..<200).map { shelf.visit($0, choice: a) })
            }
            // The details and the cache's pages range over the whole table.
            let details = Set(
                (0..<400).compactMap { index -> Int64? in
                    if case .detail(let key) = shelf.visit(index, choice: .shared) { return key }
                    return nil
                })
            #expect(details.count > 60 && details.allSatisfy { (1...120).contains($0) })
            let pages = Set((0..<100).map { shelf.visit($0, choice: .cacheTable) })
            #expect(pages.count == shelf.pages)
        }
    }

    @Test func theTableCacheHoldsTheFileAndTheSettingsSaySo() throws {
        try Self.withShelf { shelf in
            let table = SongShelfReader(shelf: shelf, choice: .cacheTable)
            let settings = try table.settings()
            #expect(settings.cacheSize == -table.tableCacheKiB)
            #expect(settings.journalMode == "delete")
            let defaults = try SongShelfReader(shelf: shelf, choice: .cacheDefault).settings()
            #expect(defaults.cacheSize == -2_000)
            // Warmed by one pass over the list: the table's cache then reads nothing more.
            _ = try Self.show(table)
            #expect(table.pagesRead == 0)
        }
    }

    @Test func aWrongSongIsNamedByItsScreen() throws {
        try Self.withShelf { shelf in
            let reader = SongShelfReader(shelf: shelf, choice: .batch)
            let (shown, visits) = try Self.show(reader, count: 2)
            var wrong = shown
            wrong[3].song.album += "!"
            #expect(shelf.check(wrong, visits: visits)?.contains("the list at page 0 read song") == true)
            #expect(shelf.check(shown.dropLast(), visits: visits) == "the list at page 1 showed too few songs")
            #expect(
                shelf.check(shown + shown.prefix(1), visits: visits) == "the screens showed 1 more songs than they hold"
            )
            var swapped = shown
            swapped.swapAt(0, 1)
            #expect(shelf.check(swapped, visits: visits)?.contains("the list at page 0 showed song") == true)
        }
    }

    @Test(arguments: SongShelf.Choice.allCases)
    func aLockedDatabaseEndsTheScreenAndTheNextReadsAgain(choice: SongShelf.Choice) throws {
        try Self.withShelf { shelf in
            let reader = SongShelfReader(shelf: shelf, choice: choice)
            try reader.open()
            // Another process writing: its exclusive lock keeps every reader out (rollback journal).
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true
            let writer = try DatabaseQueue(path: shelf.path, configuration: configuration)
            try writer.inDatabase { db in try db.execute(sql: "BEGIN EXCLUSIVE") }
            var shown: [(key: Int64, song: Song)] = []
            let visit = shelf.visit(2, choice: choice)
            #expect {
                try reader.show(visit, into: &shown)
            } throws: { error in
                "\(error)".contains("database is locked")
            }
            #expect(shown.isEmpty)
            try writer.inDatabase { db in try db.execute(sql: "ROLLBACK") }
            try reader.show(visit, into: &shown)
            #expect(shelf.check(shown, visits: [visit]) == nil)
        }
    }

    @Test func aMissingDatabaseIsAnErrorNotANewFile() throws {
        try Self.withShelf { shelf in
            try FileManager.default.removeItem(atPath: shelf.path)
            for choice in [SongShelf.Choice.perScreen, .shared] {
                var shown: [(key: Int64, song: Song)] = []
                #expect {
                    try SongShelfReader(shelf: shelf, choice: choice).show(.list(page: 0), into: &shown)
                } throws: { error in
                    "\(error)".contains("unable to open")
                }
            }
            #expect(!FileManager.default.fileExists(atPath: shelf.path))
        }
    }

    @Test func aTableFromElsewhereIsAnErrorWithItsMessage() throws {
        try Self.withShelf { shelf in
            let other = try DatabaseQueue(path: shelf.path)
            try other.write { db in
                try db.execute(
                    sql: "DROP TABLE song; CREATE TABLE song (id INTEGER PRIMARY KEY, title TEXT, artist TEXT)")
            }
            try other.close()
            var shown: [(key: Int64, song: Song)] = []
            #expect {
                try SongShelfReader(shelf: shelf, choice: .batch).show(.list(page: 0), into: &shown)
            } throws: { error in
                "\(error)".contains("no such column")
            }
            let dated = try DatabaseQueue(path: shelf.path)
            try dated.write { db in
                try db.execute(
                    sql: """
                        DROP TABLE song;
                        CREATE TABLE song (id INTEGER PRIMARY KEY, title TEXT, category TEXT, artist TEXT, album TEXT,
                            releaseDate TEXT);
                        INSERT INTO song VALUES (1, 't', 'c', 'a', 'b', 'yesterday');
                        """)
            }
            try dated.close()
            #expect {
                try SongShelfReader(shelf: shelf, choice: .perScreen).show(.detail(key: 1), into: &shown)
            } throws: { error in
                "\(error)".contains("not a date: yesterday")
            }
        }
    }
}
