/// A comparison's verdict on one cell.
public enum Verdict: String, Codable, Sendable {
    /// Lower by more than the threshold, beyond the noise.
    case faster
    /// Neither.
    case unchanged
    /// Higher by more than the threshold, beyond the noise: a regression.
    case slower
    /// It ran in the baseline and failed in the current runs (every iteration, or some, or the
    /// parser was not timed): a broken parser, worse than a slow one.
    case failed
}
