// The shared store (libpq): in a build with the suite's trait `SharedStore` (on by default).
#if SharedStore
    import BenchResults
    import CLibPQ
    import Foundation
    import GRDB

    /// The stats store in a PostgreSQL database that several machines share (`--store postgres://…`).
    ///
    /// The same tables and the same named migrations as the SQLite store (``StatsDatabase``), applied
    /// under an advisory lock so that runners starting together migrate once; the same records, read
    /// and written through libpq. A run is inserted incomplete when it starts, each cell's samples are
    /// one transaction, and the run is marked complete at the end, as in the SQLite store. Copying a run
    /// in (``importRun(_:)``) locks its ID, so two pushes of one run at once add it once.
    ///
    /// ```swift
    /// let store = try PostgresStatsStore(url: "postgres://bench@db.example:5432/bench")
    /// ```
    public final class PostgresStatsStore: StatsStoring, @unchecked Sendable {
        private let connection: PostgresConnection
        public var location: String { connection.location }

        /// Whether `location` names a PostgreSQL database.
        public static func isURL(_ location: String) -> Bool { StatsStores.isSharedURL(location) }

        /// Connects to the database of `url` and applies the migrations it lacks.
        ///
        /// - Throws: ``StatsStoreError`` for a URL with a password in it, a server that cannot be
        ///   reached or refuses the login, or a database that a newer `bench` has migrated.
        public init(url: String) throws {
            try Self.refusePassword(in: url)
            connection = try PostgresConnection(url: url, location: url)
            try migrate()
        }

        /// Connects to the database of `url` to read it only, for the commands that never write
        /// (`report`, `history`, `compare`, the source of a copy): a role that may only `SELECT` reads it.
        ///
        /// Nothing is written to a store whose schema is up to date (the migrations it has are only
        /// read). One that lacks schema steps (a store of an older `bench`) is migrated, as by
        /// ``init(url:)``, when the role may; when it may not, an error says what is missing.
        ///
        /// - Throws: ``StatsStoreError`` as ``init(url:)`` does, and for a store that needs schema
        ///   steps this role may not make.
        public init(readingURL url: String) throws {
            try Self.refusePassword(in: url)
            connection = try PostgresConnection(url: url, location: url)
            let missing = try missingMigrations()
            guard !missing.isEmpty else { return }
            do {
                try migrate()
            } catch let error as StatsStoreError where !error.connectionLost {
                throw StatsStoreError(
                    description:
                        "the stats store \(location) needs \(missing.count) schema step(s) (\(missing.joined(separator: ", "))) "
                        + "before this bench can read it, and they could not be made (\(error.description)); nothing was "
                        + "changed. Run a bench command that writes (bench run, bench store push) with a role that may "
                        + "create tables, then read it again")
            }
        }

        /// The migrations the database lacks, read with `SELECT` alone.
        ///
        /// - Throws: ``StatsStoreError`` for a database that a newer `bench` has migrated.
        private func missingMigrations() throws -> [String] {
            let present = try connection.execute("SELECT to_regclass('grdb_migrations')::text AS present").first
            guard (present?["present"] as String?) != nil else { return Self.migrations.map(\.identifier) }
            let applied = Set(
                try connection.execute("SELECT identifier FROM grdb_migrations").compactMap {
                    $0["identifier"] as String?
                })
            try refuseUnknown(applied)
            return Self.migrations.map(\.identifier).filter { !applied.contains($0) }
        }

        /// Throws when `applied` holds a migration this `bench` does not know (a newer one made it).
        private func refuseUnknown(_ applied: Set<String>) throws {
            let unknown = applied.subtracting(Self.migrations.map(\.identifier)).sorted()
            guard unknown.isEmpty else {
                throw StatsStoreError(
                    description:
                        "the stats store \(location) was made by a newer bench (schema steps this one does not know: "
                        + "\(unknown.joined(separator: ", "))); use that bench, or another --store (nothing was changed)"
                )
            }
        }

        /// A password on the command line ends up in shell histories, process lists and the stored
        /// command line: refuse it, and say where it goes instead.
        static func refusePassword(in url: String) throws {
            var message: UnsafeMutablePointer<CChar>?
            guard let options = PQconninfoParse(url, &message) else {
                let reason =
                    message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) }
                    ?? "not a connection URL"
                if let message { PQfreemem(message) }
                throw StatsStoreError(
                    description:
                        "\(url) is not a PostgreSQL URL libpq can read: \(reason) (postgres://user@host:port/database)")
            }
            defer { PQconninfoFree(options) }
            var option = options
            while let keyword = option.pointee.keyword {
                if String(cString: keyword) == "password", option.pointee.val != nil {
                    throw StatsStoreError(
                        description:
                            "the --store URL holds a password: leave it out (postgres://user@host:port/database) and give it in "
                            + "PGPASSWORD or a ~/.pgpass line (host:port:database:user:password), so that it is never on a command line "
                            + "or in a report")
                }
                option += 1
            }
        }

        // MARK: Migrations

        /// Applies the migrations the database lacks, each in its own transaction, under an advisory
        /// lock that other runners opening the store at the same moment wait for.
        private func migrate() throws {
            for (identifier, statements) in Self.migrations {
                try connection.transaction {
                    try connection.execute("SELECT pg_advisory_xact_lock(\(Self.migrationLock))")
                    try connection.execute(
                        "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
                    let applied = Set(
                        try connection.execute("SELECT identifier FROM grdb_migrations").compactMap {
                            $0["identifier"] as String?
                        })
                    try refuseUnknown(applied)
                    guard !applied.contains(identifier) else { return }
                    for statement in statements { try connection.execute(statement) }
                    try connection.execute(
                        "INSERT INTO grdb_migrations (identifier) VALUES ($1)", [identifier.databaseValue])
                }
            }
        }

        /// Any constant the other users of the database do not take: "XMLB".
        private static let migrationLock = 0x584D_4C42

        /// The schema: ``StoreMigration/all``'s steps, by name, with the SQL written for PostgreSQL.
        static var migrations: [(identifier: String, statements: [String])] {
            StoreMigration.all.map { ($0.name, $0.postgres) }
        }

        // MARK: Recording a run

        public func beginRun(_ environment: RunEnvironment, settings: RunSettings?) throws {
            try writing { try insert(RunRecord(environment, settings: settings)) }
        }

        public func recordDocuments(_ documents: [DocumentProfile], runID: String) throws {
            let text = try RunRecord.documentsText(documents)
            try writing {
                try connection.execute(
                    "UPDATE runs SET documents = $1, content_digest = NULL WHERE run_id = $2",
                    [text.databaseValue, runID.databaseValue])
            }
        }

        public func recordNotTimed(_ cells: [CellSummary], runID: String) throws {
            let text = try RunRecord.notTimedText(cells)
            try writing {
                try connection.execute(
                    "UPDATE runs SET not_timed = $1, content_digest = NULL WHERE run_id = $2",
                    [text.databaseValue, runID.databaseValue])
                try execute(
                    SummaryRows.replacing(
                        CellRecord.of(cells.filter { $0.cell.scenario == CellKey.notTimedScenario }, samples: []),
                        runID: runID, placeholder: { "$\($0)" }))
            }
        }

        public func record(_ samples: [Sample], cells: [CellRecord], runID: String) throws {
            let summaries = try SummaryRows.replacing(cells, runID: runID, placeholder: { "$\($0)" })
            try writing {
                try insert(samples.map { SampleRecord($0, runID: runID) })
                try execute(summaries)
                try markSummarised(runID, given: cells)
                try connection.execute(
                    "UPDATE runs SET content_digest = NULL WHERE run_id = $1 AND content_digest IS NOT NULL",
                    [runID.databaseValue])
            }
        }

        public func finishRun(
            _ runID: String, endedAt: String, noise: NoiseReport?, rounds: Int?, cells: [CellRecord], complete: Bool
        ) throws {
            let text = try noise.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
            let summaries = try SummaryRows.replacing(cells, runID: runID, placeholder: { "$\($0)" })
            try writing {
                try execute(summaries)
                try markSummarised(runID, given: cells)
                try connection.execute(
                    """
                    UPDATE runs SET ended_at = $1, complete = $6, noisy = $2, noise = $3, rounds = COALESCE($4, rounds),
                        content_digest = NULL
                    WHERE run_id = $5
                    """,
                    [
                        endedAt.databaseValue, noise?.noisy.databaseValue ?? .null, text.databaseValue,
                        rounds.databaseValue, runID.databaseValue, complete.databaseValue,
                    ])
            }
        }

        public func removeRun(_ runID: String) throws -> Bool {
            var removed = false
            try writing {
                // The samples go with their run (ON DELETE CASCADE).
                removed =
                    !(try connection.execute(
                        "DELETE FROM runs WHERE run_id = $1 RETURNING run_id", [runID.databaseValue])).isEmpty
            }
            return removed
        }

        /// How many times a lost connection was made again while recording (each time, the write that
        /// met it was done on the new connection or found already committed).
        public private(set) var reconnections = 0

        /// Runs `body` in one transaction; when the connection is lost meanwhile, makes it again (a
        /// bounded number of tries: 5, over about 15 s, so that a server restart is ridden out) and writes again,
        /// unless the server says the first transaction committed before the connection went (its
        /// `txid_status`): a write is never lost to a dropped connection, and never made twice.
        ///
        /// - Throws: the server's error, or a lost connection that could not be made again.
        private func writing(_ body: () throws -> Void) throws {
            var transaction: Int64?
            do {
                try connection.transaction {
                    transaction = try connection.execute("SELECT txid_current() AS id").first?["id"]
                    try body()
                }
            } catch let error as StatsStoreError where error.connectionLost {
                try connection.reconnect(attempts: 5)
                reconnections += 1
                if let transaction {
                    // A COMMIT that reached the server finishes within moments; a transaction still in
                    // progress after that never got its COMMIT, and ends rolled back.
                    for _ in 0..<8 {
                        let status: String? = try connection.execute(
                            "SELECT txid_status($1) AS status", [transaction.databaseValue]
                        ).first?["status"]
                        if status == "committed" { return }
                        guard status == "in progress" else { break }
                        Thread.sleep(forTimeInterval: 0.25)
                    }
                }
                try connection.transaction { try body() }
            }
        }

        // MARK: Reading

        public func runs() throws -> [RunEnvironment] {
            try connection.execute("SELECT * FROM runs ORDER BY started_at DESC, run_id DESC").map {
                try RunRecord(row: $0).environment
            }
        }

        public func samples(matching filter: SampleFilter) throws -> [StoredSample] {
            let query = SampleQuery(filter, placeholder: { "$\($0)" })
            return try NamedRow.rows(try connection.execute(query.sql, query.arguments)).map(SampleQuery.stored)
        }

        public func calibrations(host: String, excluding runID: String?, lastRuns: Int) throws -> [RunCalibration] {
            let query = CalibrationQuery(host: host, excluding: runID, lastRuns: lastRuns, placeholder: { "$\($0)" })
            return CalibrationQuery.group(try connection.execute(query.sql, query.arguments))
        }

        public func parseHistory(host: String, excluding runID: String?, lastRuns: Int, feeds: [String]) throws
            -> [StoredSample]
        {
            let query = SampleQuery(
                parseHistoryOf: host, excluding: runID, lastRuns: lastRuns, feeds: feeds, placeholder: { "$\($0)" })
            return try NamedRow.rows(try connection.execute(query.sql, query.arguments)).map(SampleQuery.stored)
        }

        public func documentShapes() throws -> [String: DocumentProfile] {
            RunRecord.newestShapes(
                try connection.execute(RunRecord.documentsNewestFirst).compactMap { $0["documents"] })
        }

        public func cellRecords(of runID: String) throws -> [CellRecord]? {
            try connection.transaction {
                let id = runID.databaseValue
                guard !(try connection.execute("SELECT run_id FROM summarised_runs WHERE run_id = $1", [id])).isEmpty
                else { return nil }
                return try SummaryRows.records(
                    cells: try connection.execute(SummaryRows.cellsOfRun { "$\($0)" }, [id]),
                    metrics: try connection.execute(SummaryRows.metricsOfRun { "$\($0)" }, [id]))
            }
        }

        public func unsummarisedRuns() throws -> [String] {
            try connection.execute(SummaryRows.unsummarised).compactMap { $0["run_id"] }
        }

        public func recordSummaries(_ runs: [(runID: String, cells: [CellRecord])]) throws {
            let statements = try runs.map { run in
                (
                    run.runID,
                    try SummaryRows.replacing(
                        run.cells, runID: run.runID, replacingAll: true, placeholder: { "$\($0)" })
                )
            }
            try writing {
                for (runID, statements) in statements {
                    let id = runID.databaseValue
                    // The run's row, locked: a run removed meanwhile is not summarised.
                    guard
                        !(try connection.execute("SELECT run_id FROM runs WHERE run_id = $1 FOR UPDATE", [id])).isEmpty
                    else { continue }
                    try execute(statements)
                    try connection.execute(
                        "INSERT INTO summarised_runs (run_id) VALUES ($1) ON CONFLICT (run_id) DO NOTHING", [id])
                }
            }
        }

        public func forEachMetricSummary(
            matching filter: SampleFilter, metrics: [Metric], _ body: (StoredMetricSummary) throws -> Void
        ) throws {
            try readingOneState {
                try MetricSummaryQuery.forEach(
                    filter, metrics: metrics, placeholder: { "$\($0)" }, fetch: { try connection.execute($0, $1) }, body
                )
            }
        }

        public func forEachRunFigures(
            matching filter: SampleFilter, metrics: [Metric], workerMedians: Set<Metric>,
            _ body: (RunFigures) throws -> Void
        ) throws {
            try readingOneState {
                for setting in RunFigureQuery.postgresSettings(serverVersion: connection.serverVersion) {
                    try connection.execute(setting)
                }
                try RunFigureQuery.forEach(
                    filter, metrics: metrics, workerMedians: workerMedians, placeholder: { "$\($0)" },
                    fetchRuns: { statement in
                        var runs: [RunFigures] = []
                        try connection.forEachRow(statement.sql, statement.arguments) {
                            runs.append(RunFigureQuery.run($0))
                        }
                        return runs
                    },
                    fetchFigures: { try connection.forEachRow($0.sql, $0.arguments, $1) }, body)
            }
        }

        /// Runs `body`'s reads in one transaction (repeatable read, read only): pages read one after
        /// another see one state of the store.
        private func readingOneState(_ body: () throws -> Void) throws {
            try connection.transaction {
                try connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                try body()
            }
        }

        /// Marks a run summarised when its recorder gives its summaries with its cells (`cells` not empty).
        ///
        /// Such a run never needs summarising from its samples; a recorder that gives none leaves it to
        /// the backfill.
        private func markSummarised(_ runID: String, given cells: [CellRecord]) throws {
            guard !cells.isEmpty else { return }
            try connection.execute(
                "INSERT INTO summarised_runs (run_id) VALUES ($1) ON CONFLICT (run_id) DO NOTHING",
                [runID.databaseValue])
        }

        private func execute(_ statements: [SummaryRows.Statement]) throws {
            for statement in statements { try connection.execute(statement.sql, statement.arguments) }
        }

        public func storedRun(_ runID: String) throws -> StoredRun? {
            try connection.transaction { try storedRun(runID, lock: false) }
        }

        /// Records a counted run's profiles, each replacing its cell's.
        public func recordProfiles(_ profiles: [CellProfile], runID: String) throws {
            let rows = try profiles.map { ($0.key, $0.parse, try ProfileArchive.encode($0)) }
            try connection.transaction {
                for (key, parse, data) in rows {
                    try connection.execute(
                        ProfileRows.insert(placeholder: { "$\($0)" }),
                        ProfileRows.values(key, parse: parse, runID: runID, data: data))
                }
            }
        }

        public func profiles(of runID: String) throws -> [StoredProfile] {
            try connection.execute(
                "SELECT \(ProfileRows.columns) FROM profiles WHERE run_id = $1", [runID.databaseValue]
            ).map { row in
                let key = ProfileRows.key(
                    parser: row["parser"], scenario: row["scenario"], feed: row["feed"], chunkSize: row["chunk_size"],
                    network: row["network"])
                let parse: Int = row["parse"]
                // BYTEA in PostgreSQL's text output: \x and two hexadecimal digits a byte.
                let text: String = row["data"] ?? ""
                return StoredProfile(
                    key: key, parse: parse, runID: runID,
                    source: ProfileRows.source(key, parse: parse, runID: runID, location: location),
                    data: ProfileRows.bytes(hex: text))
            }
        }

        private func storedRun(_ runID: String, lock: Bool) throws -> StoredRun? {
            let rows = try connection.execute(
                "SELECT * FROM runs WHERE run_id = $1" + (lock ? " FOR UPDATE" : ""), [runID.databaseValue])
            guard let row = rows.first else { return nil }
            let samples = try connection.execute(
                "SELECT * FROM samples WHERE run_id = $1 ORDER BY id", [runID.databaseValue])
            let pruned = try connection.execute(
                "SELECT pruned_at, samples FROM pruned_runs WHERE run_id = $1", [runID.databaseValue]
            ).first.map { PrunedSamples(prunedAt: $0["pruned_at"], samples: $0["samples"]) }
            var run = StoredRun(
                record: try RunRecord(row: row),
                samples: try NamedRow.rows(samples).map { try SampleRecord(named: $0) },
                pruned: pruned)
            run.profiles = try profiles(of: runID)
            return run
        }

        public func storedRuns(_ runIDs: [String]) throws -> [StoredRun] {
            guard !runIDs.isEmpty else { return [] }
            let ids = runIDs.map(\.databaseValue)
            let marks = runIDs.indices.map { "$\($0 + 1)" }.joined(separator: ", ")
            return try connection.transaction {
                let records = try connection.execute("SELECT * FROM runs WHERE run_id IN (\(marks))", ids).map {
                    try RunRecord(row: $0)
                }
                let samples = try NamedRow.rows(
                    try connection.execute("SELECT * FROM samples WHERE run_id IN (\(marks)) ORDER BY run_id, id", ids)
                ).map { try SampleRecord(named: $0) }
                var pruned: [String: PrunedSamples] = [:]
                for row in try connection.execute(
                    "SELECT run_id, pruned_at, samples FROM pruned_runs WHERE run_id IN (\(marks))", ids)
                {
                    pruned[row["run_id"]] = PrunedSamples(prunedAt: row["pruned_at"], samples: row["samples"])
                }
                var runs = StoredRun.assemble(runIDs, records: records, samples: samples, pruned: pruned)
                for index in runs.indices { runs[index].profiles = try profiles(of: runs[index].runID) }
                return runs
            }
        }

        // MARK: Copying runs in

        public func importRun(_ run: StoredRun) throws -> ImportOutcome {
            try connection.transaction {
                // Two pushes of the same run at once: the second waits here, then finds it.
                try connection.execute(
                    "SELECT pg_advisory_xact_lock(\(Self.migrationLock), hashtext($1))", [run.runID.databaseValue])
                let id = run.runID.databaseValue
                // What the copy brings is summarised from its samples at the next writer's open; a run
                // whose samples retention removed here keeps the summaries it has (it has no samples).
                try connection.execute(
                    "DELETE FROM summarised_runs WHERE run_id = $1 AND run_id NOT IN (SELECT run_id FROM pruned_runs)",
                    [id]
                )
                let outcome = try run.copy(
                    storedDigest: try connection.execute("SELECT content_digest FROM runs WHERE run_id = $1", [id])
                        .first?["content_digest"],
                    existing: { try storedRun(run.runID, lock: true) }, insertRun: insert, insertSamples: insert,
                    updateRun: update,
                    setDigest: {
                        try connection.execute(
                            "UPDATE runs SET content_digest = $1 WHERE run_id = $2", [$0.databaseValue, id])
                    },
                    markPruned: {
                        try connection.execute(
                            "INSERT INTO pruned_runs (run_id, pruned_at, samples) VALUES ($1, $2, $3)",
                            [id, $0.prunedAt.databaseValue, $0.samples.databaseValue])
                    })
                // Its profiles come with it, unless retention has removed this store's samples of it.
                let pruned =
                    !(try connection.execute("SELECT 1 AS one FROM pruned_runs WHERE run_id = $1", [id]).isEmpty)
                for profile in run.profiles where !pruned {
                    try connection.execute(
                        ProfileRows.insert(placeholder: { "$\($0)" }),
                        ProfileRows.values(profile.key, parse: profile.parse, runID: run.runID, data: profile.data))
                }
                return outcome
            }
        }

        /// Closes the connection.
        public func close() {
            connection.close()
        }

        // MARK: Statements

        private func insert(_ record: RunRecord) throws {
            let values = try record.databaseDictionary.sorted { $0.key < $1.key }
            try connection.execute(
                "INSERT INTO runs (\(values.map(\.key).joined(separator: ", "))) VALUES "
                    + "(\((1...values.count).map { "$\($0)" }.joined(separator: ", ")))",
                values.map(\.value))
        }

        private func update(_ record: RunRecord) throws {
            let values = try record.databaseDictionary.filter { $0.key != "run_id" }.sorted { $0.key < $1.key }
            try connection.execute(
                "UPDATE runs SET " + values.enumerated().map { "\($1.key) = $\($0 + 1)" }.joined(separator: ", ")
                    + " WHERE run_id = $\(values.count + 1)",
                values.map(\.value) + [record.runID.databaseValue])
        }

        /// Inserts samples with multi-row statements (at most 500 rows each: a statement takes 65,535 parameters).
        private func insert(_ samples: [SampleRecord]) throws {
            guard let first = samples.first else { return }
            let columns = try Self.sampleColumns(first)
            var start = 0
            while start < samples.count {
                let batch = samples[start..<min(start + 500, samples.count)]
                var arguments: [DatabaseValue] = []
                var rows: [String] = []
                for sample in batch {
                    let values = try sample.databaseDictionary
                    rows.append(
                        "("
                            + columns.map { column in
                                arguments.append(values[column] ?? .null)
                                return "$\(arguments.count)"
                            }.joined(separator: ", ") + ")")
                }
                try connection.execute(
                    "INSERT INTO samples (\(columns.joined(separator: ", "))) VALUES " + rows.joined(separator: ", "),
                    arguments)
                start += batch.count
            }
        }

        /// The stored columns of a sample, but its row ID (the database gives one).
        private static func sampleColumns(_ sample: SampleRecord) throws -> [String] {
            try sample.databaseDictionary.keys.filter { $0 != "id" }.sorted()
        }
    }

    // MARK: Retention

    extension PostgresStatsStore {
        public func retentionPlan(_ policy: RetentionPolicy) throws -> RetentionPlan {
            let query = RetentionQuery.candidates(policy, placeholder: { "$\($0)" })
            let rows = try connection.execute(query.sql, query.arguments.map(\.databaseValue))
            let candidates = try rows.map(RetentionQuery.candidate)
            let total: Int64 =
                candidates.isEmpty
                ? 0 : try connection.execute("SELECT COUNT(*) AS samples FROM samples").first?["samples"] ?? 0
            return RetentionQuery.plan(candidates, storeSamples: Int(total))
        }

        public func prune(_ runs: [RetentionPlan.Run], at date: Date, progress: (Int) -> Void) throws
            -> [RetentionPlan.Run]
        {
            let stamp = RetentionQuery.timestamp(date)
            let recording = RetentionQuery.recordPruned(placeholder: { "$\($0)" })
            return try RetentionQuery.inBatches(runs, progress: progress) { batch in
                try connection.transaction {
                    // The lock a copy of the run takes (importRun): a push of one of these runs from
                    // another machine waits until this transaction ends, then finds it as it is.
                    for run in batch {
                        try connection.execute(
                            "SELECT pg_advisory_xact_lock(\(Self.migrationLock), hashtext($1))",
                            [run.runID.databaseValue])
                    }
                    let still = Set(
                        try connection.execute(
                            RetentionQuery.stillPrunable(count: batch.count, placeholder: { "$\($0)" }) + " FOR UPDATE",
                            batch.map(\.runID.databaseValue)
                        ).compactMap { $0["run_id"] as String? })
                    var done: [RetentionPlan.Run] = []
                    for var run in batch where still.contains(run.runID) {
                        let removed: Int64 =
                            try connection.execute(
                                "WITH gone AS (DELETE FROM samples WHERE run_id = $1 RETURNING 1) "
                                    + "SELECT COUNT(*) AS samples FROM gone", [run.runID.databaseValue]
                            ).first?["samples"] ?? 0
                        run.samples = Int(removed)
                        // A run's profiles are raw figures as its samples are: they go with them.
                        try connection.execute("DELETE FROM profiles WHERE run_id = $1", [run.runID.databaseValue])
                        try connection.execute(
                            recording[0], [run.runID.databaseValue, stamp.databaseValue, run.samples.databaseValue])
                        try connection.execute(recording[1], [run.runID.databaseValue])
                        done.append(run)
                    }
                    return done
                }
            }
        }

        public func space() throws -> StoreSpace {
            let row = try connection.execute(
                "SELECT pg_database_size(current_database()) AS bytes, pg_total_relation_size('samples') AS samples"
            ).first
            return StoreSpace(bytes: row?["bytes"] ?? 0, sampleBytes: row?["samples"])
        }

        public func reclaimSpace() throws {
            try connection.execute("VACUUM (ANALYZE) samples")
        }
    }
#endif
