/// Where a run is recorded as it goes: the stats store implements it; the engine only calls it.
///
/// A run is begun (incomplete) before anything is measured, each worker's samples are recorded as
/// it ends, what the run concludes so far of its cells after each round, and the run is finished at
/// the end: a run that fails or is interrupted halfway keeps every sample recorded before and the
/// summaries of every cell it measured, and stays incomplete (a process killed outright keeps the
/// summaries of its last finished round).
public protocol RunRecorder: Sendable {
    /// Records a run that starts, with its settings.
    func beginRun(_ environment: RunEnvironment, settings: RunSettings?) throws
    /// Records the measured shapes of a document-workload run's documents, once they are read and
    /// before anything is measured (replacing any recorded before).
    func recordDocuments(_ documents: [DocumentProfile], runID: String) throws
    /// Records the summaries of the parsers the agreement check kept from being timed (scenario
    /// ``CellScenario/notTimed``: their cell and why, in ``CellSummary/outcome``), once it is known and
    /// before anything is timed (replacing any recorded before), so that a run read back from the
    /// recorder says what its own files say of them.
    func recordNotTimed(_ cells: [CellSummary], runID: String) throws
    /// Records one cell's samples (one worker process's) and, in the same transaction, what the
    /// run concludes so far of `cells` (each replaces what was recorded of its cell before): a run
    /// that stops halfway keeps the summaries of every cell it recorded.
    func record(_ samples: [Sample], cells: [CellRecord], runID: String) throws
    /// Ends a run, with what the harness found of its noise: marked complete, or left incomplete
    /// (`complete` false: interrupted, or with workers that could not start) with its noise and
    /// rounds all the same, so that the store says what the run's own report says.
    ///
    /// `rounds`, when given, replaces the rounds recorded at the start: a run with a
    /// ``RunSettings/stopping`` rule records its most rounds there and the rounds it ran here; an
    /// interrupted run, the rounds it began.
    ///
    /// `cells`, the run's final summaries, replace what was recorded of those cells before, in the
    /// same transaction.
    func finishRun(
        _ runID: String, endedAt: String, noise: NoiseReport?, rounds: Int?, cells: [CellRecord], complete: Bool
    ) throws
    /// Records a counted run's profiles (one per counted cell: ``CellProfile``), before it ends,
    /// replacing any recorded of those cells before.
    func recordProfiles(_ profiles: [CellProfile], runID: String) throws
}

extension RunRecorder {
    /// Records one cell's samples, and no summary.
    public func record(_ samples: [Sample], runID: String) throws {
        try record(samples, cells: [], runID: runID)
    }

    /// Marks a run complete, and records no summary.
    public func finishRun(_ runID: String, endedAt: String, noise: NoiseReport?, rounds: Int?) throws {
        try finishRun(runID, endedAt: endedAt, noise: noise, rounds: rounds, cells: [], complete: true)
    }

    /// Marks a run complete, with its final summaries.
    public func finishRun(
        _ runID: String, endedAt: String, noise: NoiseReport?, rounds: Int?, cells: [CellRecord]
    ) throws {
        try finishRun(runID, endedAt: endedAt, noise: noise, rounds: rounds, cells: cells, complete: true)
    }
}
