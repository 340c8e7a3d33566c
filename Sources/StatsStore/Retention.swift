import Foundation

/// Which runs' raw samples retention removes (`bench store prune`): those older than a number of
/// days, those beyond the newest runs of their host, or (both given) those both say.
///
/// Every run keeps its row and its summaries (what history, report and host state read); only its
/// raw samples go. A run is never touched while it may still be recorded (incomplete), nor before
/// it has its summaries (a run stored before the store kept them and not summarised yet: its
/// samples are all it has).
///
/// ```swift
/// let policy = RetentionPolicy(olderThanDays: 90, keepNewestRuns: 100)
/// let plan = try store.retentionPlan(policy)
/// ```
public struct RetentionPolicy: Sendable, Equatable {
    /// Runs that started more than this many days before ``now`` lose their samples.
    public var olderThanDays: Int?
    /// Runs beyond the newest this many of their host (by start time) lose their samples.
    public var keepNewestRuns: Int?
    /// The moment the age is counted from.
    public var now: Date

    public init(olderThanDays: Int? = nil, keepNewestRuns: Int? = nil, now: Date = Date()) {
        self.olderThanDays = olderThanDays
        self.keepNewestRuns = keepNewestRuns
        self.now = now
    }

    /// The start time (as the store writes it, ISO 8601 in UTC) before which a run is old enough.
    public var cutoff: String? {
        guard let olderThanDays else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: now.addingTimeInterval(-Double(olderThanDays) * 86_400))
    }
}

/// What retention finds in a store for a ``RetentionPolicy``: the runs whose samples go, and the
/// runs the policy names that are kept whole, and why.
public struct RetentionPlan: Sendable, Equatable {
    /// A run the policy names.
    public struct Run: Sendable, Equatable {
        public var runID: String
        public var host: String
        public var startedAt: String
        /// Its raw samples in the store.
        public var samples: Int
    }

    /// The runs whose raw samples go, oldest first.
    public var pruned: [Run]
    /// Runs the policy names that are incomplete (being recorded, or interrupted): kept whole.
    public var incomplete: [Run]
    /// Runs the policy names that have no summaries yet: kept whole (a writer's open summarises them).
    public var unsummarised: [Run]
    /// Runs the policy names whose samples an earlier retention removed.
    public var alreadyPruned: Int
    /// Raw samples in the whole store.
    public var storeSamples: Int

    public init(
        pruned: [Run], incomplete: [Run] = [], unsummarised: [Run] = [], alreadyPruned: Int = 0, storeSamples: Int = 0
    ) {
        self.pruned = pruned
        self.incomplete = incomplete
        self.unsummarised = unsummarised
        self.alreadyPruned = alreadyPruned
        self.storeSamples = storeSamples
    }

    /// The raw samples that go.
    public var samples: Int { pruned.reduce(0) { $0 + $1.samples } }
}

/// What a run whose raw samples retention removed says of them.
public struct PrunedSamples: Sendable, Equatable {
    /// When they were removed (ISO 8601).
    public var prunedAt: String
    /// How many there were.
    public var samples: Int

    public init(prunedAt: String, samples: Int) {
        self.prunedAt = prunedAt
        self.samples = samples
    }
}

/// The space a store takes, as far as it can tell.
public struct StoreSpace: Sendable, Equatable {
    /// The store's bytes on disk: an SQLite file with its -wal, or the PostgreSQL database.
    public var bytes: Int64
    /// The bytes of the raw samples (with their indexes), when the store can say.
    public var sampleBytes: Int64?
    /// Bytes inside the store that are free for its own reuse (an SQLite file's free pages), when
    /// it can say: removing rows frees them there, and only a vacuum gives them back to the disk.
    public var freeBytes: Int64?

    public init(bytes: Int64, sampleBytes: Int64? = nil, freeBytes: Int64? = nil) {
        self.bytes = bytes
        self.sampleBytes = sampleBytes
        self.freeBytes = freeBytes
    }
}

/// The SQL of retention, the same for both stores but for placeholders.
enum RetentionQuery {
    /// The runs `policy` names, with whether each is complete, summarised and already pruned, and
    /// its samples, oldest first; the arguments go in order.
    static func candidates(_ policy: RetentionPolicy, placeholder: (Int) -> String) -> (
        sql: String, arguments: [String]
    ) {
        var conditions: [String] = []
        var arguments: [String] = []
        if let cutoff = policy.cutoff {
            arguments.append(cutoff)
            conditions.append("r.started_at < \(placeholder(arguments.count))")
        }
        if let keep = policy.keepNewestRuns {
            // An integer, never a string from outside.
            conditions.append("r.newest > \(keep)")
        }
        let sql = """
            SELECT r.run_id, r.host, r.started_at,
                CASE WHEN r.complete THEN 1 ELSE 0 END AS complete,
                CASE WHEN EXISTS (SELECT 1 FROM summarised_runs m WHERE m.run_id = r.run_id) THEN 1 ELSE 0 END
                    AS summarised,
                CASE WHEN EXISTS (SELECT 1 FROM pruned_runs p WHERE p.run_id = r.run_id) THEN 1 ELSE 0 END AS pruned,
                (SELECT COUNT(*) FROM samples s WHERE s.run_id = r.run_id) AS samples
            FROM (SELECT run_id, host, started_at, complete,
                    ROW_NUMBER() OVER (PARTITION BY host ORDER BY started_at DESC, run_id DESC) AS newest
                FROM runs) r
            WHERE \(conditions.isEmpty ? "1 = 0" : conditions.joined(separator: " AND "))
            ORDER BY r.started_at, r.run_id
            """
        return (sql, arguments)
    }

    /// A plan from the rows of ``candidates(_:placeholder:)``.
    static func plan(
        _ rows: [(run: RetentionPlan.Run, complete: Bool, summarised: Bool, pruned: Bool)], storeSamples: Int
    )
        -> RetentionPlan
    {
        var plan = RetentionPlan(pruned: [], storeSamples: storeSamples)
        for row in rows {
            if row.pruned {
                plan.alreadyPruned += 1
            } else if !row.complete {
                plan.incomplete.append(row.run)
            } else if !row.summarised {
                plan.unsummarised.append(row.run)
            } else {
                plan.pruned.append(row.run)
            }
        }
        return plan
    }

    /// The runs of `count` IDs (placeholders from `first`) that retention may prune now.
    ///
    /// Complete, summarised, not pruned yet; read inside the transaction that prunes them.
    static func stillPrunable(count: Int, first: Int = 1, placeholder: (Int) -> String) -> String {
        """
        SELECT run_id FROM runs r WHERE run_id IN (\((first..<first + count).map(placeholder).joined(separator: ", ")))
            AND r.complete
            AND EXISTS (SELECT 1 FROM summarised_runs m WHERE m.run_id = r.run_id)
            AND NOT EXISTS (SELECT 1 FROM pruned_runs p WHERE p.run_id = r.run_id)
        """
    }

    /// How many runs one transaction prunes: each its own all-or-nothing step, a few at a time so
    /// that other writers (a run recording, a push) wait moments, not minutes.
    static let batch = 50

    /// Prunes `runs` ``batch`` at a time, each batch in one `transaction` (which returns the runs it
    /// pruned), with `progress` after each; the runs pruned, in order.
    static func inBatches(
        _ runs: [RetentionPlan.Run], progress: (Int) -> Void,
        transaction: ([RetentionPlan.Run]) throws -> [RetentionPlan.Run]
    ) throws -> [RetentionPlan.Run] {
        var pruned: [RetentionPlan.Run] = []
        var start = 0
        while start < runs.count {
            let runsOfBatch = Array(runs[start..<min(start + batch, runs.count)])
            pruned += try transaction(runsOfBatch)
            start += runsOfBatch.count
            progress(start)
        }
        return pruned
    }

    /// What records a run's pruning once its samples are gone (run ID, time, samples): its row in
    /// `pruned_runs`, and its content digest dropped (what the store holds of it changed: a copy
    /// must compare it again).
    static func recordPruned(placeholder: (Int) -> String) -> [String] {
        [
            "INSERT INTO pruned_runs (run_id, pruned_at, samples) VALUES "
                + "(\(placeholder(1)), \(placeholder(2)), \(placeholder(3)))",
            "UPDATE runs SET content_digest = NULL WHERE run_id = \(placeholder(1))",
        ]
    }

    /// The time written as a run's `pruned_at`.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
