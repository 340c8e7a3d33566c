#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `bench compare`: every cell of a baseline against the same cell of a current set of runs.
///
/// Each side is one run or several (say, the interleaved runs of `scripts/ci-regression.sh`). The
/// noise is always measured between worker processes (one worker per cell, run and round), because
/// on a shared machine most of the noise is between processes and moments, not between the
/// iterations of one process:
///
/// - **paired**, when the two sides ran turn about (as many runs a side, each baseline run next to
///   its current run in time): the worker of turn (run *k*, round *r*) of one side with the worker
///   of the same turn of the other; a turn whose worker failed on either side is left out, never
///   shifted onto its neighbour (Wilcoxon signed-rank);
/// - **unpaired** otherwise: the two sets of workers (Mann–Whitney);
/// - exact instruction counts only may fall back to the **iterations** when there are too few
///   workers: times never are judged on the noise within a worker.
///
/// The sizes needed follow from the confidence level: a test is used when its exact distribution
/// can reach the level (at 95%: 6 pairs, or 4 and 4 workers, or 3 and 5, or 2 and 8; at 99%: 8
/// pairs, or 5 and 5). A cell is **slower** when the ratio exceeds 1 + threshold *and* the whole
/// interval lies above 1; **faster** when the ratio is below 1 / (1 + threshold) and the whole
/// interval lies below 1; **failed** when it ran in the baseline and failed in the current runs.
///
/// Times (wall, CPU) of sides that did not run turn about are not judged when a run of either side
/// was flagged noisy (``NoiseReport``): runs made at different moments on a busy machine differ by
/// the moment (measured here: a whole mode of the workers 8% higher in one run than in the next),
/// which no test on one run a side can tell from a change of the code. Nor are the wall and CPU
/// times of sides that did not run turn about when the calibration workload timed before each parse
/// says the two sides' machine ran at speeds further apart than the threshold: their times are the
/// moment's as much as the code's; ``ComparisonMetric/calibrated`` judges them.
public struct RunComparison: Codable, Sendable, Equatable {
    public var metric: ComparisonMetric
    public var threshold: Double
    public var level: Double
    public var baselineRuns: [String]
    public var currentRuns: [String]
    /// Differences in how the two sides were made (build, libraries, machine, settings).
    public var warnings: [String]
    public var cells: [CellComparison]
    /// The measured shape of each document the cells name (document workload only; `nil` for song
    /// runs and for runs that did not keep them): the current runs' shapes, then the baseline's for
    /// documents the current runs do not have, named "(baseline)" when the current runs have the
    /// same name with other content.
    public var documents: [DocumentProfile]? = nil
    /// Why the counted cells moved, function by function (``explain(baseline:current:all:)``);
    /// `nil` when nothing was explained.
    public var explanations: [CellExplanation]? = nil
    /// The cells that were to be explained and could not be, each with why (a profile missing on
    /// a side, or refused as damaged); `nil` when none.
    public var unexplained: [ExplanationGap]? = nil

    /// The cells that regressed.
    public var regressions: [CellComparison] { cells.filter { $0.verdict == .slower } }

    /// The cells that ran in the baseline and failed in the current runs.
    public var failures: [CellComparison] { cells.filter { $0.verdict == .failed } }

    /// The cells that were compared.
    public var compared: [CellComparison] { cells.filter { $0.verdict != nil && $0.verdict != .failed } }

    /// Compares `current` against `baseline` (each: one run or more) on `metric`.
    ///
    /// - Parameters:
    ///   - baseline: the runs compared against.
    ///   - current: the runs judged.
    ///   - metric: the figure compared.
    ///   - threshold: the relative change that matters (0.05 = 5%).
    ///   - level: the confidence level of the intervals (0.95).
    ///   - baselineParser: a parser that does no work, never compared (its times are noise around 0).
    /// - Returns: every cell's comparison and verdict.
    public static func compare(
        baseline: [RunResult], current: [RunResult], metric: ComparisonMetric, threshold: Double, level: Double = 0.95,
        baselineParser: String = "null"
    ) -> RunComparison {
        let before = Side(baseline, metric: metric, name: "baseline")
        let after = Side(current, metric: metric, name: "current")
        let paired = Side.ranTurnAbout(baseline, current)
        var cells: [CellComparison] = []
        for key in Set(before.cells.keys).union(after.cells.keys).sorted() {
            let a = before.cells[key]
            let b = after.cells[key]
            var cell = CellComparison(key: key, baseline: a?.summary, current: b?.summary)
            if key.parser == baselineParser {
                cell.note = "the baseline parser does no parsing: not compared"
                cells.append(cell)
                continue
            }
            guard let a, a.workers.count > 0 else {
                cell.note = "only in the current runs"
                if let why = before.problems["\(key.parser)|\(key.feed)"] {
                    cell.note? += " (the baseline has: \(why))"
                }
                cells.append(cell)
                continue
            }
            // It ran in the baseline: a current side that has it failing is a failure.
            let failure = after.failure(key, baselineFailed: a.summary.failed ?? 0)
            guard let b, b.workers.count > 0 else {
                if let failure {
                    cell.verdict = .failed
                    cell.note = failure
                } else {
                    cell.note = "only in the baseline runs"
                }
                cells.append(cell)
                continue
            }
            if a.summary.feedSHA256 != b.summary.feedSHA256 {
                cell.note =
                    "different feeds (SHA-256 \(a.summary.feedSHA256.prefix(12))… and \(b.summary.feedSHA256.prefix(12))…): not compared"
            } else if a.shas.count > 1 || b.shas.count > 1 {
                cell.note = "a side mixes runs on different feeds of this name: not compared"
            } else if let zero = Self.valueWithoutRatio(a, b, metric: metric) {
                cell.note = zero
            } else {
                compareValues(&cell, a, b, paired: paired, metric: metric, threshold: threshold, level: level)
            }
            if let failure {
                cell.verdict = .failed
                cell.note = [cell.note, failure].compactMap { $0 }.joined(separator: "; ")
            }
            cells.append(cell)
        }
        return RunComparison(
            metric: metric, threshold: threshold, level: level, baselineRuns: baseline.map(\.environment.runID),
            currentRuns: current.map(\.environment.runID), warnings: warnings(baseline, current), cells: cells,
            documents: documents(baseline, current, cells: cells))
    }

    /// The shapes of the documents `cells` compare, one per document content, in the cells' order.
    static func documents(_ baseline: [RunResult], _ current: [RunResult], cells: [CellComparison])
        -> [DocumentProfile]?
    {
        // The newest run's shape first, as bench report gives it.
        func shapes(_ runs: [RunResult]) -> [DocumentProfile] { runs.reversed().flatMap { $0.documents ?? [] } }
        let now = shapes(current)
        let before = shapes(baseline)
        guard !now.isEmpty || !before.isEmpty else { return nil }
        var found: [DocumentProfile] = []
        var seen = Set<String>()
        for cell in cells where cell.key.scenario.workload == .document {
            for (side, profiles, isBaseline) in [(cell.current, now, false), (cell.baseline, before, true)] {
                guard let sha = side?.feedSHA256, seen.insert("\(cell.key.feed)|\(sha)").inserted,
                    var profile = profiles.first(where: {
                        ComparisonKey.feedName($0.document) == cell.key.feed && ($0.sha256 ?? sha) == sha
                    })
                else { continue }
                if isBaseline && found.contains(where: { ComparisonKey.feedName($0.document) == cell.key.feed }) {
                    profile.document += " (baseline)"
                }
                found.append(profile)
            }
        }
        return found.isEmpty ? nil : found
    }

    private static func compareValues(
        _ cell: inout CellComparison, _ a: Side.Cell, _ b: Side.Cell, paired: Bool, metric: ComparisonMetric,
        threshold: Double, level: Double
    ) {
        if !paired, metric.isTime, let noisy = a.noisy ?? b.noisy {
            // Runs made at different moments on a noisy machine differ by the moment as much as by
            // the code: the workers of one run cannot show that, so nothing is judged.
            cell.note =
                "not judged: the \(noisy) was measured on a noisy machine, and the two sides did not run turn about "
                + "(a time then depends on the moment as much as on the code). Compare runs made turn about "
                + "(scripts/ci-regression.sh), or runs made when the machine is quiet"
            cell.ratio = ratioOfMedians(a, b)
            return
        }
        if !paired, metric.isTime, metric != .calibrated, let before = a.calibration, let after = b.calibration,
            before > 0, after / before > 1 + threshold || after / before < 1 / (1 + threshold)
        {
            // The calibration timed before every parse says the two sides' machine ran at different
            // speeds: their absolute times differ by the moment as much as by the code (the
            // calibrated times do not).
            let machine = after / before
            cell.note =
                "not judged: the current runs' machine ran \(String(format: "%.2f", max(machine, 1 / machine)))× "
                + (machine > 1 ? "slower" : "faster") + " than the baseline's, by the calibration timed before each "
                + "parse (\(String(format: "%.0f", after / 1000)) µs against \(String(format: "%.0f", before / 1000)) µs), "
                + "so their times differ by the moment as much as by the code. Compare with --metric calibrated, or "
                + "runs made turn about (scripts/ci-regression.sh)"
            cell.ratio = ratioOfMedians(a, b)
            return
        }
        if metric.isExact, judgeExactCounts(&cell, a, b, threshold: threshold) { return }
        guard let (shift, method) = rankShift(a, b, paired: paired, metric: metric, level: level) else {
            let x = a.workers.count
            let y = b.workers.count
            cell.note =
                "\(x) vs \(y) worker\(y == 1 ? "" : "s"): too few for a \(percent(level)) interval between "
                + "processes (\(RankStatistics.unpairedNeeded(level)) needed); not judged on the noise within a worker. "
                + "Compare runs with more workers (bench run --rounds 10, or several runs a side)"
            cell.ratio = ratioOfMedians(a, b)
            return
        }
        cell.method = method
        guard let shift, shift.estimate.isFinite, shift.low.isFinite, shift.high.isFinite else {
            cell.note = "no finite ratio: not compared"
            return
        }
        if shift.approximate { cell.method = (cell.method ?? "") + " (normal approximation)" }
        let ratio = exp(shift.estimate)
        cell.ratio = ratio
        cell.ratioLow = exp(shift.low)
        cell.ratioHigh = exp(shift.high)
        cell.coverage = shift.coverage
        cell.pValue = shift.pValue
        cell.verdict = verdict(ratio: ratio, low: exp(shift.low), high: exp(shift.high), threshold: threshold)
        cell.detectable = detectable(halfWidth: shift.estimate - shift.low, threshold: threshold, level: level)
        if shift.coverage < level - 1e-9 {
            // No interval reaches the level: the change cannot be told from noise, whatever its size.
            cell.verdict = nil
            cell.detectable = nil
            let note =
                "too few values for a \(percent(level)) interval (the range shown covers \(Int((shift.coverage * 100).rounded(.down)))%): not judged"
            cell.note = cell.note.map { $0 + "; " + note } ?? note
        }
    }

    /// Judges a cell whose every parse counted the same on each side: the ratio is exact.
    ///
    /// There is no noise to test against. Returns whether it judged the cell so.
    private static func judgeExactCounts(
        _ cell: inout CellComparison, _ a: Side.Cell, _ b: Side.Cell, threshold: Double
    ) -> Bool {
        guard let x = a.iterationValues.first, let y = b.iterationValues.first, x > 0, y > 0,
            a.iterationValues.allSatisfy({ $0 == x }), b.iterationValues.allSatisfy({ $0 == y })
        else { return false }
        let ratio = y / x
        cell.ratio = ratio
        cell.ratioLow = ratio
        cell.ratioHigh = ratio
        cell.coverage = 1
        cell.method = "exact counts (every counted parse of each side the same)"
        cell.verdict = verdict(ratio: ratio, low: ratio, high: ratio, threshold: threshold)
        cell.detectable = threshold
        return true
    }

    /// The minimum detectable effect of a comparison whose interval's lower half-width is
    /// `halfWidth` on the log scale (``CellComparison/detectable``).
    public static func detectable(halfWidth: Double, threshold: Double, level: Double) -> Double {
        let h = max(0, halfWidth)
        let z = normalQuantile(1 - (1 - level) / 2)
        return exp(max(log(1 + threshold), h) + normalQuantile(0.8) * h / z) - 1
    }

    /// The standard normal quantile, by bisection of its distribution function.
    static func normalQuantile(_ p: Double) -> Double {
        var low = -10.0
        var high = 10.0
        for _ in 0..<100 {
            let middle = (low + high) / 2
            if RankStatistics.normalCDF(middle) < p { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }

    /// The shift between the sides on the log scale, and how it was measured: workers paired by turn
    /// when the sides ran turn about, else the two sets of workers, else (exact counts only) the
    /// counted parses; `nil` when there are too few values for an interval at `level`.
    private static func rankShift(
        _ a: Side.Cell, _ b: Side.Cell, paired: Bool, metric: ComparisonMetric, level: Double
    ) -> (RankStatistics.Shift?, String)? {
        let pairs =
            paired
            ? a.workers.keys.sorted().compactMap { turn in b.workers[turn].map { (a.workers[turn] ?? 0, $0) } } : []
        let x = a.workers.keys.sorted().compactMap { a.workers[$0] }
        let y = b.workers.keys.sorted().compactMap { b.workers[$0] }
        if paired, RankStatistics.pairedReaches(level, pairs: pairs.count) {
            let differences = pairs.map { log($0.1) - log($0.0) }
            return (
                RankStatistics.pairedShift(differences, level: level),
                "\(differences.count) workers paired by turn, Wilcoxon signed-rank"
            )
        }
        if RankStatistics.unpairedReaches(level, x.count, y.count) {
            return (
                RankStatistics.shift(baseline: x.map(log), current: y.map(log), level: level),
                "\(x.count) vs \(y.count) workers, Mann–Whitney"
            )
        }
        guard metric.isExact else { return nil }
        return (
            RankStatistics.shift(
                baseline: a.iterationValues.map(log), current: b.iterationValues.map(log), level: level),
            "\(a.iterationValues.count) vs \(b.iterationValues.count) counted parses, Mann–Whitney (exact counts)"
        )
    }

    /// Why the cell has no ratio, when a value it would take the logarithm of is 0 or not a number;
    /// `nil` when every one is positive.
    ///
    /// Those are the parses' values and the workers' medians, but for a count that a parse may take
    /// none of (minor faults: a parse that touched no new page), which is judged on the workers'
    /// medians alone: one parse of 0 leaves its worker's median positive, and the cell judged.
    static func valueWithoutRatio(_ a: Side.Cell, _ b: Side.Cell, metric: ComparisonMetric) -> String? {
        let medians = Array(a.workers.values) + Array(b.workers.values)
        let parsesMayBeZero = metric.metric.traits.unit == .count && !metric.isExact
        let values = parsesMayBeZero ? medians : medians + a.iterationValues + b.iterationValues
        guard values.contains(where: { !($0 > 0) || !$0.isFinite }) else { return nil }
        return parsesMayBeZero
            ? "a worker's median is 0 (or not a number): no ratio"
            : "a value is 0 (or not a number): no ratio"
    }

    /// current ÷ baseline of the two medians, shown beside a cell that is not judged.
    static func ratioOfMedians(_ a: Side.Cell, _ b: Side.Cell) -> Double? {
        guard let x = a.summary.median, let y = b.summary.median, x > 0, y > 0 else { return nil }
        return y / x
    }

    static func percent(_ level: Double) -> String {
        let value = level * 100
        return value == value.rounded() ? "\(Int(value))%" : "\(value)%"
    }

    /// The verdict for a ratio and its interval: a change must be larger than the threshold and
    /// beyond the noise (the interval on one side of 1).
    public static func verdict(ratio: Double, low: Double, high: Double, threshold: Double) -> Verdict {
        if ratio > 1 + threshold && low > 1 { return .slower }
        if ratio < 1 / (1 + threshold) && high < 1 { return .faster }
        return .unchanged
    }

    /// What differs between the two sides' environments and settings.
    static func warnings(_ baseline: [RunResult], _ current: [RunResult]) -> [String] {
        var warnings: [String] = []
        func values(_ runs: [RunResult], _ field: (RunResult) -> String) -> Set<String> { Set(runs.map(field)) }
        let checks: [(String, (RunResult) -> String)] = [
            ("libxml2 version", { $0.environment.libxml2Version }), ("expat version", { $0.environment.expatVersion }),
            ("Swift version", { $0.environment.swiftVersion }), ("CPU", { $0.environment.cpuModel }),
            ("host", { $0.environment.host }), ("chunk size", { String($0.settings.chunkSize) }),
        ]
        for (name, field) in checks {
            let a = values(baseline, field)
            let b = values(current, field)
            if a != b {
                warnings.append(
                    "different \(name): \(a.sorted().joined(separator: ", ")) (baseline) and \(b.sorted().joined(separator: ", ")) (current)"
                )
            }
        }
        for (side, runs) in [("baseline", baseline), ("current", current)] {
            let debug = runs.filter(\.environment.isDebug)
            if !debug.isEmpty {
                warnings.append("the \(side) has \(debug.count) debug-build run(s): their times are not representative")
            }
            let injected = runs.compactMap(\.settings.slowdownPercent).filter { $0 > 0 }
            if let percent = injected.first {
                warnings.append("the \(side) has an injected slowdown of \(percent)% (a gate test)")
            }
            let incomplete = runs.filter { !$0.environment.complete }
            if !incomplete.isEmpty {
                warnings.append("the \(side) has \(incomplete.count) incomplete run(s)")
            }
            let noisy = runs.filter { $0.noise?.noisy == true }
            if !noisy.isEmpty {
                warnings.append(
                    "the \(side) has \(noisy.count) run(s) the harness flagged noisy: "
                        + (noisy.first?.noise?.warnings.first ?? ""))
            }
            let moved = runs.compactMap(\.hostState).filter(\.moved)
            if let first = moved.first {
                warnings.append(
                    "the \(side) has \(moved.count) run(s) whose machine was not in its usual state: " + first.message)
            }
        }
        return warnings
    }
}
