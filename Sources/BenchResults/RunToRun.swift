#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How much a figure moves from one run of a host to the next, learnt from the same figure in the
/// host's earlier runs in the store: the level of noise that no interval from inside one run sees
/// (the host's speed state holds for many seconds, so a whole run can sit in a slow one).
///
/// With the figure's logarithm in m + 1 runs (the earlier ones oldest first, then this one), the
/// m differences between consecutive runs give the spread of a difference between two runs,
/// ``differenceSpread`` = √(Σd²/m), free of any drift or single change in the history's level
/// but for one difference. The next run's figure is then expected within this run's figure
/// × e^(±``halfWidth``), ``halfWidth`` = t × ``differenceSpread``, t Student's quantile for
/// ``degrees`` = 0.85 m degrees of freedom: consecutive differences share a run, so they carry less
/// than m independent ones' worth (on normal data, 0.85 m is what makes the interval cover 95% of
/// next runs for m from 5 to 30; a test simulates it).
public struct RunToRun: Codable, Sendable, Equatable {
    /// Earlier runs that had the figure.
    public var earlierRuns: Int
    /// The spread of the logarithm of the difference between two consecutive runs.
    public var differenceSpread: Double
    /// The degrees of freedom of the quantile.
    public var degrees: Double
    /// The level the interval aims at.
    public var level: Double
    /// The half-width on the log scale: the figure of the next run within e^(± this) of this run's.
    public var halfWidth: Double

    /// Earlier runs needed before the run-to-run level is estimated at all.
    public static let minimumEarlierRuns = 5

    /// The interval `low`…`high` around `value` widened, where it is narrower, to this level's.
    public func widen(value: Double, low: Double, high: Double) -> (low: Double, high: Double) {
        (min(low, value * exp(-halfWidth)), max(high, value * exp(halfWidth)))
    }
}

// In an extension, so that the struct keeps its memberwise initializer.
extension RunToRun {
    /// The level from a figure's values in time order, this run's last; `nil` with fewer than
    /// ``minimumEarlierRuns`` earlier values or a value that is not positive.
    public init?(series: [Double], level: Double = 0.95) {
        let m = series.count - 1
        guard m >= Self.minimumEarlierRuns, series.allSatisfy({ $0 > 0 && $0.isFinite }) else { return nil }
        let logs = series.map { log($0) }
        let squares = zip(logs, logs.dropFirst()).reduce(0) { $0 + ($1.1 - $1.0) * ($1.1 - $1.0) }
        let spread = (squares / Double(m)).squareRoot()
        let degrees = 0.85 * Double(m)
        let t = StudentT.quantile(1 - (1 - level) / 2, degrees: degrees)
        self.init(earlierRuns: m, differenceSpread: spread, degrees: degrees, level: level, halfWidth: t * spread)
    }
}
