/// A whole run, as written to `<run-id>.json`: the environment, one summary per cell, every sample,
/// and what the harness noticed of the machine's noise.
public struct RunResult: Codable, Sendable, Equatable {
    /// 1: before workers were summarised; 2: ``CellSummary/estimate``, ``noise`` and the parse's own peak.
    public var formatVersion: Int
    public var environment: RunEnvironment
    public var settings: RunSettings
    public var cells: [CellSummary]
    public var samples: [Sample]
    /// Whether the figures are reliable, and why not; `nil` in files of version 1.
    public var noise: NoiseReport?
    /// The measured shape of each document of a document-workload run; `nil` for songs.
    public var documents: [DocumentProfile]?
    /// Where a parser's ratio differs between documents beyond the intervals (``DocumentContrast``);
    /// `nil` for songs.
    public var betweenDocuments: [DocumentContrast]?
    /// Whether the host ran as it usually does, against its earlier runs in the store; `nil` when
    /// not compared (files written before it was, or a report read back from a store).
    public var hostState: HostState?
    /// Whether the next-run intervals hold the run-to-run noise, learnt from the host's earlier
    /// runs (``RunHistory``); `nil` when not looked at.
    public var runToRun: RunToRunNote?
    /// How the rounds stopped, for a run with a ``RunSettings/stopping`` rule; `nil` for a run of
    /// fixed rounds.
    public var stopped: StoppingOutcome?
    /// How far the run got, when a signal interrupted it (its ``settings`` then give the rounds
    /// it began); `nil` for a run that was not interrupted.
    public var interrupted: RunInterruption?
    /// The `concurrent` scenario's figures (throughput and scaling per parser and thread count);
    /// `nil` for a run without it.
    public var concurrent: [ConcurrentFigures]?
    /// What the harness cost each worker beside its job, measured by a worker with nothing to do in
    /// each timed round; `nil` for a counted run, a run read back from a store, and files written
    /// before it was measured.
    public var workerHarness: WorkerHarness?

    public init(
        environment: RunEnvironment, settings: RunSettings, cells: [CellSummary], samples: [Sample],
        noise: NoiseReport? = nil, documents: [DocumentProfile]? = nil
    ) {
        self.formatVersion = 2
        self.environment = environment
        self.settings = settings
        self.cells = cells
        self.samples = samples
        self.noise = noise
        self.documents = documents
        self.betweenDocuments = documents == nil ? nil : DocumentContrast.find(cells)
        let concurrent = ConcurrentFigures.of(cells)
        self.concurrent = concurrent.isEmpty ? nil : concurrent
    }
}
