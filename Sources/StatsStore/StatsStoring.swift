import BenchResults
import Foundation

/// The stats store as every command sees it, whichever database holds it.
///
/// An SQLite file (``StatsDatabase``, the embedded default) or a shared PostgreSQL database
/// (``PostgresStatsStore``). Both hold the same schema, made by the same named migrations.
///
/// ```swift
/// let store = try StatsStores.open("postgres://bench@db.example:5432/bench")
/// let samples = try store.samples(matching: SampleFilter(hosts: ["ci-x86"]))
/// ```
///
/// The history a run learns from (its host's calibrations, the run-to-run noise, its page's
/// history) is read through `RunHistorySource`, the engine's view of the store.
public protocol StatsStoring: RunRecorder, RunHistorySource {
    /// Where the store is, for messages: a path, or a URL without any password.
    var location: String { get }
    /// The runs, newest first.
    func runs() throws -> [RunEnvironment]
    /// The samples that match `filter`, with their run and its machine, oldest run first.
    func samples(matching filter: SampleFilter) throws -> [StoredSample]
    /// The measured shape of each document the store's runs measured, by its SHA-256 (hex): the
    /// newest run's, for documents of the document workload (`DocumentProfile`).
    func documentShapes() throws -> [String: DocumentProfile]
    /// What a run concluded per cell, as it recorded it (`CellRecord`: the cell's summary and its
    /// metrics), in the run's order; `nil` when the store has no summaries of the run (no run of
    /// that ID, or one stored before summaries were kept and not yet summarised).
    func cellRecords(of runID: String) throws -> [CellRecord]?
    /// The runs stored without their summaries (before the store kept them, or copied in), oldest
    /// first: a writer summarises them from their samples once (`SummaryBackfill`).
    func unsummarisedRuns() throws -> [String]
    /// Records the summaries of several runs made from their samples, each replacing any its run
    /// had, and marks them summarised, all in one transaction (a run the store no longer holds is
    /// skipped).
    func recordSummaries(_ runs: [(runID: String, cells: [CellRecord])]) throws
    /// The metric summaries of `metrics` in the runs and cells `filter` chooses, with their run and
    /// machine, oldest run first (a run's together), given to `body` one at a time: the runs chosen
    /// first, then their summaries a page of runs a query, by index lookups; what the store holds
    /// in memory at once is a page of runs, however long its history.
    func forEachMetricSummary(
        matching filter: SampleFilter, metrics: [Metric], _ body: (StoredMetricSummary) throws -> Void) throws
    /// The runs `filter` chooses with their cells' figures of `metrics` (what a report over many
    /// runs uses of each summary: count, median, workers' medians), oldest run first, given to
    /// `body` a run at a time: each run's facts read once from `runs`, then its summaries, a page of
    /// runs a query as ``forEachMetricSummary(matching:metrics:_:)`` reads them, each row's columns
    /// read where the database gives them. A run with no such figure is not given; the workers'
    /// medians are read of the metrics of `workerMedians` only (the others' are left empty: a
    /// report takes the workers' peaks, and most of a row's reading was its workers' numbers).
    func forEachRunFigures(
        matching filter: SampleFilter, metrics: [Metric], workerMedians: Set<Metric>,
        _ body: (RunFigures) throws -> Void) throws
    /// A counted run's profiles (one a counted cell), as stored, in no order; `[]` for a run
    /// without (not counted, made before profiles were kept, pruned, or no run of that ID).
    func profiles(of runID: String) throws -> [StoredProfile]
    /// A run with all its samples, or `nil` when the store has no run of that ID.
    func storedRun(_ runID: String) throws -> StoredRun?
    /// Several runs with all their samples, in one read (a query for the runs, one for their
    /// samples): those of `runIDs` the store holds, in the order asked.
    func storedRuns(_ runIDs: [String]) throws -> [StoredRun]
    /// Copies a run from another store into this one, in one transaction (see `StoredRun.merge(into:)`).
    ///
    /// A run this store got from an earlier copy with the same content is found by its content
    /// digest, without its samples being read.
    ///
    /// - Throws: ``StatsStoreError`` when this store holds a different run under the same ID.
    func importRun(_ run: StoredRun) throws -> ImportOutcome

    /// Removes a run and its samples (an interrupted run one does not want, say); `false` when the
    /// store has no run of that ID.
    func removeRun(_ runID: String) throws -> Bool

    /// The runs whose raw samples `policy` would remove, and those it names but keeps whole
    /// (incomplete, not summarised yet); nothing is changed.
    func retentionPlan(_ policy: RetentionPolicy) throws -> RetentionPlan
    /// Removes the raw samples of `runs` (a ``RetentionPlan/pruned``), keeping each run's row and
    /// summaries and recording that they went (``StoredRun/prunedSamples``).
    ///
    /// A few runs a transaction, each whole or not at all; a run is checked again inside its
    /// transaction (complete, summarised, not pruned yet) and skipped when it no longer is. On
    /// PostgreSQL each run's advisory lock (the one a copy of that run takes) is held meanwhile, so
    /// that another machine pushing the same run waits. `progress` gets the runs done so far.
    ///
    /// - Returns: the runs pruned, each with the samples removed.
    func prune(_ runs: [RetentionPlan.Run], at date: Date, progress: (Int) -> Void) throws -> [RetentionPlan.Run]
    /// The space the store takes.
    func space() throws -> StoreSpace
    /// Gives the space of removed rows back: VACUUM (an SQLite file is rewritten, smaller; writers
    /// wait meanwhile, and it needs free disk of about the store's size); on PostgreSQL a plain
    /// `VACUUM` of the samples, which makes the space reusable inside the database, without locking
    /// writers out (the files do not shrink).
    func reclaimSpace() throws
}

extension StatsStoring {
    /// Records a run's summaries made from its samples, replacing any it had, and marks it
    /// summarised, in one transaction (nothing when the store has no such run).
    public func recordSummaries(_ cells: [CellRecord], runID: String) throws {
        try recordSummaries([(runID, cells)])
    }

    /// The metric summaries of `metrics` in the runs and cells `filter` chooses, with their run and
    /// machine, oldest run first (``forEachMetricSummary(matching:metrics:_:)``, all at once).
    public func metricSummaries(matching filter: SampleFilter, metrics: [Metric]) throws -> [StoredMetricSummary] {
        var summaries: [StoredMetricSummary] = []
        try forEachMetricSummary(matching: filter, metrics: metrics) { summaries.append($0) }
        return summaries
    }

    /// A stored run's settings and noise report (`nil` for runs stored before they were kept).
    public func details(of runID: String) throws -> (settings: RunSettings?, noise: NoiseReport?)? {
        try storedRun(runID).map { ($0.settings, $0.noise) }
    }

    /// The stored figures of `parsers` in `scenarios` of the store's newest `lastRuns` runs, debug
    /// builds left out (``forEachRunFigures(matching:metrics:workerMedians:_:)`` of
    /// `RunFigures.pageMetrics`): the history a run's page shows, a value a run and cell.
    public func recentFigures(parsers: [String], scenarios: [String], lastRuns: Int) throws -> [RunFigures] {
        var runs: [RunFigures] = []
        try forEachRunFigures(
            matching: SampleFilter(parsers: parsers, scenarios: scenarios, lastRuns: lastRuns),
            metrics: RunFigures.pageMetrics, workerMedians: RunFigures.pageWorkerMedians
        ) { runs.append($0) }
        return runs
    }
}

/// What to write for a run that is copied into a store (decided from both sides, written by the store).
enum MergeAction {
    case insert
    case skip
    case add([SampleRecord], finish: RunRecord)
}
