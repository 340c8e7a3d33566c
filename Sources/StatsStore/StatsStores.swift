import BenchResults
import Foundation

/// Opens a stats store by its location.
public enum StatsStores {
    /// Opens the store at `location`: a `postgres://` or `postgresql://` URL names a PostgreSQL
    /// database (the password comes from `PGPASSWORD` or `~/.pgpass`, never from the URL); anything
    /// else is the path of an SQLite file, created when missing unless `mustExist`.
    ///
    /// A command that only reads passes `readOnly`: an SQLite store it may not write (a file without
    /// write permission, a read-only volume) is then opened read-only (``StatsDatabase/init(readingPath:)``),
    /// and a PostgreSQL store is read without a write, so that a role that may only `SELECT` reads it
    /// (``PostgresStatsStore/init(readingURL:)``).
    ///
    /// - Throws: ``StatsStoreError`` with what to do: no such file, a server that cannot be
    ///   reached or refuses the login, a store of a newer schema; `SuiteTraitMissing` for a
    ///   PostgreSQL URL in a build without the trait `SharedStore`.
    public static func open(_ location: String, mustExist: Bool = false, readOnly: Bool = false) throws
        -> any StatsStoring
    {
        if isSharedURL(location) {
            #if SharedStore
                return try readOnly ? PostgresStatsStore(readingURL: location) : PostgresStatsStore(url: location)
            #else
                throw SuiteTraitMissing(.sharedStore, neededBy: "the shared store (--store \(location))")
            #endif
        }
        if location.contains("://") {
            throw StatsStoreError(
                description:
                    "\(location): not a store this bench knows: give an SQLite file's path or a postgres:// URL")
        }
        if mustExist && !FileManager.default.fileExists(atPath: location) {
            throw StatsStoreError(
                description:
                    "no stats store at \(location): run `swift run -c release bench` first, or pass --store PATH or a postgres:// URL"
            )
        }
        // An empty file is no store yet: a command that reads one would have made it one (the
        // tables written into a file the user named only to read).
        if mustExist, let attributes = try? FileManager.default.attributesOfItem(atPath: location),
            attributes[.type] as? FileAttributeType == .typeRegular, (attributes[.size] as? Int) == 0
        {
            throw StatsStoreError(
                description:
                    "\(location) is an empty file, not a stats store: run `swift run -c release bench` first, or pass "
                    + "--store PATH or a postgres:// URL")
        }
        return try readOnly ? StatsDatabase(readingPath: location) : StatsDatabase(path: location)
    }

    /// Whether `location` names a PostgreSQL database (a `postgres://` or `postgresql://` URL), in
    /// a build with the shared store or without it.
    public static func isSharedURL(_ location: String) -> Bool {
        let lower = location.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }
}
