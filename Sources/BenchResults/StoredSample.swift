/// A sample read back from the stats store, with its run.
public struct StoredSample: Codable, Sendable, Equatable {
    public var runID: String
    public var runStartedAt: String
    public var sample: Sample
    /// Whether its run was found noisy (`nil`: not known, or the run has not ended).
    public var runNoisy: Bool?
    /// Whether its run finished (`nil`: not known).
    public var runComplete: Bool?
    /// The commit its run's build was made from (`nil`: not known, or not a git checkout).
    public var runGitCommit: String?
    /// Whether its run measured again the parses that lost the CPU (`nil`: a run stored before
    /// such parses were flagged, whose figures include them).
    public var runRetriesPreempted: Bool?
    /// The machine its run ran on (`nil`: not known).
    public var machine: Machine?

    public init(runID: String, runStartedAt: String, sample: Sample) {
        self.runID = runID
        self.runStartedAt = runStartedAt
        self.sample = sample
    }
}
