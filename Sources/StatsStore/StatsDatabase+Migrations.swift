import BenchResults
import GRDB

extension StatsDatabase {
    /// The schema, as named migrations that are only ever appended: a migration that has shipped is
    /// never edited.
    ///
    /// Each runs in its own transaction; the schema is written with strings, not with
    /// the app's types.
    static var migrator: DatabaseMigrator {
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
                t.column("parser", .text).notNull()
                t.column("scenario", .text).notNull()
                t.column("feed_path", .text).notNull()
                t.column("feed_sha256", .text).notNull()
                t.column("feed_bytes", .integer).notNull()
                t.column("songs", .integer).notNull()
                t.column("chunk_size", .integer).notNull()
                t.column("network", .text).notNull().defaults(to: "")
                t.column("round", .integer).notNull()
                t.column("iteration", .integer).notNull()
                t.column("wall_ns", .integer)
                t.column("cpu_ns", .integer)
                t.column("first_song_ns", .integer)
                t.column("download_ns", .integer)
                t.column("total_ns", .integer)
                t.column("peak_resident_bytes", .integer)
                t.column("error", .text)
                t.column("debug", .boolean).notNull()
            }
            try db.create(index: "samples_on_cell", on: "samples", columns: ["scenario", "feed_sha256", "parser"])
        }
        migrator.registerMigration("v2: bytes and HTTP status of downloads") { db in
            try db.alter(table: "samples") { t in
                t.add(column: "bytes", .integer)
                t.add(column: "http_status", .integer)
            }
        }
        migrator.registerMigration("v3: instruction counts") { db in
            try db.alter(table: "samples") { t in
                t.add(column: "instructions", .integer)
            }
        }
        migrator.registerMigration(
            "v4: run settings, noise, parses that lost the CPU, the parse's own peak, calibration"
        ) { db in
            try db.alter(table: "runs") { t in
                t.add(column: "iterations", .integer)
                t.add(column: "warmup", .integer)
                t.add(column: "rounds", .integer)
                t.add(column: "chunk_size", .integer)
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
        migrator.registerMigration("v5: allocation counts") { db in
            try db.alter(table: "samples") { t in
                t.add(column: "allocations", .integer)
                t.add(column: "allocated_bytes", .integer)
                t.add(column: "kept_bytes", .integer)
            }
        }
        migrator.registerMigration("v6: the practices: requests, bytes on the wire, store time, what a cancel left") {
            db in
            try db.alter(table: "samples") { t in
                t.add(column: "requests", .integer)
                t.add(column: "wire_bytes", .integer)
                t.add(column: "store_ns", .integer)
                t.add(column: "after_cancel_bytes", .integer)
                t.add(column: "after_cancel_parse_ns", .integer)
                t.add(column: "started_after_cancel", .integer)
            }
        }
        for metric in newMetrics {
            migrator.registerMigration(migrationName(metric)) { db in
                try db.alter(table: "samples") { t in t.add(column: metric.column, .integer) }
            }
        }
        migrator.registerMigration(contentDigestMigration) { db in
            try db.alter(table: "runs") { t in t.add(column: "content_digest", .text) }
        }
        migrator.registerMigration(documentsMigration) { db in
            try db.alter(table: "runs") { t in t.add(column: "documents", .text) }
        }
        migrator.registerMigration(downloadWarmupMigration) { db in
            try db.alter(table: "runs") { t in t.add(column: "download_warmup", .integer) }
        }
        migrator.registerMigration(notTimedMigration) { db in
            try db.alter(table: "runs") { t in t.add(column: "not_timed", .text) }
        }
        return migrator
    }

    /// The sample columns the named migrations above create, v1 to v6.
    static let columnsOfTheNamedMigrations: Set<String> = [
        "wall_ns", "cpu_ns", "first_song_ns", "download_ns", "total_ns", "peak_resident_bytes", "bytes",
        "http_status", "instructions", "parse_peak_bytes", "calibration_ns", "allocations", "allocated_bytes",
        "kept_bytes", "requests", "wire_bytes", "store_ns", "after_cancel_bytes", "after_cancel_parse_ns",
        "started_after_cancel",
    ]

    /// The metrics added to ``Metric`` since: each gets its column by a step of its own, named after
    /// it, in both stores (``migrationName(_:)``), so that adding a metric needs no migration by hand.
    static var newMetrics: [Metric] { Metric.stored.filter { !columnsOfTheNamedMigrations.contains($0.column) } }

    /// The step that adds each run's content digest (``StoredRun/contentDigest()``), set when a copy
    /// brings the run and cleared when anything else writes to it.
    static let contentDigestMigration = "v7: a content digest per run"

    /// The step that keeps the measured shapes of a document-workload run's documents with the run.
    static let documentsMigration = "v8: the documents' measured shapes"

    /// The step that keeps the warm-ups of download and practice workers, apart from the parse's.
    static let downloadWarmupMigration = "v9: warm-ups of download workers"

    /// The step that keeps the cells a run did not time (the parsers that disagreed, failed or
    /// crashed in the agreement check) and why, with the run.
    static let notTimedMigration = "v10: the cells not timed and why"

    /// The name of the step that adds a new metric's column.
    static func migrationName(_ metric: Metric) -> String { "metric: \(metric.column)" }
}
