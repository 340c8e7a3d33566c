/// How far a run that a signal interrupted (SIGINT, SIGTERM) got: the rounds it began, of the
/// rounds asked, and the workers that finished.
///
/// Its cells hold what those workers measured; the run is stored incomplete with its noise
/// verdict and the rounds it began, so that its header, its files and the store say the same.
public struct RunInterruption: Codable, Sendable, Equatable {
    /// The signal's name ("SIGINT").
    public var signal: String
    /// The rounds begun: the last of them may not have finished every cell.
    public var rounds: Int
    /// The rounds the run was asked for (its most, with a stopping rule).
    public var roundsAsked: Int
    /// The workers that finished.
    public var workersFinished: Int
    /// The workers the run planned (`0`: it was interrupted before it knew).
    public var workersPlanned: Int

    public init(signal: String, rounds: Int, roundsAsked: Int, workersFinished: Int, workersPlanned: Int) {
        self.signal = signal
        self.rounds = rounds
        self.roundsAsked = roundsAsked
        self.workersFinished = workersFinished
        self.workersPlanned = workersPlanned
    }

    /// "interrupted by SIGINT in round 6 of 40", for the reports' headers.
    public var phrase: String { "interrupted by \(signal) in round \(rounds) of \(roundsAsked)" }
}
