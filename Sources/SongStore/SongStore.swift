import Foundation
import GRDB
import SongFeed

/// Writes songs to a SQLite table through GRDB, as an app that keeps its feed offline would: the
/// practice measured by `bench run --scenario store`.
///
/// The table is an app's plain one (`song`: an integer primary key and the five fields) with an index
/// on `(artist, title)`, the order a list of songs is shown in. A ``Plan`` says how the songs are
/// written: one transaction per song or one for the batch, in the index's order or shuffled (a
/// fixed shuffle, the same on every run). The database is opened with GRDB's defaults for a
/// `DatabaseQueue` (SQLite's rollback journal, `synchronous=FULL`, SQLite's default page cache)
/// unless the plan sizes the cache for the batch.
public enum SongStore {
    public struct Plan: Codable, Sendable, Equatable, CustomStringConvertible {
        /// One transaction per song (`false`: one for the whole batch).
        public var transactionPerSong: Bool
        /// Insert in `(artist, title)` order (`false`: a fixed shuffle).
        public var inIndexOrder: Bool
        /// Size the page cache for the batch (`PRAGMA cache_size`), instead of SQLite's default.
        public var cacheForBatch: Bool

        public init(transactionPerSong: Bool, inIndexOrder: Bool, cacheForBatch: Bool = false) {
            self.transactionPerSong = transactionPerSong
            self.inIndexOrder = inIndexOrder
            self.cacheForBatch = cacheForBatch
        }

        /// The cell name, such as "store-song-ordered" or "store-batch-ordered-cache".
        public var description: String {
            "store-\(transactionPerSong ? "song" : "batch")-\(inIndexOrder ? "ordered" : "shuffled")"
                + (cacheForBatch ? "-cache" : "")
        }

        /// The plan a cell name names, or `nil`.
        public init?(cellName: String) {
            let parts = cellName.split(separator: "-").map(String.init)
            guard parts.count >= 3, parts.count <= 4, parts[0] == "store", ["song", "batch"].contains(parts[1]),
                ["ordered", "shuffled"].contains(parts[2]), parts.count == 3 || parts[3] == "cache"
            else { return nil }
            self.init(
                transactionPerSong: parts[1] == "song", inIndexOrder: parts[2] == "ordered",
                cacheForBatch: parts.count == 4)
        }

        /// The four plans of the practice: per song or batch, ordered or shuffled.
        public static let all: [Plan] = [
            Plan(transactionPerSong: true, inIndexOrder: true), Plan(transactionPerSong: true, inIndexOrder: false),
            Plan(transactionPerSong: false, inIndexOrder: true), Plan(transactionPerSong: false, inIndexOrder: false),
        ]
    }

    /// The database's settings, as SQLite reports them.
    public struct Settings: Codable, Sendable, Equatable {
        public var journalMode: String
        public var synchronous: String
        /// `PRAGMA cache_size` (negative: KiB; positive: pages).
        public var cacheSize: Int
        public var pageSize: Int
        public var sqliteVersion: String

        public var description: String {
            "journal_mode=\(journalMode), synchronous=\(synchronous), cache_size=\(cacheSize), page_size=\(pageSize), SQLite \(sqliteVersion)"
        }
    }

    /// An empty store at `path` (any file there is replaced), ready for ``write(_:to:plan:)``.
    public static func create(at path: String, plan: Plan, songs: Int) throws -> DatabaseQueue {
        removeFiles(at: path)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE song (
                        id INTEGER PRIMARY KEY, title TEXT NOT NULL, category TEXT NOT NULL, artist TEXT NOT NULL,
                        album TEXT NOT NULL, releaseDate TEXT);
                    CREATE INDEX song_by_artist_title ON song(artist, title);
                    """)
        }
        if plan.cacheForBatch {
            // Every page the batch touches stays cached: about 250 bytes a row and its index entry.
            let kib = max(2_000, songs / 4 + 1_024)
            try queue.inDatabase { db in try db.execute(sql: "PRAGMA cache_size = -\(kib)") }
        }
        return queue
    }

    /// Removes the store at `path` and the files SQLite keeps beside it (journal, WAL, shared memory).
    public static func removeFiles(at path: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// The songs in the order the plan writes them.
    public static func ordered(_ songs: [Song], plan: Plan) -> [Song] {
        if plan.inIndexOrder {
            return songs.sorted { ($0.artist, $0.title) < ($1.artist, $1.title) }
        }
        var generator = SplitMix64(seed: 0x5EED)
        var shuffled = songs
        shuffled.shuffle(using: &generator)
        return shuffled
    }

    /// Writes `songs` as the plan says (already in the plan's order: ``ordered(_:plan:)``).
    public static func write(_ songs: [Song], to queue: DatabaseQueue, plan: Plan) throws {
        if plan.transactionPerSong {
            for song in songs {
                try queue.write { db in try insert(song, db) }
            }
        } else {
            try queue.write { db in
                for song in songs { try insert(song, db) }
            }
        }
    }

    private static func insert(_ song: Song, _ db: Database) throws {
        let statement = try db.cachedStatement(
            sql: "INSERT INTO song (title, category, artist, album, releaseDate) VALUES (?, ?, ?, ?, ?)")
        try statement.execute(arguments: [
            song.title, song.category, song.artist, song.album, song.releaseDate?.description,
        ])
    }

    /// Rows in the store (to check that every song was written).
    public static func count(_ queue: DatabaseQueue) throws -> Int {
        try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM song") ?? 0 }
    }

    /// The database's settings.
    public static func settings(_ queue: DatabaseQueue) throws -> Settings {
        try queue.inDatabase { db in
            let synchronous = try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1
            return Settings(
                journalMode: try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "?",
                synchronous: [0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"][synchronous] ?? String(synchronous),
                cacheSize: try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? 0,
                pageSize: try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0,
                sqliteVersion: try String.fetchOne(db, sql: "SELECT sqlite_version()") ?? "?")
        }
    }
}
