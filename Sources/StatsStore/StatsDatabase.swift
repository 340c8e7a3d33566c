import BenchResults
import Foundation
import GRDB

/// The stats store: every run and every sample, in one SQLite file.
///
/// One value owns the database writer and the migrator; every write is one transaction that keeps
/// the store consistent: a run is inserted incomplete when it starts, each cell's samples are added
/// in one transaction as the cell finishes, and the run is marked complete at the end. A run that
/// is interrupted (Ctrl-C, a kill) keeps every finished cell and stays incomplete.
///
/// The file uses WAL and a busy timeout, so two `bench` processes can write to it at once.
///
/// ```swift
/// let store = try StatsDatabase(path: "Results/stats.sqlite")
/// try store.beginRun(environment, settings: settings)
/// try store.record(samples, runID: environment.runID)
/// try store.finishRun(environment.runID, endedAt: now, noise: noise)
/// ```
public struct StatsDatabase: StatsStoring, Sendable {
    let writer: any DatabaseWriter
    /// The file's path (`:memory:` for a store on another writer).
    public let location: String

    /// Opens (creating when needed) the store at `path` and applies the migrations it lacks.
    ///
    /// - Throws: ``StatsStoreError`` when the file cannot be opened or migrated.
    public init(path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        // A store this process may not write is refused before SQLite opens it: SQLite would open it
        // read-only, make a -wal and a -shm beside it to read it, and leave them there when the first
        // write fails.
        if let refusal = Self.writeRefusal(path) {
            throw StatsStoreError(
                description:
                    "cannot open the stats store \(path): the store cannot be written (\(refusal)); nothing was changed"
            )
        }
        // A damaged store is refused before anything is written to it: opening it to write writes (a
        // table made and dropped, when it has no -wal), and a run would be recorded into it, to fail
        // when it is read.
        try Self.refuseIfDamaged(path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        // Opening a new file switches it to WAL, which needs the file to itself: another process
        // opening it at the same moment makes that fail at once ("database is locked", whatever the
        // busy timeout). Wait for it, up to about 5 s.
        var attempt = 0
        while true {
            do {
                try self.init(writer: DatabasePool(path: path, configuration: configuration), location: path)
                return
            } catch let error as StatsStoreError {
                throw error
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && attempt < 100 {
                attempt += 1
                Thread.sleep(forTimeInterval: 0.05)
            } catch {
                // SQLite says "unable to open database file" for a store it may read but not write (it
                // needs to write the file, its -wal and its -shm beside it): say which.
                if let refusal = Self.writeRefusal(path) {
                    throw StatsStoreError(
                        description:
                            "cannot open the stats store \(path): the store cannot be written (\(refusal)); nothing was changed"
                    )
                }
                throw StatsStoreError(description: "cannot open the stats store \(path): \(Self.explain(error))")
            }
        }
    }

    /// Opens the store at `path` to read it only, for the commands that never write (`report`,
    /// `history`, `compare`, the source of a copy): on a read-only SQLite connection, never migrated.
    ///
    /// Whether or not this process may write it, nothing is written to it or beside it. A writer's
    /// connection (``init(path:)``) wrote to every store it opened without a -wal (GRDB makes and
    /// drops a table to make one: `PRAGMA schema_version` rose by 2 at each `bench report`), and
    /// as root to a file without write permission; a -wal and -shm made by another user (root) would
    /// stop the file's owner from writing it. So:
    /// - with no -wal file (or an empty one), everything is in the file itself: it is read as
    ///   immutable (no lock, no -shm); a writer that starts and checkpoints into the file while it is
    ///   read could show a torn state, as it could to any reader without locks;
    /// - with a -wal file and its -shm (a writer at work), it is read through them, read-only;
    /// - with a -wal file and no -shm (a writer that stopped), it is read through them when this
    ///   process may write the store (SQLite makes the -shm, as the next writer would); otherwise it
    ///   cannot be read without making one: an error says so.
    ///
    /// - Throws: ``StatsStoreError`` when the file cannot be read, or when it needs a schema update
    ///   (a store of an older `bench`), which a command that only reads does not make.
    public init(readingPath path: String) throws {
        let refusal = Self.writeRefusal(path)
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(30)
        func open(_ name: String) throws -> DatabaseQueue {
            let queue = try DatabaseQueue(path: name, configuration: configuration)
            try queue.read { db in _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            return queue
        }
        let files = FileManager.default
        let walBytes = (try? files.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? nil
        let queue: DatabaseQueue
        do {
            if (walBytes ?? 0) == 0, let uri = Self.immutableURI(path) {
                do {
                    queue = try open(uri)
                } catch let error as DatabaseError where error.resultCode == .SQLITE_CANTOPEN {
                    // An SQLite built without URI file names: read-only is all there is.
                    queue = try open(path)
                }
            } else if files.fileExists(atPath: path + "-shm") || refusal == nil {
                queue = try open(path)
            } else {
                throw StatsStoreError(
                    description:
                        "cannot read the stats store \(path): it has a -wal file (a writer's changes not yet in "
                        + "the file) and no -shm, which reading it would make, and it is read-only "
                        + "(\(refusal ?? "read-only")); open it once with a bench that may write it, or copy the file "
                        + "and its -wal elsewhere")
            }
        } catch let error as StatsStoreError {
            throw error
        } catch {
            throw StatsStoreError(description: "cannot read the stats store \(path): \(Self.explain(error))")
        }
        try self.init(writer: queue, location: path, readOnly: true)
    }

    /// Refuses the store at `path` when SQLite's `PRAGMA quick_check` finds it damaged (a page
    /// overwritten, a B-tree broken), read on a connection of its own that writes nothing; a file
    /// that is missing or empty (a store yet to be made) is not checked.
    ///
    /// `quick_check` reads every page of the file: about 0.4 s for a store of 1,000 runs (219 MB,
    /// 690,000 samples) here, warm, what opening a store to write (a run, a copy, a prune) costs more.
    /// (It is `integrity_check` without the check that each index matches its table, 4 times faster.)
    ///
    /// - Throws: ``StatsStoreError`` naming the check, what it found, and the ways out.
    static func refuseIfDamaged(_ path: String) throws {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > 0 else {
            return
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(30)
        // Read as immutable when all of it is in the file (nothing made beside it, no lock), through
        // its -wal when a writer is at work.
        let walBytes = (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int
        let name = (walBytes ?? 0) == 0 ? Self.immutableURI(path) ?? path : path
        let problems: [String]
        do {
            let queue = try DatabaseQueue(path: name, configuration: configuration)
            problems = try queue.read { db in
                // A row can hold several lines, the first naming the schema ("*** in database main ***").
                let rows = try String.fetchAll(db, sql: "PRAGMA quick_check(5)")
                return rows.flatMap { $0.split(separator: "\n").map(String.init) }.filter { !$0.hasPrefix("*** ") }
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT {
            problems = [error.message ?? "database disk image is malformed"]
        } catch {
            // Not a database, unreadable, locked: the writer's own open says which.
            return
        }
        guard problems != ["ok"] else { return }
        let found = problems.isEmpty ? ["it found faults"] : problems
        throw StatsStoreError(
            description: "the stats store \(path) is damaged (SQLite's PRAGMA quick_check: "
                + found.prefix(3).joined(separator: "; ") + (found.count > 3 ? "; …" : "")
                + "); nothing was written to it. Restore it from a copy, or recover what SQLite can still read into "
                + "a new file (sqlite3 \(path) .recover | sqlite3 recovered.sqlite) and pass that as --store; "
                + "PRAGMA integrity_check lists every fault")
    }

    /// Why this process may not write the store at `path` (the file, or the directory where SQLite
    /// puts its -wal and -shm), or `nil` when it may (or when neither exists yet).
    static func writeRefusal(_ path: String) -> String? {
        let directory = (path as NSString).deletingLastPathComponent
        for (what, target) in [("the file", path), ("its directory", directory.isEmpty ? "." : directory)]
        where FileManager.default.fileExists(atPath: target) && access(target, W_OK) != 0 {
            return "\(what): \(String(cString: strerror(errno)))"
        }
        return nil
    }

    /// The SQLite URI that opens `path` as immutable (no lock, no -shm), or `nil` for a path that
    /// cannot be written as one.
    static func immutableURI(_ path: String) -> String? {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        guard let escaped = absolute.addingPercentEncoding(withAllowedCharacters: allowed) else { return nil }
        return "file:\(escaped)?immutable=1"
    }

    /// An SQLite error a retry cannot cure.
    static func isPermanent(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return [.SQLITE_NOTADB, .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_CORRUPT, .SQLITE_FULL, .SQLITE_PERM]
            .contains(error.resultCode)
    }

    /// An error in words a user can act on.
    static func explain(_ error: any Error) -> String {
        guard let error = error as? DatabaseError else { return "\(error)" }
        switch error.resultCode {
        case .SQLITE_NOTADB:
            return "the file is not an SQLite database (nothing was written to it); pass another --store"
        case .SQLITE_READONLY, .SQLITE_PERM:
            return "the store cannot be written (a read-only file or directory): \(error.message ?? "read-only")"
        case .SQLITE_CANTOPEN: return "the file cannot be opened: \(error.message ?? "")"
        case .SQLITE_FULL: return "the disk is full"
        case .SQLITE_CORRUPT: return "the database is damaged: \(error.message ?? "")"
        default: return "\(error)"
        }
    }

    /// A store on any GRDB writer (tests use an in-memory `DatabaseQueue`).
    ///
    /// Another process may be creating or migrating the same file at the same moment (two runs
    /// started together, or `bench report` while a run creates the store): GRDB serialises
    /// migrations within a process only, so a migration can find its table already made by the other.
    /// Then the store is fine as soon as the other process has finished: this waits for that (up to
    /// about 5 s) instead of failing; any other error is reported.
    public init(writer: any DatabaseWriter, location: String = ":memory:") throws {
        try self.init(writer: writer, location: location, readOnly: false)
    }

    /// A store on `writer`; a `readOnly` one is never migrated: one that needs it is an error.
    init(writer: any DatabaseWriter, location: String, readOnly: Bool) throws {
        self.writer = writer
        self.location = location
        // A store a newer `bench` has migrated: writing to it with this schema could lose what the
        // newer columns mean. Refuse before anything is written.
        let unknown: [String]
        do {
            unknown = try writer.read { db in
                try Self.migrator.appliedIdentifiers(db).subtracting(Self.migrator.migrations).sorted()
            }
        } catch {
            throw StatsStoreError(description: Self.explain(error))
        }
        guard unknown.isEmpty else {
            throw StatsStoreError(
                description: "the stats store was made by a newer bench (schema steps this one does not know: "
                    + "\(unknown.joined(separator: ", "))); use that bench, or another --store")
        }
        if readOnly {
            let missing: [String]
            do {
                missing = try writer.read { db in
                    let applied = try Self.migrator.appliedIdentifiers(db)
                    return Self.migrator.migrations.filter { !applied.contains($0) }
                }
            } catch {
                throw StatsStoreError(description: "cannot read the stats store \(location): \(Self.explain(error))")
            }
            guard missing.isEmpty else {
                let why =
                    Self.writeRefusal(location).map { "it is read-only (\($0))" }
                    ?? "a command that only reads a store never changes it"
                throw StatsStoreError(
                    description: "the stats store \(location) was made by an older bench and needs \(missing.count) "
                        + "schema step(s) (\(missing.joined(separator: ", "))) before this one can read it, but "
                        + "\(why); nothing was changed. Let a bench command that writes it (bench run --store "
                        + "\(location)) take those steps once, or copy it to a place you may write and pass that copy "
                        + "as --store to one")
            }
            return
        }
        var attempt = 0
        while true {
            do {
                try Self.migrator.migrate(writer)
                return
            } catch {
                attempt += 1
                if (try? writer.read({ try Self.migrator.hasCompletedMigrations($0) })) == true { return }
                guard attempt < 100, !Self.isPermanent(error) else {
                    throw StatsStoreError(description: "cannot migrate the stats store: \(Self.explain(error))")
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
    }

    /// Inserts a run, incomplete, with its settings, when it starts.
    public func beginRun(_ environment: RunEnvironment, settings: RunSettings?) throws {
        try write { db in try RunRecord(environment, settings: settings).insert(db) }
    }

    /// Records the measured shapes of a run's documents.
    public func recordDocuments(_ documents: [DocumentProfile], runID: String) throws {
        let text = try RunRecord.documentsText(documents)
        try write { db in
            try db.execute(
                sql: "UPDATE runs SET documents = ?, content_digest = NULL WHERE run_id = ?", arguments: [text, runID])
        }
    }

    /// Records the cells the agreement check kept from being timed, and why.
    public func recordNotTimed(_ cells: [CellSummary], runID: String) throws {
        let text = try RunRecord.notTimedText(cells)
        try write { db in
            try db.execute(
                sql: "UPDATE runs SET not_timed = ?, content_digest = NULL WHERE run_id = ?", arguments: [text, runID])
            try Self.execute(
                SummaryRows.replacing(
                    CellRecord.of(cells.filter { $0.cell.scenario == CellKey.notTimedScenario }, samples: []),
                    runID: runID, placeholder: { _ in "?" }), db)
        }
    }

    /// Adds one cell's samples to a run, and what the run concludes so far of `cells`, in one transaction.
    public func record(_ samples: [Sample], cells: [CellRecord], runID: String) throws {
        try write { db in
            for sample in samples { try SampleRecord(sample, runID: runID).insert(db) }
            try Self.execute(SummaryRows.replacing(cells, runID: runID, placeholder: { _ in "?" }), db)
            try Self.markSummarised(runID, given: cells, db)
            try db.execute(
                sql: "UPDATE runs SET content_digest = NULL WHERE run_id = ? AND content_digest IS NOT NULL",
                arguments: [runID])
        }
    }

    /// Ends a run, complete or not, with what the harness found of its noise.
    public func finishRun(
        _ runID: String, endedAt: String, noise: NoiseReport?, rounds: Int?, cells: [CellRecord], complete: Bool
    ) throws {
        let text = try noise.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        try write { db in
            try Self.execute(SummaryRows.replacing(cells, runID: runID, placeholder: { _ in "?" }), db)
            try Self.markSummarised(runID, given: cells, db)
            try db.execute(
                sql: """
                    UPDATE runs SET ended_at = ?, complete = ?, noisy = ?, noise = ?, rounds = COALESCE(?, rounds),
                        content_digest = NULL
                    WHERE run_id = ?
                    """,
                arguments: [endedAt, complete, noise?.noisy, text, rounds, runID])
        }
    }

    /// Records a counted run's profiles, each replacing its cell's.
    public func recordProfiles(_ profiles: [CellProfile], runID: String) throws {
        let rows = try profiles.map { ($0.key, $0.parse, try ProfileArchive.encode($0)) }
        try write { db in
            for (key, parse, data) in rows {
                try db.execute(
                    sql: ProfileRows.insert(placeholder: { _ in "?" }),
                    arguments: StatementArguments(ProfileRows.values(key, parse: parse, runID: runID, data: data)))
            }
        }
    }

    public func profiles(of runID: String) throws -> [StoredProfile] {
        try read { db in try Self.profiles(of: runID, db, location: location) }
    }

    static func profiles(of runID: String, _ db: Database, location: String) throws -> [StoredProfile] {
        try Row.fetchAll(db, sql: "SELECT \(ProfileRows.columns) FROM profiles WHERE run_id = ?", arguments: [runID])
            .map { row in
                let key = ProfileRows.key(
                    parser: row["parser"], scenario: row["scenario"], feed: row["feed"], chunkSize: row["chunk_size"],
                    network: row["network"])
                let parse: Int = row["parse"]
                let data: Data = row["data"] ?? Data()
                return StoredProfile(
                    key: key, parse: parse, runID: runID,
                    source: ProfileRows.source(key, parse: parse, runID: runID, location: location), data: Array(data))
            }
    }

    public func removeRun(_ runID: String) throws -> Bool {
        try write { db in
            // The samples go with their run (ON DELETE CASCADE).
            try db.execute(sql: "DELETE FROM runs WHERE run_id = ?", arguments: [runID])
            return db.changesCount > 0
        }
    }

    /// The runs, newest first.
    public func runs() throws -> [RunEnvironment] {
        try read { db in try RunRecord.order(RunRecord.Columns.startedAt.desc).fetchAll(db).map(\.environment) }
    }

    /// The samples that match `filter`, with their run and its machine, oldest run first.
    public func samples(matching filter: SampleFilter = SampleFilter()) throws -> [StoredSample] {
        let query = SampleQuery(filter, placeholder: { _ in "?" })
        return try read { db in
            try NamedRow.rows(try Row.fetchAll(db, sql: query.sql, arguments: StatementArguments(query.arguments))).map(
                SampleQuery.stored)
        }
    }

    public func calibrations(host: String, excluding runID: String?, lastRuns: Int) throws -> [RunCalibration] {
        let query = CalibrationQuery(host: host, excluding: runID, lastRuns: lastRuns, placeholder: { _ in "?" })
        return try read { db in
            CalibrationQuery.group(try Row.fetchAll(db, sql: query.sql, arguments: StatementArguments(query.arguments)))
        }
    }

    public func parseHistory(host: String, excluding runID: String?, lastRuns: Int, feeds: [String]) throws
        -> [StoredSample]
    {
        let query = SampleQuery(
            parseHistoryOf: host, excluding: runID, lastRuns: lastRuns, feeds: feeds, placeholder: { _ in "?" })
        return try read { db in
            try NamedRow.rows(try Row.fetchAll(db, sql: query.sql, arguments: StatementArguments(query.arguments))).map(
                SampleQuery.stored)
        }
    }

    public func documentShapes() throws -> [String: DocumentProfile] {
        try read { db in RunRecord.newestShapes(try String.fetchAll(db, sql: RunRecord.documentsNewestFirst)) }
    }

    public func cellRecords(of runID: String) throws -> [CellRecord]? {
        try read { db in
            guard
                try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM summarised_runs WHERE run_id = ?", arguments: [runID]) == true
            else { return nil }
            return try SummaryRows.records(
                cells: try Row.fetchAll(db, sql: SummaryRows.cellsOfRun { _ in "?" }, arguments: [runID]),
                metrics: try Row.fetchAll(db, sql: SummaryRows.metricsOfRun { _ in "?" }, arguments: [runID]))
        }
    }

    public func unsummarisedRuns() throws -> [String] {
        try read { db in try String.fetchAll(db, sql: SummaryRows.unsummarised) }
    }

    public func recordSummaries(_ runs: [(runID: String, cells: [CellRecord])]) throws {
        try write { db in
            for run in runs {
                guard
                    try Bool.fetchOne(
                        db, sql: "SELECT 1 FROM runs WHERE run_id = ?", arguments: [run.runID]) == true
                else { continue }
                try Self.execute(
                    SummaryRows.replacing(run.cells, runID: run.runID, replacingAll: true, placeholder: { _ in "?" }),
                    db)
                try db.cachedStatement(
                    sql: "INSERT INTO summarised_runs (run_id) VALUES (?) ON CONFLICT (run_id) DO NOTHING"
                ).execute(arguments: [run.runID])
            }
        }
    }

    public func forEachMetricSummary(
        matching filter: SampleFilter, metrics: [Metric], _ body: (StoredMetricSummary) throws -> Void
    ) throws {
        // One read transaction: the pages see one state of the store.
        try read { db in
            try MetricSummaryQuery.forEach(
                filter, metrics: metrics, placeholder: { _ in "?" },
                fetch: { try Row.fetchAll(db, sql: $0, arguments: StatementArguments($1)) }, body)
        }
    }

    public func forEachRunFigures(
        matching filter: SampleFilter, metrics: [Metric], workerMedians: Set<Metric>,
        _ body: (RunFigures) throws -> Void
    ) throws {
        // One read transaction: the pages see one state of the store.
        try read { db in
            try RunFigureQuery.forEach(
                filter, metrics: metrics, workerMedians: workerMedians, placeholder: { _ in "?" },
                fetchRuns: { statement in
                    var runs: [RunFigures] = []
                    try SQLiteColumns.forEachRow(statement, db) { runs.append(RunFigureQuery.run($0)) }
                    return runs
                },
                fetchFigures: { try SQLiteColumns.forEachRow($0, db, $1) }, body)
        }
    }

    /// Marks a run summarised when its recorder gives its summaries with its cells (`cells` not empty).
    ///
    /// Such a run never needs summarising from its samples; a recorder that gives none leaves it to
    /// the backfill.
    static func markSummarised(_ runID: String, given cells: [CellRecord], _ db: Database) throws {
        guard !cells.isEmpty else { return }
        try db.execute(
            sql: "INSERT INTO summarised_runs (run_id) VALUES (?) ON CONFLICT (run_id) DO NOTHING", arguments: [runID])
    }

    /// Runs `statements`, each prepared once per connection (the same run's shape repeats: a run's
    /// cells, a backfill's runs).
    static func execute(_ statements: [SummaryRows.Statement], _ db: Database) throws {
        for statement in statements {
            try db.cachedStatement(sql: statement.sql).execute(arguments: StatementArguments(statement.arguments))
        }
    }

    /// A run with all its samples.
    public func storedRun(_ runID: String) throws -> StoredRun? {
        try read { db in try Self.storedRun(runID, db) }
    }

    static func storedRun(_ runID: String, _ db: Database) throws -> StoredRun? {
        guard let record = try RunRecord.fetchOne(db, key: runID) else { return nil }
        let samples = try NamedRow.rows(
            try Row.fetchAll(db, SampleRecord.filter(Column("run_id") == runID).order(Column("id")))
        ).map { try SampleRecord(named: $0) }
        let pruned = try Row.fetchOne(
            db, sql: "SELECT pruned_at, samples FROM pruned_runs WHERE run_id = ?", arguments: [runID]
        ).map { PrunedSamples(prunedAt: $0["pruned_at"], samples: $0["samples"]) }
        var run = StoredRun(record: record, samples: samples, pruned: pruned)
        run.profiles = try profiles(of: runID, db, location: "the store")
        return run
    }

    public func storedRuns(_ runIDs: [String]) throws -> [StoredRun] {
        guard !runIDs.isEmpty else { return [] }
        return try read { db in
            let records = try RunRecord.fetchAll(db, keys: runIDs)
            // Through the index on samples.run_id, in its order (the run, then the row's ID).
            let rows = try Row.fetchAll(
                db, SampleRecord.filter(runIDs.contains(Column("run_id"))).order(Column("run_id"), Column("id")))
            let samples = try NamedRow.rows(rows).map { try SampleRecord(named: $0) }
            let marks = Array(repeating: "?", count: runIDs.count).joined(separator: ", ")
            var pruned: [String: PrunedSamples] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT run_id, pruned_at, samples FROM pruned_runs WHERE run_id IN (\(marks))",
                arguments: StatementArguments(runIDs))
            {
                pruned[row["run_id"]] = PrunedSamples(prunedAt: row["pruned_at"], samples: row["samples"])
            }
            var runs = StoredRun.assemble(runIDs, records: records, samples: samples, pruned: pruned)
            for index in runs.indices {
                runs[index].profiles = try Self.profiles(of: runs[index].runID, db, location: location)
            }
            return runs
        }
    }

    /// Copies a run from another store, in one transaction.
    public func importRun(_ run: StoredRun) throws -> ImportOutcome {
        try write { db in
            // What the copy brings is summarised from its samples at the next writer's open; a run
            // whose samples retention removed here keeps the summaries it has (it has no samples).
            try db.execute(
                sql: "DELETE FROM summarised_runs WHERE run_id = ? AND run_id NOT IN (SELECT run_id FROM pruned_runs)",
                arguments: [run.runID])
            func insert(_ samples: [SampleRecord]) throws {
                // The rows get this store's own IDs.
                for var sample in samples {
                    sample.id = nil
                    try sample.insert(db)
                }
            }
            let outcome = try run.copy(
                storedDigest: try String.fetchOne(
                    db, sql: "SELECT content_digest FROM runs WHERE run_id = ?", arguments: [run.runID]),
                existing: { try Self.storedRun(run.runID, db) }, insertRun: { try $0.insert(db) },
                insertSamples: insert, updateRun: { try $0.update(db) },
                setDigest: {
                    try db.execute(
                        sql: "UPDATE runs SET content_digest = ? WHERE run_id = ?", arguments: [$0, run.runID])
                },
                markPruned: {
                    try db.execute(
                        sql: "INSERT INTO pruned_runs (run_id, pruned_at, samples) VALUES (?, ?, ?)",
                        arguments: [run.runID, $0.prunedAt, $0.samples])
                })
            // Its profiles come with it, unless retention has removed this store's samples of it.
            let pruned =
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM pruned_runs WHERE run_id = ?)", arguments: [run.runID])
                ?? false
            for profile in run.profiles where !pruned {
                try db.execute(
                    sql: ProfileRows.insert(placeholder: { _ in "?" }),
                    arguments: StatementArguments(
                        ProfileRows.values(profile.key, parse: profile.parse, runID: run.runID, data: profile.data))
                )
            }
            return outcome
        }
    }

    // MARK: Transactions

    func write<T>(_ updates: (Database) throws -> T) throws -> T {
        do {
            return try writer.write(updates)
        } catch let error as StatsStoreError {
            throw error
        } catch {
            throw StatsStoreError(description: "stats store write failed: \(error)")
        }
    }

    func read<T>(_ value: (Database) throws -> T) throws -> T {
        do {
            return try writer.read(value)
        } catch {
            throw StatsStoreError(description: "stats store read failed: \(error)")
        }
    }
}
