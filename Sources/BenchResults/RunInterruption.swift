/// How far a run that a signal interrupted (SIGINT, SIGTERM) got: the rounds it began, of the
/// rounds asked, and the workers that finished.
///
/// Its cells hold what those workers measured; the run is stored incomplete with its noise
/// verdict and the rounds it began, so that its header, its files and the store say the same.
public struct RunInterruption: Codable, Sendable, Equatable {
    /// The signal's name ("SIGINT").
    public var signal: String
    /// The rounds begun (the last of them may not have finished every cell), or, interrupted after
    /// its timed rounds (``duringRounds`` false), the rounds it ran.
    public var rounds: Int
    /// Whether a timed round was under way; `false`: the rounds were over (the allocation counts
    /// after them were under way).
    public var duringRounds: Bool
    /// The rounds the run was asked for (its most, with a stopping rule).
    public var roundsAsked: Int
    /// The workers that finished.
    public var workersFinished: Int
    /// The workers the run planned (`0`: it was interrupted before it knew).
    public var workersPlanned: Int

    /// Where a run was interrupted, from the round of the last worker it started and the rounds
    /// of the workers that finished.
    ///
    /// - Parameters:
    ///   - signal: the signal's name.
    ///   - lastStartedRound: the round of the last worker started (0: one of the counted cells
    ///     after the rounds); `nil` when none was.
    ///   - finishedRounds: the rounds of the workers that finished (0 for a counted cell's).
    ///   - roundsAsked: the rounds the run was asked for.
    ///   - workersFinished: the workers that finished.
    ///   - workersPlanned: the workers the run planned.
    public init(
        signal: String, lastStartedRound: Int?, finishedRounds: [Int], roundsAsked: Int, workersFinished: Int,
        workersPlanned: Int
    ) {
        let ran = finishedRounds.max() ?? 0
        // A worker of round 0 counts allocations after the timed rounds: those are over. Else the
        // run was in the round of the last worker started (which the signal may have stopped).
        duringRounds = !(lastStartedRound == 0 && ran > 0)
        rounds = duringRounds ? max(lastStartedRound ?? 0, ran) : ran
        self.signal = signal
        self.roundsAsked = roundsAsked
        self.workersFinished = workersFinished
        self.workersPlanned = workersPlanned
    }

    /// "interrupted by SIGINT in round 6 of 40", for the reports' headers.
    public var phrase: String {
        guard duringRounds else { return "interrupted by \(signal) after its \(rounds) rounds, while counting" }
        guard rounds > 0 else { return "interrupted by \(signal) before its first worker finished" }
        return "interrupted by \(signal) in round \(rounds) of \(roundsAsked)"
    }

    /// The workers per cell the header gives: "up to" the rounds begun while they were under way.
    public var workersPerCell: String {
        (duringRounds ? "up to " : "") + "\(rounds) worker\(rounds == 1 ? "" : "s")"
    }
}
