/// A cell's headline figure, and the interval that the next run's figure should fall in.
///
/// ``value`` is the median of the worker processes' medians. ``low`` … ``high`` is a
/// distribution-free **prediction interval for the next run's value**: the order statistics
/// x(l) and x(K−l+1) of this run's K worker medians, with the largest l such that, were the next
/// run's K workers drawn like these, its median would fall between them with probability at least
/// the level (``coverage`` is that probability, exact: every interleaving of the two runs' 2K
/// values is equally likely). It is wider than an interval of this run's median, by design: it
/// answers "what will the next run report?". With 10 workers it is their range (96.7%); with 20,
/// the 4th to the 17th (95.9%); with 40 (`bench run`'s default), the 11th to the 30th (96.3%); below
/// 10 no range reaches 95% and ``coverage`` says how much it has.
public struct RunEstimate: Codable, Sendable, Equatable {
    public var value: Double
    public var low: Double
    public var high: Double
    public var coverage: Double
    /// Worker processes.
    public var workers: Int
    /// How much the workers disagree: the standard deviation of the logarithms of their medians
    /// (0.1 ≈ 10%); `nil` for fewer than 2.
    public var spread: Double?
    /// The run-to-run level learnt from the host's earlier runs, when the store had enough of them.
    ///
    /// ``low`` … ``high`` are then widened to hold it (``RunToRun``), and the interval from this run's
    /// workers alone is kept in ``withinRunLow`` … ``withinRunHigh``.
    /// ``coverage`` is always the within-run interval's.
    public var runToRun: RunToRun?
    public var withinRunLow: Double?
    public var withinRunHigh: Double?

    /// The estimate from worker medians, or `nil` when there are none.
    public init?(workerMedians values: [Double], level: Double = 0.95) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let k = sorted.count
        value = Statistics.percentile(sorted: sorted, 0.5)
        let ranks = RunEstimate.predictionRanks(count: k, level: level)
        low = sorted[ranks.lower - 1]
        high = sorted[ranks.upper - 1]
        coverage = ranks.coverage
        workers = k
        spread = WorkerValues.logSpread(sorted)  // in order: the same workers give the same bits
    }

    /// Widens the interval by the run-to-run level (``runToRun``), keeping the within-run one.
    public mutating func include(_ level: RunToRun) {
        withinRunLow = low
        withinRunHigh = high
        (low, high) = level.widen(value: value, low: low, high: high)
        runToRun = level
    }

    /// The ranks (l, K − l + 1) of the prediction interval for the median of a next sample of
    /// `count` values, and its exact coverage.
    public static func predictionRanks(count k: Int, level: Double = 0.95) -> (lower: Int, upper: Int, coverage: Double)
    {
        precondition(k > 0, "no values")
        var best = (lower: 1, upper: k, coverage: coverage(count: k, lower: 1))
        var l = 2
        while l <= (k + 1) / 2 {
            let c = coverage(count: k, lower: l)
            if c < level { break }
            best = (l, k - l + 1, c)
            l += 1
        }
        return best
    }

    /// P(x(l) ≤ M′ ≤ x(K−l+1)), M′ the median of a next sample of K: by dynamic programming over
    /// the interleavings of the two samples (taking the next value from this sample with
    /// probability (K − i)/(2K − i − j) when i and j values of each are placed).
    static func coverage(count k: Int, lower l: Int) -> Double {
        let u = k - l + 1
        // The next sample's median: its middle value, or both middle values for an even K.
        let firstMiddle = k % 2 == 1 ? (k + 1) / 2 : k / 2
        let lastMiddle = k % 2 == 1 ? (k + 1) / 2 : k / 2 + 1
        // p[i][j]: probability of reaching (i of this sample, j of the next) with the condition still met.
        var p = [[Double]](repeating: [Double](repeating: 0, count: k + 1), count: k + 1)
        p[0][0] = 1
        for total in 0..<(2 * k) {
            for i in max(0, total - k)...min(k, total) {
                let j = total - i
                let here = p[i][j]
                guard here > 0 else { continue }
                let remaining = Double(2 * k - total)
                if i < k { p[i + 1][j] += here * Double(k - i) / remaining }
                if j < k {
                    let next = j + 1
                    // x(l) ≤ the first middle value: at least l of this sample are placed before it;
                    // the last middle value ≤ x(u): fewer than u are.
                    let ok = (next != firstMiddle || i >= l) && (next != lastMiddle || i < u)
                    if ok { p[i][next] += here * Double(k - j) / remaining }
                }
            }
        }
        return p[k][k]
    }
}

/// A next-run interval that covers less than 95%: from fewer than 10 workers, under a column whose
/// name says 95% (the reports then say how much it covers).
public struct ShortCoverage: Codable, Sendable, Equatable {
    /// The worker processes the interval is taken over.
    public var workers: Int
    /// The probability that the next run's figure falls inside (``RunEstimate/coverage``).
    public var coverage: Double

    /// `estimate`'s coverage when it is short of 95%; `nil` when it reaches 95%, or for no estimate.
    public init?(_ estimate: RunEstimate?) {
        guard let estimate, estimate.coverage < 0.95 else { return nil }
        workers = estimate.workers
        coverage = estimate.coverage
    }
}
