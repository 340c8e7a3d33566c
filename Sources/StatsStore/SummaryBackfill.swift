import BenchResults

/// Summarises, once, the runs a store holds without summaries (stored before it kept them, or
/// copied in): each from its samples, by the function `bench run` summarises with, a batch of runs
/// at a time (their samples read in one query, their summaries written in one transaction with
/// their marks, a batch's samples in memory), so that an interrupted backfill leaves every run
/// summarised or not, and the next one goes on.
///
/// A store opened to write does it as it opens
/// (`StatsStores.open(_:mustExist:readOnly:backfill:)`); the rule that summarises a run is the
/// caller's (the engine's `RunResult.summarising`, the one `bench run` summarises with).
package struct SummaryBackfill {
    /// A run read back from the store, its cells summarised from its samples.
    package var summarising: (StoredRun) -> RunResult
    /// Called before the first run and after each batch (`done`, `total`).
    package var progress: (_ done: Int, _ total: Int) -> Void

    package init(
        summarising: @escaping (StoredRun) -> RunResult,
        progress: @escaping (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) {
        self.summarising = summarising
        self.progress = progress
    }

    /// Summarises `runs`, runs of `store` without summaries, from their samples.
    ///
    /// - Throws: a ``StatsStoreError`` that says which store and why, and that the runs
    ///   summarised before stay so.
    package func summarise(_ runs: [String], in store: any StatsStoring) throws {
        guard !runs.isEmpty else { return }
        do {
            try Self.run(
                runs, read: { try store.storedRuns($0).map(summarising) }, record: { try store.recordSummaries($0) },
                progress: progress)
        } catch {
            throw StatsStoreError(
                description: "the stats store \(store.location) holds \(runs.count) run(s) stored before it kept "
                    + "summaries, and they could not be summarised (\(error)). Open it once with a bench command that may "
                    + "write it (bench run, or bench store push); each run summarised stays so")
        }
    }

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
