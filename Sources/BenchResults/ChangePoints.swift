/// Where a series of per-run figures shifted: E-Divisive means (Matteson & James, "A Nonparametric
/// Approach for Multiple Change Point Analysis of Multivariate Data", JASA 2014), the method of
/// MongoDB's change-point detection (now Apache Otava).
///
/// The statistic compares the mean distance between the points on either side of a candidate split
/// with the mean distances within each side (distances |x − y|^α, α = 1: every moment of the two
/// sides counts, and one outlying run weighs as its distance, not its square). The best split of a
/// segment is tested by permutation: the same statistic on `permutations` random orders of the
/// segment's values — the series' own noise, not a fixed threshold, says what is a change — and kept
/// when its p-value is below `significance`; then the segments on either side are searched again
/// (hierarchically, the most significant split first), until no split is significant. A side must
/// hold at least `minimumSegment` runs, so that a single outlying run cannot be a segment of its own.
///
/// The permutations come from a seeded generator: the same series gives the same answer every time.
public struct ChangePoints: Sendable {
    /// The smallest p-value kept as a change.
    public var significance: Double
    /// Random orders per test.
    public var permutations: Int
    /// The fewest runs on either side of a change.
    public var minimumSegment: Int
    /// The generator's seed.
    public var seed: UInt64
    /// The newest runs of a series that ``RunSeries/findingShifts(_:)`` searches.
    ///
    /// Each test costs the square of its segment's length for every permutation: a series of 3,333
    /// runs (10,000 runs of three hosts) did not finish in five minutes, where 200 runs take well under
    /// a second. A series longer than this is searched over its newest runs, and reports say so.
    public var newestRuns: Int

    /// The newest runs searched when none are asked for: 200 runs, a year of a nightly job or
    /// months of CI, and a second for a report of dozens of series.
    public static let defaultNewestRuns = 200

    public init(
        significance: Double = 0.01, permutations: Int = 499, minimumSegment: Int = 4, seed: UInt64 = 20_140_101,
        newestRuns: Int = ChangePoints.defaultNewestRuns
    ) {
        self.significance = significance
        self.permutations = permutations
        self.minimumSegment = max(2, minimumSegment)
        self.seed = seed
        self.newestRuns = max(2 * self.minimumSegment, newestRuns)
    }

    /// A change found: the first index of the new level, and the test's p-value.
    public struct Change: Sendable, Equatable, Codable {
        public var index: Int
        public var pValue: Double
    }

    /// The changes of `values` (in order), by index of the first value after each change.
    ///
    /// - Parameter values: The series, oldest first.
    /// - Returns: The changes, in order of index.
    public func changes(_ values: [Double]) -> [Change] {
        var random = SplitMix(state: seed)
        var found: [Change] = []
        var segments = [0..<values.count]
        while true {
            // The most significant split over the current segments.
            var best: (segment: Int, change: Change)?
            for (index, segment) in segments.enumerated() {
                let slice = Array(values[segment])
                guard let split = bestSplit(slice) else { continue }
                let p = pValue(slice, observed: split.statistic, random: &random)
                guard p < significance else { continue }
                let change = Change(index: segment.lowerBound + split.index, pValue: p)
                if best == nil || p < (best?.change.pValue ?? 1) { best = (index, change) }
            }
            guard let best else { break }
            let segment = segments[best.segment]
            segments.replaceSubrange(
                best.segment...best.segment,
                with: [segment.lowerBound..<best.change.index, best.change.index..<segment.upperBound])
            found.append(best.change)
        }
        return found.sorted { $0.index < $1.index }
    }

    /// The split of `values` with the largest statistic: its index (the first value after it) and
    /// the statistic; `nil` when the series is too short for two segments.
    ///
    /// As in E-Divisive, the right side of a split at τ may end before the segment does (at κ): a
    /// level that comes and goes (a slowdown fixed a few runs later) is found as well as a step.
    func bestSplit(_ values: [Double]) -> (index: Int, statistic: Double)? {
        let n = values.count
        let m = minimumSegment
        guard n >= 2 * m else { return nil }
        // Prefix sums of the distance matrix: any block's sum in constant time.
        let width = n + 1
        var prefix = [Double](repeating: 0, count: width * width)
        for i in 0..<n {
            var row = 0.0
            for j in 0..<n {
                row += abs(values[i] - values[j])
                prefix[(i + 1) * width + j + 1] = prefix[i * width + j + 1] + row
            }
        }
        func block(_ r0: Int, _ r1: Int, _ c0: Int, _ c1: Int) -> Double {
            prefix[r1 * width + c1] - prefix[r0 * width + c1] - prefix[r1 * width + c0] + prefix[r0 * width + c0]
        }
        var best: (index: Int, statistic: Double)?
        for tau in m...(n - m) {
            let a = Double(tau)
            let left = block(0, tau, 0, tau) / 2
            for kappa in (tau + m)...n {
                let b = Double(kappa - tau)
                let between = block(0, tau, tau, kappa)
                let right = block(tau, kappa, tau, kappa) / 2
                let energy = 2 * between / (a * b) - left / (a * (a - 1) / 2) - right / (b * (b - 1) / 2)
                let statistic = a * b / (a + b) * energy
                if best == nil || statistic > (best?.statistic ?? 0) { best = (tau, statistic) }
            }
        }
        return best
    }

    /// The share of random orders of `values` whose best split is at least `observed`.
    func pValue(_ values: [Double], observed: Double, random: inout SplitMix) -> Double {
        var shuffled = values
        var atLeast = 0
        for _ in 0..<permutations {
            // Fisher–Yates.
            var i = shuffled.count - 1
            while i > 0 {
                let j = Int(random.next() % UInt64(i + 1))
                shuffled.swapAt(i, j)
                i -= 1
            }
            if let split = bestSplit(shuffled), split.statistic >= observed { atLeast += 1 }
        }
        return Double(atLeast + 1) / Double(permutations + 1)
    }

    /// SplitMix64: a small, fast, seeded generator (Steele, Lea & Flood, OOPSLA 2014).
    struct SplitMix {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
