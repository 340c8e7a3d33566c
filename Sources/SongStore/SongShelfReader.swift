import Foundation
import GRDB
import GRDBSQLite
import SongFeed

/// An app's screens reading a ``SongShelf`` one way (a ``SongShelf/Choice``), over a worker's whole
/// life: the kept connection and its caches live as long as the reader.
///
/// Every connection is a GRDB `DatabaseQueue` opened read-only, with GRDB's defaults otherwise (SQLite's
/// rollback journal, its default page cache) unless the choice sizes the cache. Errors are thrown
/// as they come (a locked or missing database, a table that is not the app's): the caller ends that
/// iteration with the message, and the next visit starts afresh — a kept connection that failed is
/// dropped and opened again.
public final class SongShelfReader {
    public let shelf: SongShelf
    public let choice: SongShelf.Choice
    /// Pages SQLite read from the file (its page cache's misses) since the reader began, over every connection.
    public private(set) var pagesRead = 0
    /// Statements run since the reader began.
    public private(set) var queries = 0

    private var kept: DatabaseQueue?
    /// `shared`: the decoded songs by key, and the keys of each list page shown.
    private var songCache: [Int64: Song] = [:]
    private var pageCache: [Int: [Int64]] = [:]

    private static let columns = "id, title, category, artist, album, releaseDate"
    private static let listOrder = "ORDER BY artist, title, id LIMIT \(SongShelf.screenSize)"
    private static let after = "WHERE (artist, title, id) > (?, ?, ?)"
    // The statements, written once (as an app's are): a screen builds no SQL.
    private static let firstPage = "SELECT \(columns) FROM song \(listOrder)"
    private static let laterPage = "SELECT \(columns) FROM song \(after) \(listOrder)"
    private static let firstKeys = "SELECT id FROM song \(listOrder)"
    private static let laterKeys = "SELECT id FROM song \(after) \(listOrder)"
    private static let byKey = "SELECT \(columns) FROM song WHERE id = ?"

    /// A reader of `shelf`; its first visit opens the connection it keeps (all but `per-screen`).
    public init(shelf: SongShelf, choice: SongShelf.Choice) {
        self.shelf = shelf
        self.choice = choice
    }

    /// The page cache that holds the whole store, in KiB (`PRAGMA cache_size` takes it negated).
    public var tableCacheKiB: Int {
        let bytes = (try? FileManager.default.attributesOfItem(atPath: shelf.path)[.size] as? Int) ?? nil
        return (bytes ?? 0) / 1_024 + 1_024
    }

    /// Opens the kept connection now, if the choice keeps one and it is not open: for `cache-default`
    /// and `cache-table`, sets the cache and reads the whole list once, as an app that has been
    /// scrolling for a while has (its page cache then holds what it can of the table).
    ///
    /// - Throws: a database that cannot be opened or read.
    public func open() throws {
        guard !choice.connectionPerVisit, kept == nil else { return }
        let queue = try Self.connect(shelf.path)
        if choice == .cacheTable {
            try queue.inDatabase { db in try db.execute(sql: "PRAGMA cache_size = -\(tableCacheKiB)") }
        }
        if choice == .cacheDefault || choice == .cacheTable {
            try queue.read { db in
                let cursor = try Row.fetchCursor(db, sql: "SELECT \(Self.columns) FROM song ORDER BY artist, title, id")
                while try cursor.next() != nil {}
            }
            _ = try queue.inDatabase { db in try Self.cacheMisses(db) }
        }
        kept = queue
    }

    /// The settings of the connection the reader keeps (of a fresh one for `per-screen`).
    ///
    /// - Throws: a database that cannot be opened.
    public func settings() throws -> SongStore.Settings {
        try open()
        if let kept { return try SongStore.settings(kept) }
        return try SongStore.settings(try Self.connect(shelf.path))
    }

    /// Shows one screen, appending its songs to `shown`.
    ///
    /// - Parameters:
    ///   - visit: the screen.
    ///   - shown: the songs shown so far, with their keys (reserved by the caller: nothing here grows it).
    /// - Throws: a database error, or a stored date that is not a date.
    public func show(_ visit: SongShelf.Visit, into shown: inout [(key: Int64, song: Song)]) throws {
        let start = shown.count
        if choice == .shared {
            if showCached(visit, into: &shown) { return }
            shown.removeSubrange(start...)
        }
        let queue: DatabaseQueue
        if choice.connectionPerVisit {
            queue = try Self.connect(shelf.path)
        } else {
            try open()
            guard let kept else { throw SongShelfError("no connection") }
            queue = kept
        }
        do {
            try queue.read { db in
                switch visit {
                case .list(let page):
                    if choice == .faults {
                        for key in try keys(page, db) { try fetch(byKey: key, db, into: &shown) }
                    } else {
                        try list(page, db, into: &shown)
                    }
                case .detail(let key): try fetch(byKey: key, db, into: &shown)
                }
                pagesRead += try Self.cacheMisses(db)
            }
        } catch {
            // The next visit starts afresh: a kept connection that failed is opened again.
            shown.removeSubrange(start...)
            kept = nil
            throw error
        }
        if choice == .shared { remember(visit, shown[start...]) }
    }

    /// `shared`: appends the screen's songs from the cache; `false` when it does not hold them all.
    private func showCached(_ visit: SongShelf.Visit, into shown: inout [(key: Int64, song: Song)]) -> Bool {
        switch visit {
        case .list(let page):
            guard let keys = pageCache[page] else { return false }
            for key in keys {
                guard let song = songCache[key] else { return false }
                shown.append((key, song))
            }
            return true
        case .detail(let key):
            guard let song = songCache[key] else { return false }
            shown.append((key, song))
            return true
        }
    }

    private func remember(_ visit: SongShelf.Visit, _ songs: ArraySlice<(key: Int64, song: Song)>) {
        for (key, song) in songs { songCache[key] = song }
        if case .list(let page) = visit { pageCache[page] = songs.map(\.key) }
    }

    /// The statement of page `page` (`first` or `later`) and its arguments: a page after the first
    /// starts after the last song of the page before.
    private func pageStatement(
        _ page: Int, first: String, later: String, _ db: Database
    ) throws -> (Statement, StatementArguments) {
        let before = page * SongShelf.screenSize - 1
        guard page > 0, before < shelf.listOrder.count else { return (try db.cachedStatement(sql: first), []) }
        let key = shelf.listOrder[before]
        let song = shelf.songs[Int(key) - 1]
        return (try db.cachedStatement(sql: later), [song.artist, song.title, key])
    }

    private func list(_ page: Int, _ db: Database, into shown: inout [(key: Int64, song: Song)]) throws {
        let (statement, arguments) = try pageStatement(page, first: Self.firstPage, later: Self.laterPage, db)
        queries += 1
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        while let row = try rows.next() { shown.append(try Self.song(row)) }
    }

    private func keys(_ page: Int, _ db: Database) throws -> [Int64] {
        let (statement, arguments) = try pageStatement(page, first: Self.firstKeys, later: Self.laterKeys, db)
        queries += 1
        return try Int64.fetchAll(statement, arguments: arguments)
    }

    private func fetch(byKey key: Int64, _ db: Database, into shown: inout [(key: Int64, song: Song)]) throws {
        queries += 1
        let statement = try db.cachedStatement(sql: Self.byKey)
        let rows = try Row.fetchCursor(statement, arguments: [key])
        while let row = try rows.next() { shown.append(try Self.song(row)) }
    }

    /// A row of the app's table as a song (the columns in `columns`' order).
    private static func song(_ row: Row) throws -> (key: Int64, song: Song) {
        let date: String? = try row.decode(atIndex: 5)
        var releaseDate: SongDate?
        if let date {
            guard let parsed = SongDate(iso: date) else {
                throw SongShelfError("a stored release date is not a date: \(date.prefix(40))")
            }
            releaseDate = parsed
        }
        return (
            try row.decode(atIndex: 0),
            Song(
                title: try row.decode(atIndex: 1), category: try row.decode(atIndex: 2),
                artist: try row.decode(atIndex: 3), album: try row.decode(atIndex: 4), releaseDate: releaseDate)
        )
    }

    /// A read-only connection, as an app's screens would open one.
    private static func connect(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "songs"
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// The pages SQLite read from the file on this connection since the last call (its page cache's misses).
    private static func cacheMisses(_ db: Database) throws -> Int {
        var current: Int32 = 0
        var highwater: Int32 = 0
        let code = sqlite3_db_status(db.sqliteConnection, SQLITE_DBSTATUS_CACHE_MISS, &current, &highwater, 1)
        guard code == SQLITE_OK else { throw SongShelfError("sqlite3_db_status failed (\(code))") }
        return Int(current)
    }
}
