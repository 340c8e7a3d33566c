#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Summary statistics of one cell's samples (say, wall times in nanoseconds).
///
/// - ``mean`` is the classic "average" of the original study; ``median`` is the headline figure,
///   robust to the occasional slow iteration of a shared machine.
/// - ``standardDeviation`` is the sample standard deviation (divisor n − 1); 0 for one value.
/// - ``p90`` is the 90th percentile with linear interpolation between closest ranks (the method of
///   R's default, type 7, and of spreadsheet `PERCENTILE.INC`).
/// - ``medianLow`` … ``medianHigh`` is a distribution-free 95% confidence interval **of the median**:
///   the order statistics x(l) and x(n−l+1) with the largest l such that a Binomial(n, ½) variable is
///   below l with probability at most 2.5%. ``medianCoverage`` is its exact coverage (at least 0.95
///   once n ≥ 6; for n < 6 no such interval exists and the range is min … max, with less coverage).
public struct Statistics: Sendable, Equatable, Codable {
    public var count: Int
    public var mean: Double
    public var median: Double
    public var standardDeviation: Double
    public var min: Double
    public var max: Double
    public var p90: Double
    public var medianLow: Double
    public var medianHigh: Double
    public var medianCoverage: Double

    /// Computes the statistics of `values`, or returns `nil` when there are none.
    public init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let n = sorted.count
        count = n
        let sum = sorted.reduce(0, +)
        mean = sum / Double(n)
        median = Statistics.percentile(sorted: sorted, 0.5)
        if n > 1 {
            let squares = sorted.reduce(0) { $0 + ($1 - sum / Double(n)) * ($1 - sum / Double(n)) }
            standardDeviation = (squares / Double(n - 1)).squareRoot()
        } else {
            standardDeviation = 0
        }
        min = sorted[0]
        max = sorted[n - 1]
        p90 = Statistics.percentile(sorted: sorted, 0.9)
        let ranks = Statistics.medianConfidenceRanks(count: n)
        medianLow = sorted[ranks.lower - 1]
        medianHigh = sorted[ranks.upper - 1]
        medianCoverage = ranks.coverage
    }

    /// The `p`-quantile (0 ≤ p ≤ 1) of sorted values, interpolating linearly between closest ranks.
    public static func percentile(sorted: [Double], _ p: Double) -> Double {
        precondition(!sorted.isEmpty, "percentile of no values")
        let position = Double(sorted.count - 1) * Swift.min(Swift.max(p, 0), 1)
        let below = Int(position.rounded(.down))
        let above = Swift.min(below + 1, sorted.count - 1)
        let fraction = position - Double(below)
        return sorted[below] + (sorted[above] - sorted[below]) * fraction
    }

    /// The 1-based ranks (l, n − l + 1) of the distribution-free confidence interval of the median,
    /// and its exact coverage, for `count` values at the given level.
    public static func medianConfidenceRanks(count n: Int, level: Double = 0.95) -> (
        lower: Int, upper: Int, coverage: Double
    ) {
        precondition(n > 0, "no values")
        let tail = (1 - level) / 2
        // Cumulative Binomial(n, 1/2) probabilities, in log space so that large n does not underflow.
        var cumulative = 0.0
        var lower = 0  // the largest l with P(X ≤ l − 1) ≤ tail, found by walking up
        var logChoose = 0.0  // log C(n, k)
        let logHalfToN = Double(n) * log(0.5)
        for k in 0..<n {
            if k > 0 { logChoose += log(Double(n - k + 1)) - log(Double(k)) }
            let next = cumulative + exp(logChoose + logHalfToN)
            if next > tail { break }
            cumulative = next
            lower = k + 1
        }
        guard lower >= 1 else { return (1, n, 1 - 2 * exp(logHalfToN)) }
        // P(X ≤ lower − 1) = cumulative; coverage = 1 − 2·cumulative.
        return (lower, n - lower + 1, 1 - 2 * cumulative)
    }
}
