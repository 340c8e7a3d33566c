#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Distribution-free estimates of a shift between two samples, with confidence intervals and
/// p-values from the rank tests they go with.
///
/// Deterministic (no resampling): the same inputs give
/// the same interval, which a CI gate needs.
///
/// - ``pairedShift(_:level:)``: one sample of paired differences (current − baseline, each pair
///   measured side by side). The Hodges–Lehmann estimate is the median of the Walsh averages
///   (dᵢ + dⱼ)/2, i ≤ j; the interval comes from the Wilcoxon signed-rank test.
/// - ``shift(baseline:current:level:)``: two independent samples. The estimate is the median of all
///   differences yⱼ − xᵢ; the interval comes from the Mann–Whitney (Wilcoxon rank-sum) test.
///
/// Both intervals are the order statistics of the differences at the ranks the exact null
/// distribution of the test statistic gives (exact up to 400 pairs, or while m × n ≤ 10,000; normal
/// approximation with continuity correction beyond, marked ``Shift/approximate``). Their coverage is at least `level` when the
/// differences are continuous; with too few values no interval reaches `level`, and the range of
/// the differences is returned with its (lower) exact coverage.
public enum RankStatistics {
    /// An estimated shift with its interval and test.
    public struct Shift: Sendable, Equatable, Codable {
        /// The Hodges–Lehmann estimate.
        public var estimate: Double
        public var low: Double
        public var high: Double
        /// The interval's exact coverage under the null distribution (≥ the level asked, unless too
        /// few values).
        public var coverage: Double
        /// The two-sided p-value of the rank test of "no shift".
        public var pValue: Double
        /// Whether the interval and coverage come from the normal approximation (too many values
        /// for the exact distribution) rather than the exact distribution.
        public var approximate: Bool = false
    }

    /// Whether `pairs` pairs can give a signed-rank interval at `level` (exact distribution).
    public static func pairedReaches(_ level: Double, pairs: Int) -> Bool {
        pairs > 0 && criticalRank(signedRankDistribution(pairs), level: level).coverage >= level - 1e-12
    }

    /// Whether samples of `m` and `n` can give a rank-sum interval at `level` (exact distribution).
    public static func unpairedReaches(_ level: Double, _ m: Int, _ n: Int) -> Bool {
        m > 0 && n > 0 && criticalRank(rankSumDistribution(m, n), level: level).coverage >= level - 1e-12
    }

    /// The smallest balanced sizes that reach `level`, in words ("4 and 4 workers").
    public static func unpairedNeeded(_ level: Double) -> String {
        var k = 1
        while k < 60 && !unpairedReaches(level, k, k) { k += 1 }
        var pairs = 1
        while pairs < 60 && !pairedReaches(level, pairs: pairs) { pairs += 1 }
        return "\(k) and \(k) workers, or \(pairs) paired by turn"
    }

    /// The shift of paired differences `differences` (Hodges–Lehmann + Wilcoxon signed-rank).
    public static func pairedShift(_ differences: [Double], level: Double = 0.95) -> Shift? {
        let n = differences.count
        guard n > 0 else { return nil }
        var walsh: [Double] = []
        walsh.reserveCapacity(n * (n + 1) / 2)
        for i in 0..<n {
            for j in i..<n { walsh.append((differences[i] + differences[j]) / 2) }
        }
        walsh.sort()
        let total = walsh.count
        let estimate = Statistics.percentile(sorted: walsh, 0.5)
        let distribution = signedRankDistribution(n)
        let (k, coverage) = criticalRank(distribution, level: level)
        let low = walsh[k - 1]
        let high = walsh[total - k]
        // The test: W+ = sum of the ranks of |d| over positive d; zeros dropped, ties get mid-ranks.
        let nonzero = differences.filter { $0 != 0 }
        let p: Double
        if nonzero.isEmpty {
            p = 1
        } else {
            let ranks = midRanks(nonzero.map { abs($0) })
            let wPlus = zip(nonzero, ranks).reduce(0.0) { $0 + ($1.0 > 0 ? $1.1 : 0) }
            p = twoSidedP(statistic: wPlus, distribution: signedRankDistribution(nonzero.count))
        }
        var result = Shift(estimate: estimate, low: low, high: high, coverage: coverage, pValue: p)
        result.approximate = distribution.isApproximate
        return result
    }

    /// The shift from `baseline` to `current`, two independent samples (Hodges–Lehmann + Mann–Whitney).
    public static func shift(baseline x: [Double], current y: [Double], level: Double = 0.95) -> Shift? {
        let m = x.count
        let n = y.count
        guard m > 0, n > 0 else { return nil }
        var differences: [Double] = []
        differences.reserveCapacity(m * n)
        for a in x {
            for b in y { differences.append(b - a) }
        }
        differences.sort()
        let estimate = Statistics.percentile(sorted: differences, 0.5)
        let distribution = rankSumDistribution(m, n)
        let (k, coverage) = criticalRank(distribution, level: level)
        let low = differences[k - 1]
        let high = differences[differences.count - k]
        // The test: U = the number of pairs with y > x (ties count a half).
        let u = x.reduce(0.0) { sum, a in y.reduce(sum) { $0 + ($1 > a ? 1 : ($1 == a ? 0.5 : 0)) } }
        let p = x == y || Set(x + y).count == 1 ? 1 : twoSidedP(statistic: u, distribution: distribution)
        var result = Shift(estimate: estimate, low: low, high: high, coverage: coverage, pValue: p)
        result.approximate = distribution.isApproximate
        return result
    }

    /// A null distribution: exact probabilities of 0, 1, 2, … or a normal approximation.
    enum Distribution {
        case exact([Double])
        case normal(mean: Double, variance: Double, maximum: Int)

        var isApproximate: Bool {
            if case .normal = self { return true }
            return false
        }

        var maximum: Int {
            switch self {
            case .exact(let probabilities): return probabilities.count - 1
            case .normal(_, _, let maximum): return maximum
            }
        }

        /// P(S ≤ s).
        func cumulative(_ s: Double) -> Double {
            switch self {
            case .exact(let probabilities):
                let upTo = Int(s.rounded(.down))
                guard upTo >= 0 else { return 0 }
                return probabilities.prefix(upTo + 1).reduce(0, +)
            case .normal(let mean, let variance, _):
                return normalCDF((s + 0.5 - mean) / variance.squareRoot())
            }
        }
    }

    /// The null distribution of the signed-rank statistic W+ for `n` pairs without ties.
    static func signedRankDistribution(_ n: Int) -> Distribution {
        let maximum = n * (n + 1) / 2
        guard n <= 400 else {
            let mean = Double(maximum) / 2
            let sumOfSquares: Int = n * (n + 1) * (2 * n + 1)
            return .normal(mean: mean, variance: Double(sumOfSquares) / 24, maximum: maximum)
        }
        // counts[w] = the number of subsets of {1…n} summing to w, scaled by 2^-n as we go.
        var counts = [Double](repeating: 0, count: maximum + 1)
        counts[0] = 1
        var reach = 0
        for rank in stride(from: 1, through: max(n, 0), by: 1) {
            reach += rank
            for w in stride(from: reach, through: rank, by: -1) { counts[w] += counts[w - rank] }
            for w in 0...reach { counts[w] /= 2 }
        }
        return .exact(counts)
    }

    /// The null distribution of the Mann–Whitney U for samples of `m` and `n` without ties.
    static func rankSumDistribution(_ m: Int, _ n: Int) -> Distribution {
        let maximum = m * n
        // Exact whenever the work (about m²·n²/4 steps) is affordable, whatever the balance: a normal
        // approximation is poor for unbalanced sizes (2 against 50, say).
        guard m * n <= 10_000 else {
            let variance = Double(m * n * (m + n + 1)) / 12
            return .normal(mean: Double(maximum) / 2, variance: variance, maximum: maximum)
        }
        // f[i][j][u]: the number of arrangements of i x's and j y's with U = u, as probabilities:
        // f(i, j, u) = i/(i+j)·f(i−1, j, u) + j/(i+j)·f(i, j−1, u − i) (the last value is an x or a y).
        var previous = [[Double]](repeating: [1], count: n + 1)  // i = 0: U = 0 whatever j
        for i in 1...max(m, 1) where m > 0 {
            var row = [[Double]](repeating: [], count: n + 1)
            row[0] = [1]
            for j in 1...max(n, 1) where n > 0 {
                var values = [Double](repeating: 0, count: i * j + 1)
                let weightX = Double(i) / Double(i + j)
                let weightY = Double(j) / Double(i + j)
                for (u, p) in previous[j].enumerated() { values[u] += weightX * p }
                for (u, p) in row[j - 1].enumerated() { values[u + i] += weightY * p }
                row[j] = values
            }
            previous = row
        }
        return .exact(previous[n])
    }

    /// The largest rank k ≥ 1 with P(S ≤ k − 1) ≤ (1 − level)/2, and the coverage of the interval
    /// between the k-th smallest and k-th largest difference; k = 1 (the whole range) when none qualifies.
    static func criticalRank(_ distribution: Distribution, level: Double) -> (rank: Int, coverage: Double) {
        let tail = (1 - level) / 2
        var k = 0
        while k < distribution.maximum / 2 + 1, distribution.cumulative(Double(k)) <= tail { k += 1 }
        // Now P(S ≤ k − 1) ≤ tail < P(S ≤ k), or k = 0 (then the whole range, with less coverage).
        let rank = max(1, k)
        return (rank, max(0, 1 - 2 * distribution.cumulative(Double(rank - 1))))
    }

    /// 2 · min(P(S ≤ s), P(S ≥ s)), at most 1, for a distribution symmetric about its mean.
    static func twoSidedP(statistic s: Double, distribution: Distribution) -> Double {
        let maximum = Double(distribution.maximum)
        let lower = distribution.cumulative(s)
        // By symmetry P(S ≥ s) = P(S ≤ maximum − s).
        let upper = distribution.cumulative(maximum - s)
        return min(1, 2 * min(lower, upper))
    }

    /// Ranks 1…n of `values`, ties sharing their mean rank.
    static func midRanks(_ values: [Double]) -> [Double] {
        let order = values.indices.sorted { values[$0] < values[$1] }
        var ranks = [Double](repeating: 0, count: values.count)
        var start = 0
        while start < order.count {
            var end = start
            while end + 1 < order.count, values[order[end + 1]] == values[order[start]] { end += 1 }
            let rank = Double(start + end + 2) / 2
            for position in start...end { ranks[order[position]] = rank }
            start = end + 1
        }
        return ranks
    }

    static func normalCDF(_ z: Double) -> Double {
        0.5 * erfc(-z / 2.0.squareRoot())
    }
}
