import BenchResults
import Foundation

/// Opens a stats store by its location.
public enum StatsStores {
    /// Opens the store at `location` as ``open(_:mustExist:readOnly:)`` does, and summarises the
    /// runs it holds without summaries (stored before it kept them, or copied in since): opened to
    /// write, from their samples, once, by `backfill`; opened to read, they are an error that says
    /// how to summarise them (the readers read summaries, and would leave those runs out without a
    /// word; a run just begun, with no sample yet, has nothing to leave out: a `bench run` at work
    /// summarises each cell as it records it).
    ///
    /// - Throws: what ``open(_:mustExist:readOnly:)`` throws; a ``StatsStoreError`` for runs without
    ///   summaries in a store opened to read, or that could not be summarised.
    package static func open(
        _ location: String, mustExist: Bool = false, readOnly: Bool = false, backfill: SummaryBackfill
    )
        throws -> any StatsStoring
    {
        let database = try open(location, mustExist: mustExist, readOnly: readOnly)
        let runs = try database.unsummarisedRuns()
        guard !runs.isEmpty else { return database }
        if readOnly {
            guard try runs.contains(where: { try !(database.storedRun($0)?.samples.isEmpty ?? true) }) else {
                return database
            }
            throw StatsStoreError(
                description: "the stats store \(database.location) holds \(runs.count) run(s) without summaries "
                    + "(stored by an older bench, or copied in by bench store push or pull), which this command reads; "
                    + "it only reads a store, so nothing was changed. A bench command that writes the store summarises "
                    + "them, once: bench store prune --keep-runs 1000000000 --dry-run --store \(database.location) "
                    + "(it removes nothing), or the next bench run --store \(database.location)")
        }
        try backfill.summarise(runs, in: database)
        return database
    }

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
