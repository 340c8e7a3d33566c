import BenchResults
import Foundation
import BenchTestSupport
import Testing

@Suite("Rank statistics, checked against their exact distributions")
struct RankStatisticsTests {
    @Test func signedRankIntervalRanks() throws {
        // n = 6: P(W+ ≤ 0) = 1/64 ≤ 0.025 < P(W+ ≤ 1) = 2/64: the interval is the whole range of the
        // 21 Walsh averages, coverage 1 − 2/64.
        let six = try #require(RankStatistics.pairedShift([1, 2, 3, 4, 5, 6]))
        #expect(six.low == 1 && six.high == 6)
        #expect(abs(six.coverage - (1 - 2.0 / 64)) < 1e-12)
        #expect(six.estimate == 3.5)
        // n = 8: sums ≤ 3 come from {}, {1}, {2}, {3}, {1,2}: 5/256 ≤ 0.025 < 7/256, so k = 4:
        // the 4th smallest and 4th largest of the 36 Walsh averages.
        let eight = try #require(RankStatistics.pairedShift([1, 2, 3, 4, 5, 6, 7, 8]))
        #expect(abs(eight.coverage - (1 - 2 * 5.0 / 256)) < 1e-12)
        // Walsh averages of 1…8, sorted: 1, 1.5, 2, 2, 2.5, 2.5, … → 4th smallest 2, 4th largest 7.
        #expect(eight.low == 2 && eight.high == 7)
        // All positive: W+ = 36, the largest value; p = 2/256.
        #expect(abs(eight.pValue - 2.0 / 256) < 1e-12)
    }

    @Test func rankSumIntervalRanks() throws {
        // 4 vs 4: P(U ≤ 0) = 1/70 ≤ 0.025 < 2/70: the whole range of the 16 differences.
        let four = try #require(RankStatistics.shift(baseline: [1, 2, 3, 4], current: [11, 12, 13, 14]))
        #expect(four.estimate == 10)
        #expect(four.low == 7 && four.high == 13)
        #expect(abs(four.coverage - (1 - 2.0 / 70)) < 1e-12)
        #expect(abs(four.pValue - 2.0 / 70) < 1e-12)
        // 5 vs 5: P(U ≤ 2) = 4/252 ≤ 0.025 < P(U ≤ 3) = 7/252 (the textbook critical value U = 2):
        // k = 3, the 3rd smallest and 3rd largest of the 25 differences.
        let five = try #require(RankStatistics.shift(baseline: [0, 1, 2, 3, 4], current: [10, 11, 12, 13, 14]))
        #expect(abs(five.coverage - (1 - 2 * 4.0 / 252)) < 1e-12)
        // Differences 10 + (j − i): −4…4 around 10; sorted: 6, 7, 7, 8, 8, 8, … → 3rd = 7, 3rd largest = 13.
        #expect(five.low == 7 && five.high == 13)
    }

    @Test func identicalSamplesShowNoShift() throws {
        let same = try #require(RankStatistics.shift(baseline: [5, 5, 5, 5], current: [5, 5, 5, 5]))
        #expect(same.estimate == 0 && same.low == 0 && same.high == 0)
        #expect(same.pValue == 1)
        let zeros = try #require(RankStatistics.pairedShift([0, 0, 0, 0, 0, 0]))
        #expect(zeros.estimate == 0 && zeros.pValue == 1)
    }

    @Test func largeSamplesUseTheNormalApproximationAndSaySo() throws {
        // 150 vs 150 (beyond the exact distribution): a clean shift of 1 with values spaced 0.01 apart.
        let x = (0..<150).map { Double($0) * 0.01 }
        let y = x.map { $0 + 1 }
        let shift = try #require(RankStatistics.shift(baseline: x, current: y))
        #expect(shift.approximate)
        #expect(abs(shift.estimate - 1) < 1e-9)
        #expect(shift.low > 0.85 && shift.high < 1.15)
        #expect(shift.coverage >= 0.95)
        #expect(shift.pValue < 1e-10)
    }

    /// Unbalanced sizes use the exact distribution, checked against a count of every arrangement.
    @Test func unbalancedSizesUseTheExactDistribution() throws {
        // 2 against 50: U = the number of (x, y) pairs with y above x. Enumerate the C(52, 2) places of
        // the two x's among the 52 ranks.
        var counts = [Double](repeating: 0, count: 101)
        for first in 0..<52 {
            for second in (first + 1)..<52 {
                // y's above each x: (51 − place) minus the x's above it.
                counts[(51 - first - 1) + (51 - second)] += 1
            }
        }
        let total = counts.reduce(0, +)
        var cumulative = 0.0
        var k = 0
        while (cumulative + counts[k]) / total <= 0.025 {
            cumulative += counts[k]
            k += 1
        }
        let x = [0.0, 0.5]
        let y = (1...50).map { Double($0) }
        let shift = try #require(RankStatistics.shift(baseline: x, current: y))
        #expect(!shift.approximate)
        #expect(abs(shift.coverage - (1 - 2 * cumulative / total)) < 1e-9, "exact coverage")
        #expect(shift.coverage >= 0.95)
    }

    /// The sizes needed follow from the level (exact distributions): 6 pairs at 95%, 8 at 99%; 4 and 4
    /// workers at 95%, 5 and 5 at 99%; uneven sizes too.
    @Test func theSizesNeededFollowFromTheLevel() {
        #expect(RankStatistics.pairedReaches(0.95, pairs: 6) && !RankStatistics.pairedReaches(0.95, pairs: 5))
        #expect(RankStatistics.pairedReaches(0.99, pairs: 8) && !RankStatistics.pairedReaches(0.99, pairs: 7))
        #expect(RankStatistics.unpairedReaches(0.95, 4, 4) && !RankStatistics.unpairedReaches(0.95, 3, 4))
        #expect(RankStatistics.unpairedReaches(0.99, 5, 5) && !RankStatistics.unpairedReaches(0.99, 4, 4))
        #expect(RankStatistics.unpairedReaches(0.95, 10, 3))
        #expect(RankStatistics.unpairedReaches(0.95, 2, 8) && !RankStatistics.unpairedReaches(0.95, 2, 7))
    }
}

@Suite("bench compare's verdicts on synthetic runs")
struct ComparisonTests {
    static let parsers = ["expat", "foundation", "libxml2", "null"]

    /// Two sides of `pairs` runs with one round each; `change` multiplies `parser`'s current values.
    static func sides(
        pairs: Int = 10, noise: Double = 0.01, change: [String: Double] = [:], seed: UInt64 = 1
    ) -> (baseline: [RunResult], current: [RunResult]) {
        let base: [String: Double] = ["expat": 10e6, "foundation": 15e6, "libxml2": 6.5e6, "null": 500]
        var baseline: [RunResult] = []
        var current: [RunResult] = []
        for pair in 0..<pairs {
            // A drift shared by both runs of the pair: ±30%, as seen on this machine.
            let drift = SyntheticRuns.noisy(1, count: 1, noise: 0.3, seed: seed &+ UInt64(pair) &* 7919)[0]
            var a: [String: [Double]] = [:]
            var b: [String: [Double]] = [:]
            for (index, parser) in parsers.enumerated() {
                let jitter = SyntheticRuns.noisy(1, count: 2, noise: noise, seed: seed &+ UInt64(pair * 31 + index))
                a[parser] = [base[parser, default: 1] * drift * jitter[0]]
                b[parser] = [base[parser, default: 1] * drift * jitter[1] * change[parser, default: 1]]
            }
            let minute = String(format: "%02d", pair)
            baseline.append(SyntheticRuns.run(id: "2026112\(pair)A", started: "2026-11-22T10:\(minute):00Z", rounds: a))
            current.append(SyntheticRuns.run(id: "2026112\(pair)B", started: "2026-11-22T10:\(minute):30Z", rounds: b))
        }
        return (baseline, current)
    }

    static func verdict(_ comparison: RunComparison, _ parser: String) -> Verdict? {
        comparison.cells.first { $0.key.parser == parser }?.verdict
    }

    @Test func clearRegressionIsSlowerDespiteSharedDrift() {
        let (baseline, current) = Self.sides(change: ["libxml2": 1.10])
        let comparison = RunComparison.compare(baseline: baseline, current: current, metric: .wall, threshold: 0.05)
        #expect(Self.verdict(comparison, "libxml2") == .slower)
        #expect(Self.verdict(comparison, "expat") == .unchanged)
        #expect(Self.verdict(comparison, "foundation") == .unchanged)
        #expect(comparison.regressions.map(\.key.parser) == ["libxml2"])
        let cell = comparison.cells.first { $0.key.parser == "libxml2" }
        #expect(cell?.method?.contains("paired") == true)
        #expect((cell?.ratioLow ?? 0) > 1)
        #expect(abs((cell?.ratio ?? 0) - 1.10) < 0.02)
    }

    /// The minimum detectable effect: the threshold with no noise; above it, the interval's lower
    /// half-width plus 0.8416 standard errors (the estimate's, h / z).
    @Test func theSmallestDetectableChangeFollowsTheRule() throws {
        #expect(abs(RunComparison.detectable(halfWidth: 0, threshold: 0.05, level: 0.95) - 0.05) < 1e-12)
        #expect(abs(RunComparison.detectable(halfWidth: 0.1, threshold: 0.05, level: 0.95) - 0.153_660) < 1e-5)
        #expect(abs(RunComparison.detectable(halfWidth: 0.02, threshold: 0.05, level: 0.95) - 0.059_056) < 1e-5)
        #expect(abs(RunComparison.detectable(halfWidth: 0.1, threshold: 0.05, level: 0.99) - 0.141_877) < 1e-5)
        let (baseline, current) = Self.sides(change: ["libxml2": 1.10])
        let comparison = RunComparison.compare(baseline: baseline, current: current, metric: .wall, threshold: 0.05)
        let cell = try #require(comparison.cells.first { $0.key.parser == "libxml2" })
        let expected = RunComparison.detectable(
            halfWidth: log(try #require(cell.ratio) / (try #require(cell.ratioLow))), threshold: 0.05, level: 0.95)
        #expect(abs((cell.detectable ?? 0) - expected) < 1e-9 && expected >= 0.05)
    }

    @Test func clearImprovementIsFaster() {
        let (baseline, current) = Self.sides(change: ["expat": 0.85])
        let comparison = RunComparison.compare(baseline: baseline, current: current, metric: .wall, threshold: 0.05)
        #expect(Self.verdict(comparison, "expat") == .faster)
        #expect(comparison.regressions.isEmpty)
    }

    @Test func noiseAloneIsUnchanged() {
        // Twenty different noise draws, ±3% per run on top of the shared drift: never a verdict.
        for seed in 1...20 {
            let (baseline, current) = Self.sides(noise: 0.03, seed: UInt64(seed) &* 104_729)
            let comparison = RunComparison.compare(baseline: baseline, current: current, metric: .wall, threshold: 0.05)
            #expect(comparison.regressions.isEmpty, "seed \(seed)")
            #expect(comparison.cells.allSatisfy { $0.verdict != .faster }, "seed \(seed)")
        }
    }

    @Test func aChangeWithinTheNoiseIsNotARegression() {
        // +8% on a parser whose runs move by ±40% each, independently: the interval includes 1.
        let (baseline, current) = Self.sides(noise: 0.4, change: ["foundation": 1.08], seed: 3)
        let comparison = RunComparison.compare(baseline: baseline, current: current, metric: .wall, threshold: 0.05)
        let cell = comparison.cells.first { $0.key.parser == "foundation" }
        #expect((cell?.ratioLow ?? 2) <= 1)
        #expect(cell?.verdict == .unchanged)
    }

    @Test func thresholdEdges() {
        // Nearly no noise: the interval is tight, so the threshold decides.
        for (change, expected) in [
            (1.04, Verdict.unchanged), (1.049, .unchanged), (1.052, .slower), (1.06, .slower), (0.94, .faster),
        ] {
            let (baseline, current) = Self.sides(noise: 0.0005, change: ["libxml2": change])
            let comparison = RunComparison.compare(baseline: baseline, current: current, metric: .wall, threshold: 0.05)
            #expect(Self.verdict(comparison, "libxml2") == expected, "change \(change)")
        }
        #expect(RunComparison.verdict(ratio: 1.05, low: 1.04, high: 1.06, threshold: 0.05) == .unchanged)
        #expect(RunComparison.verdict(ratio: 1.0500001, low: 1.04, high: 1.06, threshold: 0.05) == .slower)
        #expect(RunComparison.verdict(ratio: 1.2, low: 1.0, high: 1.4, threshold: 0.05) == .unchanged)
        #expect(RunComparison.verdict(ratio: 0.9, low: 0.85, high: 0.95, threshold: 0.05) == .faster)
        #expect(RunComparison.verdict(ratio: 0.9, low: 0.85, high: 1.0, threshold: 0.05) == .unchanged)
    }

    @Test func cellsOnOneSideOnlyAreReportedNotCompared() {
        var (baseline, current) = Self.sides()
        for index in current.indices {
            current[index].samples.removeAll { $0.cell.parser == "expat" }
        }
        let comparison = RunComparison.compare(baseline: baseline, current: current, metric: .wall, threshold: 0.05)
        let expat = comparison.cells.first { $0.key.parser == "expat" }
        #expect(expat?.verdict == nil)
        #expect(expat?.note?.contains("only in the baseline") == true)
        #expect(comparison.regressions.isEmpty)
        baseline = baseline.map { run in
            var run = run
            run.samples.removeAll { $0.cell.parser == "foundation" }
            return run
        }
        let again = RunComparison.compare(baseline: baseline, current: current, metric: .wall, threshold: 0.05)
        #expect(again.cells.first { $0.key.parser == "foundation" }?.note?.contains("only in the current") == true)
    }

    @Test func differentFeedsAreNotCompared() {
        let a = SyntheticRuns.run(
            id: "a", started: "2026-11-22T10:00:00Z", rounds: ["expat": [1e7]], iterations: 9, feedSHA256: "one")
        let b = SyntheticRuns.run(
            id: "b", started: "2026-11-22T10:01:00Z", rounds: ["expat": [2e7]], iterations: 9, feedSHA256: "two")
        let comparison = RunComparison.compare(baseline: [a], current: [b], metric: .wall, threshold: 0.05)
        #expect(comparison.cells.count == 1)
        #expect(comparison.cells[0].verdict == nil)
        #expect(comparison.cells[0].note?.contains("different feeds") == true)
        #expect(comparison.regressions.isEmpty)
    }

    @Test func theBaselineParserIsNeverCompared() {
        let (baseline, current) = Self.sides(change: ["null": 3])
        let comparison = RunComparison.compare(baseline: baseline, current: current, metric: .wall, threshold: 0.05)
        let null = comparison.cells.first { $0.key.parser == "null" }
        #expect(null?.verdict == nil)
        #expect(null?.baseline != nil && null?.current != nil)
    }

    @Test func debugBuildsAndLibraryVersionsAreWarnedAbout() {
        let a = SyntheticRuns.run(id: "a", started: "2026-11-22T10:00:00Z", rounds: ["expat": [1e7]], iterations: 9)
        let b = SyntheticRuns.run(
            id: "b", started: "2026-11-22T10:01:00Z", rounds: ["expat": [1e7]], iterations: 9, debug: true,
            libxml2: "2.12.0")
        let comparison = RunComparison.compare(baseline: [a], current: [b], metric: .wall, threshold: 0.05)
        #expect(comparison.warnings.contains { $0.contains("debug") && $0.contains("current") })
        #expect(comparison.warnings.contains { $0.contains("libxml2 version") && $0.contains("2.12.0") })
    }

    @Test func oneWorkerASideIsNeverJudgedOnTimes() {
        let a = SyntheticRuns.run(id: "a", started: "2026-11-22T10:00:00Z", rounds: ["expat": [1e7]], iterations: 9)
        let b = SyntheticRuns.run(id: "b", started: "2026-11-22T10:01:00Z", rounds: ["expat": [1.2e7]], iterations: 9)
        for metric in [ComparisonMetric.wall, .cpu] {
            let comparison = RunComparison.compare(baseline: [a], current: [b], metric: metric, threshold: 0.05)
            let cell = comparison.cells[0]
            #expect(cell.verdict == nil)
            #expect(cell.note?.contains("not judged on the noise within a worker") == true)
            #expect(comparison.regressions.isEmpty)
        }
        // Ten workers a side, from one run each: judged on the workers.
        let many = SyntheticRuns.run(
            id: "c", started: "2026-11-22T10:02:00Z",
            rounds: ["expat": SyntheticRuns.noisy(1e7, count: 10, noise: 0.05, seed: 3)])
        let slower = SyntheticRuns.run(
            id: "d", started: "2026-11-22T10:03:00Z",
            rounds: ["expat": SyntheticRuns.noisy(1.3e7, count: 10, noise: 0.05, seed: 4)])
        let judged = RunComparison.compare(baseline: [many], current: [slower], metric: .wall, threshold: 0.05)
        #expect(judged.cells[0].method == "10 vs 10 workers, Mann–Whitney")
        #expect(judged.cells[0].verdict == .slower)
    }

    /// Two sides whose machine ran at different speeds (the calibration timed before each parse)
    /// are not judged on their wall or CPU times when they did not run turn about.
    ///
    /// Two back-to-back default runs of the same code, the second on a machine 1.31× slower (its
    /// HOST STATE line said so), were "4 regressions" and exit 2. Their calibrated times are judged,
    /// and so are runs made turn about, and sides whose calibrations agree.
    @Test func sidesWhoseMachineRanAtOtherSpeedsAreNotJudgedOnTheirTimes() {
        func run(_ id: String, minute: Int, wall: Double, calibration: Int) -> RunResult {
            SyntheticRuns.run(
                id: id, started: "2026-11-22T10:0\(minute):00Z",
                rounds: ["expat": SyntheticRuns.noisy(wall, count: 10, noise: 0.05, seed: UInt64(minute + 3))],
                calibrationNs: calibration)
        }
        let baseline = run("a", minute: 0, wall: 1e7, calibration: 1_000_000)
        var current = run("b", minute: 1, wall: 1.3e7, calibration: 1_310_000)
        current.hostState = HostState(
            host: "test", calibrationNs: 1.31e6, usualNs: 1e6, historyRuns: 1, ratio: 1.31, threshold: 0.1, moved: true,
            message: "HOST STATE: this run's machine ran 1.31× slower than its usual")
        for metric in [ComparisonMetric.wall, .cpu] {
            let comparison = RunComparison.compare(
                baseline: [baseline], current: [current], metric: metric, threshold: 0.05)
            #expect(comparison.cells[0].verdict == nil)
            #expect(
                comparison.cells[0].note?.hasPrefix(
                    "not judged: the current runs' machine ran 1.31× slower than the baseline's, by the calibration "
                        + "timed before each parse (1310 µs against 1000 µs)") == true,
                "\(comparison.cells[0].note ?? "no note")")
            #expect(comparison.regressions.isEmpty && comparison.compared.isEmpty)
            #expect(comparison.warnings.contains { $0.contains("current") && $0.contains("HOST STATE") })
        }
        // The calibrated times are judged: the same per calibration, so unchanged.
        let calibrated = RunComparison.compare(
            baseline: [baseline], current: [current], metric: .calibrated, threshold: 0.05)
        #expect(calibrated.cells[0].verdict == .unchanged, "\(calibrated.cells[0])")
        // A faster machine counts the same.
        let faster = run("c", minute: 2, wall: 0.8e7, calibration: 800_000)
        let before = RunComparison.compare(baseline: [baseline], current: [faster], metric: .wall, threshold: 0.05)
        #expect(before.cells[0].note?.hasPrefix("not judged: the current runs' machine ran 1.25× faster") == true)
        // Runs made turn about pair each current worker with the baseline's of the same moment.
        let laterBaseline = run("d", minute: 2, wall: 1e7, calibration: 1_000_000)
        let laterCurrent = run("e", minute: 3, wall: 1.3e7, calibration: 1_310_000)
        let turnAbout = RunComparison.compare(
            baseline: [baseline, laterBaseline], current: [current, laterCurrent], metric: .wall, threshold: 0.05)
        #expect(
            turnAbout.cells[0].method?.contains("paired by turn") == true,
            "\(turnAbout.cells[0].method ?? "no method")")
        #expect(turnAbout.cells[0].verdict == .slower)
        // Calibrations that agree: a slower parse is a regression, whatever one run's host state says.
        let sameMachine = run("f", minute: 4, wall: 1.3e7, calibration: 1_020_000)
        var moved = sameMachine
        moved.hostState = current.hostState
        for side in [sameMachine, moved] {
            #expect(
                RunComparison.compare(baseline: [baseline], current: [side], metric: .wall, threshold: 0.05)
                    .cells[0].verdict == .slower)
        }
    }

    // MARK: Defects of the first gate, each with its reproducing input

    /// 1. Every current iteration failed: a failure, not "only in the baseline" and exit 0.
    @Test func aCellThatFailedInTheCurrentRunsIsAFailure() {
        let (baseline, current) = Self.sides()
        var broken = current
        for run in broken.indices {
            for index in broken[run].samples.indices where broken[run].samples[index].cell.parser == "expat" {
                broken[run].samples[index].error = "worker crashed with signal 11 (SIGSEGV)"
            }
        }
        let comparison = RunComparison.compare(baseline: baseline, current: broken, metric: .wall, threshold: 0.05)
        #expect(comparison.failures.map(\.key.parser) == ["expat"])
        #expect(comparison.cells.first { $0.key.parser == "expat" }?.note?.contains("every iteration") == true)
        // Nothing in it is NaN or infinite: it encodes as JSON.
        #expect(throws: Never.self) { try JSONEncoder().encode(comparison) }
        // Some iterations failed: a failure too (the baseline had none).
        var flaky = current
        flaky[3].samples[flaky[3].samples.firstIndex { $0.cell.parser == "libxml2" } ?? 0].error =
            "expat: no element found"
        let partly = RunComparison.compare(baseline: baseline, current: flaky, metric: .wall, threshold: 0.05)
        #expect(partly.failures.map(\.key.parser) == ["libxml2"])
        // Not timed at all (it disagreed): a failure.
        var wrong = current
        for run in wrong.indices {
            wrong[run].samples.removeAll { $0.cell.parser == "foundation" }
            wrong[run].cells.append(
                CellSummary.notTimed(
                    parser: "foundation", feedPath: "Data/top300.rss.xml", feedSHA256: "feedsha", feedBytes: 901_440,
                    chunkSize: 16_384, why: "DISAGREE: 299 songs"))
        }
        let disagreeing = RunComparison.compare(baseline: baseline, current: wrong, metric: .wall, threshold: 0.05)
        #expect(disagreeing.failures.map(\.key.parser) == ["foundation"])
        #expect(disagreeing.failures.first?.note?.contains("DISAGREE") == true)
    }

    /// 2. One worker failed on each side, at different turns: the pairs stay aligned by turn.
    @Test func workersArePairedByTurnNotByPosition() {
        // The machine slows by 6% a turn, for both sides alike; no change at all.
        var baseline: [RunResult] = []
        var current: [RunResult] = []
        for turn in 0..<12 {
            let drift = pow(1.06, Double(turn))
            let minute = String(format: "%02d", turn)
            baseline.append(
                SyntheticRuns.run(
                    id: "a\(minute)", started: "2026-11-22T10:\(minute):00Z", rounds: ["expat": [1e7 * drift]]))
            current.append(
                SyntheticRuns.run(
                    id: "b\(minute)", started: "2026-11-22T10:\(minute):30Z", rounds: ["expat": [1e7 * drift]]))
        }
        for index in baseline[2].samples.indices { baseline[2].samples[index].error = "worker timed out" }
        for index in current[8].samples.indices { current[8].samples[index].error = "worker timed out" }
        let comparison = RunComparison.compare(
            baseline: baseline, current: current, metric: .wall, threshold: 0.05, level: 0.99)
        let cell = comparison.cells[0]
        #expect(cell.method == "10 workers paired by turn, Wilcoxon signed-rank")
        #expect(abs((cell.ratio ?? 0) - 1) < 0.005)
        #expect(cell.verdict == .unchanged || cell.verdict == .failed)
        #expect(comparison.regressions.isEmpty)
    }

    /// 3. A zero value gives no ratio, never inf or NaN, and the JSON still encodes.
    @Test func zeroValuesAreNotCompared() throws {
        let (baseline, current) = Self.sides()
        var zero = current
        zero[0].samples[zero[0].samples.firstIndex { $0.cell.parser == "expat" } ?? 0].wallNs = 0
        let comparison = RunComparison.compare(baseline: baseline, current: zero, metric: .wall, threshold: 0.05)
        let expat = comparison.cells.first { $0.key.parser == "expat" }
        #expect(expat?.ratio == nil && expat?.verdict == nil)
        #expect(expat?.note?.contains("a value is 0") == true)
        #expect(comparison.cells.allSatisfy { ($0.ratio ?? 1).isFinite && ($0.ratioHigh ?? 1).isFinite })
    }

    /// A count a parse may take none of (minor faults) is judged on the workers' medians: one parse
    /// of 0 leaves the cell judged; a worker whose median is 0 leaves it without a ratio, said so.
    @Test func aParseWithoutFaultsLeavesTheCellJudged() throws {
        let faults = try #require(ComparisonMetric(rawValue: "faults"))
        var (baseline, current) = Self.sides()
        for side in [0, 1] {
            for run in (side == 0 ? baseline : current).indices {
                for index in (side == 0 ? baseline : current)[run].samples.indices {
                    let value = 8 + (run + index) % 3
                    if side == 0 {
                        baseline[run].samples[index][.minorPageFaults] = value
                    } else {
                        current[run].samples[index][.minorPageFaults] = value
                    }
                }
            }
        }
        let expat = { (runs: [RunResult]) in
            runs[0].samples.indices.filter { runs[0].samples[$0].cell.parser == "expat" }
        }
        var oneZero = current
        oneZero[0].samples[expat(oneZero)[0]][.minorPageFaults] = 0
        let judged = RunComparison.compare(baseline: baseline, current: oneZero, metric: faults, threshold: 0.05)
        let cell = judged.cells.first { $0.key.parser == "expat" }
        #expect(cell?.ratio != nil && cell?.verdict == .unchanged, "\(String(describing: cell?.note))")
        var workerZero = current
        for index in expat(workerZero) { workerZero[0].samples[index][.minorPageFaults] = 0 }
        let unjudged = RunComparison.compare(baseline: baseline, current: workerZero, metric: faults, threshold: 0.05)
        let none = unjudged.cells.first { $0.key.parser == "expat" }
        #expect(none?.ratio == nil && none?.verdict == nil)
        #expect(none?.note?.contains("a worker's median is 0") == true, "\(String(describing: none?.note))")
    }

    /// Calibrated time: the machine's speed, measured by the calibration just before each parse,
    /// cancels out; a 10% slower parser stays 10% slower.
    @Test func calibratedTimeCancelsTheMachinesSpeed() throws {
        // Ten workers a side; the machine 1.5× slower in every other worker, on both sides alike
        // but not in step (the sides ran at different moments); the current parser 10% slower.
        func run(_ id: String, minute: Int, factor: Double, slowPhase: Int) -> RunResult {
            var result = SyntheticRuns.run(
                id: id, started: "2026-11-22T10:0\(minute):00Z",
                rounds: ["expat": Array(repeating: 1e7 * factor, count: 10)])
            for index in result.samples.indices {
                let speed = result.samples[index].round % 2 == slowPhase ? 1.5 : 1.0
                result.samples[index].wallNs = Int(Double(result.samples[index].wallNs ?? 0) * speed)
                result.samples[index].calibrationNs = Int(1_000_000 * speed)
            }
            return result
        }
        let baseline = run("a", minute: 0, factor: 1, slowPhase: 0)
        let current = run("b", minute: 1, factor: 1.1, slowPhase: 1)
        let calibrated = RunComparison.compare(
            baseline: [baseline], current: [current], metric: .calibrated, threshold: 0.05)
        let cell = try #require(calibrated.cells.first)
        #expect(cell.verdict == .slower)
        #expect(abs((cell.ratio ?? 0) - 1.1) < 0.01)
        #expect((cell.ratioLow ?? 0) > 1.05)
        // Wall time sees the machine's two speeds as well, and cannot tell.
        let wall = RunComparison.compare(baseline: [baseline], current: [current], metric: .wall, threshold: 0.05)
        #expect(wall.cells.first?.verdict == .unchanged)
        // No calibration (a run of an older build): no calibrated time.
        #expect(
            Sample(
                cell: baseline.samples[0].cell, songs: 1, round: 1, iteration: 1, wallNs: 3_000_000, cpuNs: nil,
                firstSongNs: nil,
                peakResidentBytes: nil, error: nil, debug: false
            ).calibratedTime == nil)
    }

    /// 4. At 99%, 8 pairs are judged; with 7 the workers are compared unpaired (7 and 7 reach 99%).
    @Test func minimumSizesFollowTheConfidenceLevel() {
        let (baseline, current) = Self.sides(pairs: 8, noise: 0.001, change: ["libxml2": 1.2])
        let eight = RunComparison.compare(
            baseline: baseline, current: current, metric: .wall, threshold: 0.05, level: 0.99)
        #expect(eight.cells.first { $0.key.parser == "libxml2" }?.verdict == .slower)
        let (fewBaseline, fewCurrent) = Self.sides(pairs: 7, noise: 0.001, change: ["libxml2": 1.2])
        let seven = RunComparison.compare(
            baseline: fewBaseline, current: fewCurrent, metric: .wall, threshold: 0.05, level: 0.99)
        #expect(seven.cells.first { $0.key.parser == "libxml2" }?.method == "7 vs 7 workers, Mann–Whitney")
    }

    @Test func tooFewValuesAreNotJudged() {
        let a = SyntheticRuns.run(
            id: "a", started: "2026-11-22T10:00:00Z", rounds: ["expat": [1e7]], iterations: 3, instructions: true)
        let b = SyntheticRuns.run(
            id: "b", started: "2026-11-22T10:01:00Z", rounds: ["expat": [2e7]], iterations: 3, instructions: true)
        let comparison = RunComparison.compare(baseline: [a], current: [b], metric: .instructions, threshold: 0.01)
        #expect(comparison.cells[0].verdict == nil)
        #expect(comparison.cells[0].ratio != nil)
        #expect(comparison.cells[0].note?.contains("too few values") == true)
    }

    @Test func instructionCountsUseTheirOneRunASide() {
        let a = SyntheticRuns.run(
            id: "a", started: "2026-11-22T10:00:00Z", rounds: ["libxml2": [31_770_825]], iterations: 4, spread: 0.001,
            instructions: true)
        let same = SyntheticRuns.run(
            id: "b", started: "2026-11-22T10:01:00Z", rounds: ["libxml2": [31_770_825]], iterations: 4, spread: 0.001,
            instructions: true)
        let slower = SyntheticRuns.run(
            id: "c", started: "2026-11-22T10:02:00Z", rounds: ["libxml2": [31_770_825 * 1.015]], iterations: 4,
            spread: 0.001,
            instructions: true)
        #expect(
            RunComparison.compare(baseline: [a], current: [same], metric: .instructions, threshold: 0.01).cells[0]
                .verdict == .unchanged)
        #expect(
            RunComparison.compare(baseline: [a], current: [slower], metric: .instructions, threshold: 0.01).cells[0]
                .verdict == .slower)
        // The wall metric finds nothing in instruction runs.
        #expect(RunComparison.compare(baseline: [a], current: [slower], metric: .wall, threshold: 0.05).cells.isEmpty)
    }

    /// Estimated cycles are judged as instructions are (exact counts, 1%), and apart from them: the
    /// same instructions with more cache misses are more cycles.
    @Test func estimatedCyclesAreJudgedApartFromInstructions() {
        func run(_ id: String, cyclesPerInstruction: Double) -> RunResult {
            SyntheticRuns.run(
                id: id, started: "2026-11-22T10:0\(id.count):00Z", rounds: ["libxml2": [31_770_825]], iterations: 4,
                spread: 0.001, instructions: true, cyclesPerInstruction: cyclesPerInstruction)
        }
        let a = run("a", cyclesPerInstruction: 1.4)
        let missing = run("bb", cyclesPerInstruction: 1.45)
        #expect(ComparisonMetric.cycles.isExact && ComparisonMetric.cycles.defaultThreshold == 0.01)
        #expect(ComparisonMetric(rawValue: "cycles") == .cycles)
        #expect(
            RunComparison.compare(baseline: [a], current: [missing], metric: .instructions, threshold: 0.01).cells[0]
                .verdict == .unchanged)
        let cycles = RunComparison.compare(baseline: [a], current: [missing], metric: .cycles, threshold: 0.01)
        #expect(cycles.cells[0].verdict == .slower)
        #expect(abs((cycles.cells[0].ratio ?? 0) - 1.45 / 1.4) < 0.001)
        #expect(
            RunComparison.compare(baseline: [a], current: [a], metric: .cycles, threshold: 0.01).cells[0].verdict
                == .unchanged)
    }

    @Test func peakMemoryComparesOneValuePerWorker() {
        let a = SyntheticRuns.run(
            id: "a", started: "2026-11-22T10:00:00Z", rounds: ["expat": Array(repeating: 1e7, count: 6)],
            peak: ["expat": [33_000_000, 33_100_000, 32_900_000, 33_050_000, 32_950_000, 33_000_000]])
        let b = SyntheticRuns.run(
            id: "b", started: "2026-11-22T10:01:00Z", rounds: ["expat": Array(repeating: 1e7, count: 6)],
            peak: ["expat": [40_000_000, 40_100_000, 39_900_000, 40_050_000, 39_950_000, 40_000_000]])
        let comparison = RunComparison.compare(baseline: [a], current: [b], metric: .peakMemory, threshold: 0.05)
        #expect(comparison.cells[0].verdict == .slower)
        #expect(comparison.cells[0].baseline?.workers == 6)
        #expect(comparison.cells[0].baseline?.median == 33_000_000)
    }

    /// A run of one expat worker whose two counted parses allocated `count` times.
    static func allocationRun(_ id: String, count: Int) -> RunResult {
        var run = SyntheticRuns.run(
            id: id, started: "2026-11-22T10:0\(id.count):00Z", rounds: ["expat": [1e7]], iterations: 2)
        let cell = run.samples[0].cell
        for k in 0..<2 {
            var counted = Sample(
                cell: cell, songs: 300, round: 0, iteration: 3 + k, wallNs: nil, cpuNs: nil, firstSongNs: nil,
                peakResidentBytes: nil,
                error: nil, debug: false)
            counted.allocations = count
            run.samples.append(counted)
        }
        return run
    }

    @Test func allocationCountsAreExactAndJudgedWithoutNoise() {
        let base = Self.allocationRun("a", count: 743)
        let compare = { (other: RunResult) in
            RunComparison.compare(
                baseline: [base], current: [other], metric: .allocations,
                threshold: ComparisonMetric.allocations.defaultThreshold
            ).cells[0]
        }
        #expect(ComparisonMetric.allocations.isExact && ComparisonMetric.allocations.defaultThreshold == 0.01)
        #expect(compare(Self.allocationRun("bb", count: 743)).verdict == .unchanged)
        let more = compare(Self.allocationRun("cc", count: 760))
        #expect(more.verdict == .slower)
        #expect(more.ratio == 760.0 / 743.0 && more.ratioLow == more.ratioHigh)
        #expect(more.method?.contains("exact counts") == true)
        #expect(compare(Self.allocationRun("dd", count: 745)).verdict == .unchanged)  // +0.3%: under the 1% threshold
        #expect(compare(Self.allocationRun("ee", count: 600)).verdict == .faster)
    }
}
