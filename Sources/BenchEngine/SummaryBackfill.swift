import BenchResults

/// Summarises, once, the runs a store holds without summaries (stored before it kept them, or
/// copied in): each from its samples, by the function `bench run` summarises with, one run at a
/// time (one run's samples in memory), each run's summaries in one transaction with its mark, so
/// that an interrupted backfill leaves every run summarised or not, and the next one goes on.
public enum SummaryBackfill {
    /// Summarises `runs`, the runs of a store that lack summaries, oldest first.
    ///
    /// - Parameters:
    ///   - runs: the runs to summarise.
    ///   - read: reads one run back from its samples (`RunResult.summarising`), or `nil` when it is
    ///     gone.
    ///   - record: records a run's summaries and marks it summarised, in one transaction.
    ///   - progress: called before the first run and after each (`done`, `total`).
    /// - Throws: what `read` and `record` throw.
    public static func run(
        _ runs: [String], read: (String) throws -> RunResult?, record: ([CellRecord], String) throws -> Void,
        progress: (_ done: Int, _ total: Int) -> Void
    ) throws {
        guard !runs.isEmpty else { return }
        progress(0, runs.count)
        for (index, runID) in runs.enumerated() {
            if let run = try read(runID) { try record(records(of: run), runID) }
            progress(index + 1, runs.count)
        }
    }

    /// What a store keeps of a run read back from its samples (`RunResult.summarising(_:environment:settings:noise:documents:notTimed:)`).
    public static func records(of run: RunResult) -> [CellRecord] {
        CellRecord.of(run.cells, samples: run.samples)
    }
}
