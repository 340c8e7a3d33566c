import BenchTestSupport
import Foundation
import GRDB
@testable import StatsStore
import Testing

/// The frozen migrations: one literal list, only ever appended, and a store made before it was
/// frozen opens without any of its steps run again.
@Suite("Stats store: frozen migrations")
struct MigrationTests {
    /// The names of the steps as shipped, in order (checked in: a step may be appended to
    /// ``StoreMigration/all`` and then here, never changed, removed or moved).
    static let shipped = [
        "v1: runs and samples",
        "v2: bytes and HTTP status of downloads",
        "v3: instruction counts",
        "v4: run settings, noise, parses that lost the CPU, the parse's own peak, calibration",
        "v5: allocation counts",
        "v6: the practices: requests, bytes on the wire, store time, what a cancel left",
        "metric: visits",
        "metric: pages_read",
        "v7: a content digest per run",
        "v8: the documents' measured shapes",
        "v9: warm-ups of download workers",
        "v10: the cells not timed and why",
        "v11: cell summaries by run and metric",
        "retention: runs whose raw samples were pruned",
        "metric: estimated_cycles",
    ]

    @Test func theListOnlyGrowsAndItsNamesAreUnique() {
        let names = StoreMigration.all.map(\.name)
        #expect(Array(names.prefix(Self.shipped.count)) == Self.shipped)
        #expect(Set(names).count == names.count)
        #expect(StoreMigration.all.allSatisfy { !$0.sqlite.isEmpty && !$0.postgres.isEmpty })
        #expect(StatsDatabase.migrator.migrations == names)
        #if SharedStore
            #expect(PostgresStatsStore.migrations.map(\.identifier) == names)
        #endif
    }

    /// The migrator of the bench before the list was frozen (GRDB's schema builder, the metric
    /// steps generated from `Metric`), as it was, for the store it made.
    static var previousMigrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: runs and samples") { db in
            try db.create(table: "runs") { t in
                t.primaryKey("run_id", .text)
                t.column("started_at", .text).notNull()
                t.column("ended_at", .text)
                t.column("command_line", .text).notNull()
                t.column("build_configuration", .text).notNull()
                t.column("git_commit", .text)
                t.column("host", .text).notNull()
                t.column("os", .text).notNull()
                t.column("cpu_model", .text).notNull()
                t.column("cores", .integer).notNull()
                t.column("swift_version", .text).notNull()
                t.column("libxml2_version", .text).notNull()
                t.column("expat_version", .text).notNull()
                t.column("complete", .boolean).notNull().defaults(to: false)
            }
            try db.create(table: "samples") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("run_id", .text).notNull().indexed().references("runs", onDelete: .cascade)
                for name in ["parser", "scenario", "feed_path", "feed_sha256"] { t.column(name, .text).notNull() }
                for name in ["feed_bytes", "songs", "chunk_size"] { t.column(name, .integer).notNull() }
                t.column("network", .text).notNull().defaults(to: "")
                t.column("round", .integer).notNull()
                t.column("iteration", .integer).notNull()
                for name in ["wall_ns", "cpu_ns", "first_song_ns", "download_ns", "total_ns", "peak_resident_bytes"] {
                    t.column(name, .integer)
                }
                t.column("error", .text)
                t.column("debug", .boolean).notNull()
            }
            try db.create(index: "samples_on_cell", on: "samples", columns: ["scenario", "feed_sha256", "parser"])
        }
        func add(_ name: String, _ table: String, _ columns: [(String, Database.ColumnType)]) {
            migrator.registerMigration(name) { db in
                try db.alter(table: table) { t in for (column, type) in columns { t.add(column: column, type) } }
            }
        }
        add(Self.shipped[1], "samples", [("bytes", .integer), ("http_status", .integer)])
        add(Self.shipped[2], "samples", [("instructions", .integer)])
        migrator.registerMigration(Self.shipped[3]) { db in
            try db.alter(table: "runs") { t in
                for name in ["iterations", "warmup", "rounds", "chunk_size"] { t.add(column: name, .integer) }
                t.add(column: "timeout_seconds", .double)
                t.add(column: "counter", .text)
                t.add(column: "slowdown_percent", .integer)
                t.add(column: "reference", .text)
                t.add(column: "retry_preempted", .boolean)
                t.add(column: "download_iterations", .integer)
                t.add(column: "download_rounds", .integer)
                t.add(column: "noisy", .boolean)
                t.add(column: "noise", .text)
            }
            try db.alter(table: "samples") { t in
                t.add(column: "preempted", .boolean)
                t.add(column: "parse_peak_bytes", .integer)
                t.add(column: "calibration_ns", .integer)
            }
        }
        add(
            Self.shipped[4], "samples",
            [("allocations", .integer), ("allocated_bytes", .integer), ("kept_bytes", .integer)])
        add(
            Self.shipped[5], "samples",
            [
                "requests", "wire_bytes", "store_ns", "after_cancel_bytes", "after_cancel_parse_ns",
                "started_after_cancel",
            ].map { ($0, .integer) })
        add(Self.shipped[6], "samples", [("visits", .integer)])
        add(Self.shipped[7], "samples", [("pages_read", .integer)])
        add(Self.shipped[8], "runs", [("content_digest", .text)])
        add(Self.shipped[9], "runs", [("documents", .text)])
        add(Self.shipped[10], "runs", [("download_warmup", .integer)])
        add(Self.shipped[11], "runs", [("not_timed", .text)])
        return migrator
    }

    /// Each table's columns (name, type, not null, default, primary key) and each index's columns.
    static func schema(_ db: Database, tables: [String]) throws -> [String] {
        var lines: [String] = []
        for table in tables {
            for row in try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))") {
                let name: String = row["name"]
                let type: String = row["type"]
                let notNull: Int = row["notnull"]
                let value: String? = row["dflt_value"]
                let key: Int = row["pk"]
                lines.append("\(table).\(name) \(type) notnull=\(notNull) default=\(value ?? "-") pk=\(key)")
            }
            for index in try Row.fetchAll(db, sql: "PRAGMA index_list(\(table))") {
                let name: String = index["name"]
                let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?)", arguments: [name])
                lines.append("\(table) index \(name) (\(columns.joined(separator: ", ")))")
            }
        }
        return lines.sorted()
    }

    @Test func aStoreOfThePreviousBenchOpensWithoutItsStepsRunAgain() throws {
        let directory = try TemporaryDirectory()
        let old = directory.path("old.sqlite")
        let oldSchema = try {
            let queue = try DatabaseQueue(path: old)
            try Self.previousMigrator.migrate(queue)
            return try queue.read { try Self.schema($0, tables: ["runs", "samples"]) }
        }()
        _ = try StatsDatabase(path: old)
        let queue = try DatabaseQueue(path: old)
        let applied = try queue.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }
        // Every step it had is there once; only the steps appended since were added.
        #expect(Set(applied) == Set(StoreMigration.all.map(\.name)))
        #expect(applied.count == StoreMigration.all.count)
        // The steps since add indexes on runs, the estimated cycles' and the minor page faults'
        // columns, nothing else to these tables.
        let since = { (lines: [String]) in
            lines.filter {
                !$0.hasPrefix("runs index runs_on_") && !$0.hasPrefix("samples.estimated_cycles ")
                    && !$0.hasPrefix("samples.minor_page_faults ")
            }
        }
        #expect(since(try queue.read { try Self.schema($0, tables: ["runs", "samples"]) }) == oldSchema)
        // And a new store made from the literal list has the same tables as the old one.
        let fresh = directory.path("new.sqlite")
        _ = try StatsDatabase(path: fresh)
        #expect(
            since(try DatabaseQueue(path: fresh).read { try Self.schema($0, tables: ["runs", "samples"]) }) == oldSchema
        )
    }
}
