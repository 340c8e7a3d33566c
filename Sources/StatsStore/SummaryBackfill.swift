import BenchResults

/// Summarises, once, the runs a store holds without summaries (stored before it kept them, or
/// copied in): each from its samples, by the function `bench run` summarises with, a batch of runs
/// at a time (their samples read in one query, their summaries written in one transaction with
/// their marks, a batch's samples in memory), so that an interrupted backfill leaves every run
/// summarised or not, and the next one goes on.
package enum SummaryBackfill {
    /// The runs read and written at once: a transaction and two queries for many runs, not for
    /// each (a run's samples, some 2,000 of a default run, take a few MB in memory).
    package static let batch = 50

    /// Summarises `runs`, the runs of a store that lack summaries, oldest first.
    ///
    /// - Parameters:
    ///   - runs: the runs to summarise.
    ///   - batch: how many runs are read and recorded at once (at least 1).
    ///   - read: reads runs back from their samples (`RunResult.summarising`), those of the IDs
    ///     given that are still there.
    ///   - record: records runs' summaries and marks them summarised, in one transaction.
    ///   - progress: called before the first run and after each batch (`done`, `total`).
    /// - Throws: what `read` and `record` throw.
    package static func run(
        _ runs: [String], batch: Int = Self.batch, read: ([String]) throws -> [RunResult],
        record: ([(runID: String, cells: [CellRecord])]) throws -> Void,
        progress: (_ done: Int, _ total: Int) -> Void
    ) throws {
        guard !runs.isEmpty else { return }
        progress(0, runs.count)
        var done = 0
        for start in stride(from: 0, to: runs.count, by: max(1, batch)) {
            let ids = Array(runs[start..<min(start + max(1, batch), runs.count)])
            let results = try read(ids)
            try record(results.map { ($0.environment.runID, records(of: $0)) })
            done += ids.count
            progress(done, runs.count)
        }
    }

    /// What a store keeps of a run read back from its samples (`RunResult.summarising(_:environment:settings:noise:documents:notTimed:)`).
    package static func records(of run: RunResult) -> [CellRecord] {
        CellRecord.of(run.cells, samples: run.samples)
    }
}
