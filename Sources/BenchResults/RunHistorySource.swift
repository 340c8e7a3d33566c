/// Where a run's history is read from: the stats store implements it; the engine only calls it.
///
/// The engine compares a run with the same host's earlier runs (``HostState``), widens its
/// next-run intervals by the noise between runs (``RunHistory``) and gathers the history its page
/// draws, all through this protocol, so that `bench run` and `bench sweep` get the same.
public protocol RunHistorySource: Sendable {
    /// The calibration figures of `host`'s newest `lastRuns` runs (not `runID`, not debug builds
    /// nor the gate's injected slowdowns), by run and document: the host's usual state (`HostState`).
    func calibrations(host: String, excluding runID: String?, lastRuns: Int) throws -> [RunCalibration]
    /// The samples of the cells that learn from history (`parse`, `document` and `read` cells:
    /// `CellScenario.learnsFromHistory`; debug builds left out) of `host`'s newest
    /// `lastRuns` runs of its usual work (as ``calibrations(host:excluding:lastRuns:)`` chooses
    /// them) on the documents of digests `feeds`, oldest run first: the history from which a run
    /// learns its run-to-run noise (`RunHistory`).
    func parseHistory(host: String, excluding runID: String?, lastRuns: Int, feeds: [String]) throws -> [StoredSample]
    /// The stored figures (``RunFigures``, of ``RunFigures/pageMetrics``) of `parsers` in
    /// `scenarios` (scenario names) of the newest `lastRuns` runs of the store, debug builds left
    /// out, oldest run first: the history a run's page shows beside it, read from the runs'
    /// summaries (a value a run and cell), never from their samples.
    func recentFigures(parsers: [String], scenarios: [String], lastRuns: Int) throws -> [RunFigures]
}
