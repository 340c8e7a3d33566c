import Foundation
import GRDB

extension StatsDatabase {
    public func retentionPlan(_ policy: RetentionPolicy) throws -> RetentionPlan {
        let query = RetentionQuery.candidates(policy, placeholder: { _ in "?" })
        return try read { db in
            let rows = try Row.fetchAll(db, sql: query.sql, arguments: StatementArguments(query.arguments))
            let candidates = try rows.map(RetentionQuery.candidate)
            // Counted only when something goes (the share of the store it is): a count of every sample
            // takes seconds in a big store.
            let total = candidates.isEmpty ? 0 : try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM samples") ?? 0
            return RetentionQuery.plan(candidates, storeSamples: total)
        }
    }

    public func prune(_ runs: [RetentionPlan.Run], at date: Date, progress: (Int) -> Void) throws
        -> [RetentionPlan.Run]
    {
        let stamp = RetentionQuery.timestamp(date)
        let recording = RetentionQuery.recordPruned(placeholder: { _ in "?" })
        return try RetentionQuery.inBatches(runs, progress: progress) { batch in
            try write { db in
                let still = Set(
                    try String.fetchAll(
                        db, sql: RetentionQuery.stillPrunable(count: batch.count, placeholder: { _ in "?" }),
                        arguments: StatementArguments(batch.map(\.runID))))
                var done: [RetentionPlan.Run] = []
                for var run in batch where still.contains(run.runID) {
                    try db.execute(sql: "DELETE FROM samples WHERE run_id = ?", arguments: [run.runID])
                    run.samples = db.changesCount
                    // A run's profiles are raw figures as its samples are: they go with them.
                    try db.execute(sql: "DELETE FROM profiles WHERE run_id = ?", arguments: [run.runID])
                    try db.execute(sql: recording[0], arguments: [run.runID, stamp, run.samples])
                    try db.execute(sql: recording[1], arguments: [run.runID])
                    done.append(run)
                }
                return done
            }
        }
    }

    public func space() throws -> StoreSpace {
        let files = FileManager.default
        let bytes = [location, location + "-wal"].reduce(Int64(0)) { total, path in
            total + ((try? files.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0)
        }
        let free = try read { db in
            (try Int64.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0)
                * (try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 0)
        }
        // The samples' own bytes would need a read of every page (dbstat): about 30 s at 10,000 runs.
        return StoreSpace(bytes: bytes, freeBytes: free)
    }

    public func reclaimSpace() throws {
        do {
            try writer.vacuum()
            _ = try writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        } catch {
            throw StatsStoreError(description: "cannot vacuum the stats store \(location): \(Self.explain(error))")
        }
    }
}

extension RetentionQuery {
    /// A row of ``candidates(_:placeholder:)``.
    static func candidate(_ row: Row) throws -> (run: RetentionPlan.Run, complete: Bool, summarised: Bool, pruned: Bool)
    {
        let run = RetentionPlan.Run(
            runID: row["run_id"], host: row["host"], startedAt: row["started_at"], samples: row["samples"])
        let complete: Int = row["complete"]
        let summarised: Int = row["summarised"]
        let pruned: Int = row["pruned"]
        return (run, complete != 0, summarised != 0, pruned != 0)
    }
}
