import Foundation
import GRDB
import GRDBSQLite
import SongFeed

/// The songs of a feed, stored once in an app's table, and the screens that read them back: the
/// practice measured by `bench run --scenario read`.
///
/// The table is ``SongStore``'s (`song`: an integer key and the five fields, an index on
/// `(artist, title)`); a song's key is its place in the parsed feed, from 1, so that every song read
/// back can be checked against the feed's. Two screens read it, as an app's would:
///
/// - the **list**: a page of ``screenSize`` songs in the index's order (page 0: the first 25; page
///   *p* starts after the last song of page *p* − 1, the way an app scrolls: `WHERE (artist, title,
///   id) > (…)`, never an `OFFSET`);
/// - the **detail**: one song by its key.
///
/// Every screen decodes its rows into `Song` values. How the screens get them is the ``Choice``.
public struct SongShelf: Sendable {
    /// How an app's screens read the stored songs: one cell each.
    ///
    /// | choice | connection | one visit |
    /// |---|---|---|
    /// | `shared` | one `DatabaseQueue`, kept, with a cache of decoded songs | the list (page 0) or a detail, from the cache when it has them |
    /// | `per-screen` | a new `DatabaseQueue` per visit, no cache | the same visits |
    /// | `batch` | one, kept | a list page with one query |
    /// | `faults` | one, kept | the page's 25 keys with one query, then one query per song |
    /// | `cache-default` | one, kept, SQLite's default page cache | a list page anywhere in the table |
    /// | `cache-table` | one, kept, a page cache that holds the whole file | the same visits |
    public enum Choice: String, CaseIterable, Codable, Sendable {
        case shared
        case perScreen = "per-screen"
        case batch
        case faults
        case cacheDefault = "cache-default"
        case cacheTable = "cache-table"

        /// Whether a visit opens a connection of its own (`per-screen`), instead of the session's.
        public var connectionPerVisit: Bool { self == .perScreen }
    }

    /// One screen shown.
    public enum Visit: Sendable, Hashable, CustomStringConvertible {
        /// The list, at page `page` of the index's order.
        case list(page: Int)
        /// One song, by its key.
        case detail(key: Int64)

        public var description: String {
            switch self {
            case .list(let page): return "the list at page \(page)"
            case .detail(let key): return "the detail of song \(key)"
            }
        }
    }

    /// Songs on a list screen.
    public static let screenSize = 25
    /// Screens shown in one iteration of a cell.
    public static let visitsPerIteration = 50

    /// The store's file.
    public let path: String
    /// The parsed feed's songs: the song with key *k* is `songs[k - 1]`.
    public let songs: [Song]
    /// The keys in the list's order, as SQLite orders the index.
    public let listOrder: [Int64]

    /// The list's pages (the last one may be short).
    public var pages: Int { max(1, (listOrder.count + Self.screenSize - 1) / Self.screenSize) }

    /// Stores `songs` in a fresh table at `path` (any file there is replaced), in one transaction,
    /// and reads back the list's order.
    ///
    /// - Parameters:
    ///   - songs: the parsed feed's songs, in the feed's order.
    ///   - path: the store's file.
    /// - Returns: the shelf.
    /// - Throws: a store error, or a store that does not hold every song once.
    public static func stock(_ songs: [Song], at path: String) throws -> SongShelf {
        let queue = try SongStore.create(
            at: path, plan: SongStore.Plan(transactionPerSong: false, inIndexOrder: true), songs: songs.count)
        try queue.write { db in
            let statement = try db.makeStatement(
                sql: "INSERT INTO song (id, title, category, artist, album, releaseDate) VALUES (?, ?, ?, ?, ?, ?)")
            for (offset, song) in songs.enumerated() {
                try statement.execute(arguments: [
                    offset + 1, song.title, song.category, song.artist, song.album, song.releaseDate?.description,
                ])
            }
        }
        let order = try queue.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM song ORDER BY artist, title, id")
        }
        try queue.close()
        guard order.count == songs.count, Set(order) == Set(1...Int64(songs.count)) else {
            throw SongShelfError("the store holds \(order.count) songs, not the feed's \(songs.count)")
        }
        return SongShelf(path: path, songs: songs, listOrder: order)
    }

    /// The shelf of a store stocked earlier (``stock(_:at:)``), without opening it.
    public init(path: String, songs: [Song], listOrder: [Int64]) {
        self.path = path
        self.songs = songs
        self.listOrder = listOrder
    }

    /// The `index`-th visit (from 0, counted over a worker's whole life) of a choice's session: the
    /// same sequence for both sides of a pair, and on every run.
    ///
    /// - `shared`, `per-screen`: the list (page 0), then the detail of a song drawn at random from the
    ///   whole table (a fixed sequence), in turn;
    /// - `batch`, `faults`: the list, scrolled a page a visit from the top, wrapping round;
    /// - `cache-default`, `cache-table`: the list at a page drawn at random from the whole table.
    public func visit(_ index: Int, choice: Choice) -> Visit {
        func draw(_ count: Int) -> Int {
            var generator = SplitMix64(seed: 0x5EAD_0000 &+ UInt64(index))
            return Int(generator.next() % UInt64(max(1, count)))
        }
        switch choice {
        case .shared, .perScreen:
            guard index % 2 == 1, !songs.isEmpty else { return .list(page: 0) }
            return .detail(key: Int64(draw(songs.count) + 1))
        case .batch, .faults: return .list(page: index % pages)
        case .cacheDefault, .cacheTable: return .list(page: draw(pages))
        }
    }

    /// The keys a visit must show, in order.
    public func expectedKeys(_ visit: Visit) -> ArraySlice<Int64> {
        switch visit {
        case .list(let page):
            let start = min(listOrder.count, page * Self.screenSize)
            return listOrder[start..<min(listOrder.count, start + Self.screenSize)]
        case .detail(let key): return [key]
        }
    }

    /// Checks what a session showed against the feed's songs.
    ///
    /// - Parameters:
    ///   - shown: the songs shown, in order, with their keys.
    ///   - visits: the visits that showed them.
    /// - Returns: what is wrong with the first screen that differs, or `nil`.
    public func check(_ shown: [(key: Int64, song: Song)], visits: [Visit]) -> String? {
        var position = 0
        for visit in visits {
            for key in expectedKeys(visit) {
                guard position < shown.count else { return "\(visit) showed too few songs" }
                let (shownKey, song) = shown[position]
                guard shownKey == key else { return "\(visit) showed song \(shownKey) where song \(key) belongs" }
                guard song == songs[Int(key) - 1] else {
                    return
                        "\(visit) read song \(key) back as \(song.fieldValues), not the feed's \(songs[Int(key) - 1].fieldValues)"
                }
                position += 1
            }
        }
        return position == shown.count ? nil : "the screens showed \(shown.count - position) more songs than they hold"
    }
}

/// What went wrong on the read side of the song store.
public struct SongShelfError: Error, CustomStringConvertible, Sendable {
    public var description: String

    public init(_ description: String) { self.description = description }
}
