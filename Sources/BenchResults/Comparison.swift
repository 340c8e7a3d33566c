#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What `bench compare` compares.
public enum ComparisonMetric: String, CaseIterable, Codable, Sendable {
    /// Wall time of the parse.
    case wall
    /// Thread CPU time of the parse.
    case cpu
    /// Instructions of the parse (`bench run --counter instructions`).
    case instructions
    /// The worker's peak resident set (one value per worker process).
    case peakMemory = "peak-memory"

    /// The default regression threshold: 5%, or 1% for exact instruction counts.
    public var defaultThreshold: Double { self == .instructions ? 0.01 : 0.05 }

    /// The sample's value for this metric, if it has one.
    public func value(_ sample: Sample) -> Double? {
        switch self {
        case .wall: return sample.wallNs.map(Double.init)
        case .cpu: return sample.cpuNs.map(Double.init)
        case .instructions: return sample.instructions.map(Double.init)
        case .peakMemory: return sample.peakResidentBytes.map(Double.init)
        }
    }

    /// A unit label for reports.
    public var unit: String {
        switch self {
        case .wall, .cpu: return "ms"
        case .instructions: return "instructions"
        case .peakMemory: return "MiB"
        }
    }
}

/// A comparison's verdict on one cell.
public enum Verdict: String, Codable, Sendable {
    /// Lower by more than the threshold, beyond the noise.
    case faster
    /// Neither.
    case unchanged
    /// Higher by more than the threshold, beyond the noise: a regression.
    case slower
}

/// What identifies a cell across runs: the feed by its file name (the SHA-256 is checked apart).
public struct ComparisonKey: Codable, Sendable, Hashable, Comparable {
    public var parser: String
    public var scenario: String
    public var feed: String
    public var chunkSize: Int
    public var network: String

    public init(parser: String, scenario: String, feed: String, chunkSize: Int, network: String) {
        self.parser = parser
        self.scenario = scenario
        self.feed = feed
        self.chunkSize = chunkSize
        self.network = network
    }

    init(_ cell: CellKey) {
        let name = cell.feedPath.split(separator: "/").last.map(String.init) ?? cell.feedPath
        self.init(parser: cell.parser, scenario: cell.scenario, feed: name, chunkSize: cell.chunkSize, network: cell.network)
    }

    public static func < (a: ComparisonKey, b: ComparisonKey) -> Bool {
        (a.scenario, a.feed, a.chunkSize, a.network, a.parser) < (b.scenario, b.feed, b.chunkSize, b.network, b.parser)
    }
}

/// One side of one cell: its values, per worker process.
public struct ComparisonSide: Codable, Sendable, Equatable {
    /// The median of every successful iteration's value (for peak memory: of every worker's).
    public var median: Double
    /// Successful iterations.
    public var iterations: Int
    /// Worker processes (runs × rounds) with at least one successful iteration.
    public var workers: Int
    public var feedSHA256: String
}

/// The comparison of one cell.
public struct CellComparison: Codable, Sendable, Equatable {
    public var key: ComparisonKey
    public var baseline: ComparisonSide?
    public var current: ComparisonSide?
    /// current ÷ baseline: the Hodges–Lehmann estimate of the ratio (on the log scale), with its
    /// interval; `nil` when the cell is not compared.
    public var ratio: Double?
    public var ratioLow: Double?
    public var ratioHigh: Double?
    /// The interval's exact coverage (below the level asked when there are too few values).
    public var coverage: Double?
    public var pValue: Double?
    /// How the noise was measured, e.g. "10 paired workers, Wilcoxon signed-rank".
    public var method: String?
    /// `nil` when the cell is not compared, or not judged for want of values (see ``note``).
    public var verdict: Verdict?
    /// Why the cell is not compared, or what to keep in mind about it.
    public var note: String?
}

/// `bench compare`: every cell of a baseline against the same cell of a current set of runs.
///
/// Each side is one run or several (say, the interleaved runs of `scripts/ci-regression.sh`). The
/// noise is measured between worker processes when each side has enough of them — one worker per
/// cell, run and round — because on a shared machine most of the noise is between processes and
/// moments, not between iterations of one process: pairs (the *k*-th worker of each side, in the
/// order they ran) when both sides have the same number, at least ``minimumPairs``; else the two
/// sets of workers; else, with a note, the iterations themselves (fine for exact instruction counts,
/// too optimistic for times). A cell is **slower** when the ratio exceeds 1 + threshold *and* the
/// whole interval (95% unless asked otherwise) lies above 1; **faster** when the ratio is below 1 / (1 + threshold) and the
/// whole interval lies below 1.
public struct RunComparison: Codable, Sendable, Equatable {
    public var metric: ComparisonMetric
    public var threshold: Double
    public var level: Double
    public var baselineRuns: [String]
    public var currentRuns: [String]
    /// Differences in how the two sides were made (build, libraries, machine, settings).
    public var warnings: [String]
    public var cells: [CellComparison]

    /// Pairs needed to use them (the signed-rank test reaches 95% from 6).
    public static let minimumPairs = 6
    /// Workers a side needed to use them unpaired (the rank-sum test reaches 95% from 4 and 4).
    public static let minimumWorkers = 4

    /// The cells that regressed.
    public var regressions: [CellComparison] { cells.filter { $0.verdict == .slower } }

    /// The cells that were compared.
    public var compared: [CellComparison] { cells.filter { $0.verdict != nil } }

    /// Compares `current` against `baseline` (each: one run or more) on `metric`.
    ///
    /// - Parameters:
    ///   - threshold: the relative change that matters (0.05 = 5%).
    ///   - baselineParser: a parser that does no work, never compared (its times are noise around 0).
    public static func compare(
        baseline: [RunResult], current: [RunResult], metric: ComparisonMetric, threshold: Double, level: Double = 0.95,
        baselineParser: String = "null"
    ) -> RunComparison {
        let before = Side(baseline, metric: metric)
        let after = Side(current, metric: metric)
        var cells: [CellComparison] = []
        for key in Set(before.cells.keys).union(after.cells.keys).sorted() {
            let a = before.cells[key]
            let b = after.cells[key]
            var cell = CellComparison(key: key, baseline: a?.summary, current: b?.summary)
            guard let a, let b else {
                let missing = a == nil ? before : after
                cell.note = a == nil ? "only in the current runs" : "only in the baseline runs"
                if let why = missing.problems["\(key.parser)|\(key.feed)"] {
                    cell.note = (cell.note ?? "") + " (the \(a == nil ? "baseline" : "current") has: \(why))"
                }
                cells.append(cell)
                continue
            }
            if key.parser == baselineParser {
                cell.note = "the baseline parser does no parsing: not compared"
            } else if a.summary.feedSHA256 != b.summary.feedSHA256 {
                cell.note = "different feeds (SHA-256 \(a.summary.feedSHA256.prefix(12))… and \(b.summary.feedSHA256.prefix(12))…): not compared"
            } else if a.shas.count > 1 || b.shas.count > 1 {
                cell.note = "a side mixes runs on different feeds of this name: not compared"
            } else if a.workerValues.contains(where: { $0 <= 0 }) || b.workerValues.contains(where: { $0 <= 0 }) {
                cell.note = "a value is 0: no ratio"
            } else {
                compareValues(&cell, a, b, metric: metric, threshold: threshold, level: level)
            }
            cells.append(cell)
        }
        return RunComparison(
            metric: metric, threshold: threshold, level: level, baselineRuns: baseline.map(\.environment.runID),
            currentRuns: current.map(\.environment.runID), warnings: warnings(baseline, current), cells: cells)
    }

    private static func compareValues(
        _ cell: inout CellComparison, _ a: Side.Cell, _ b: Side.Cell, metric: ComparisonMetric, threshold: Double,
        level: Double
    ) {
        let shift: RankStatistics.Shift?
        if a.workerValues.count == b.workerValues.count, a.workerValues.count >= minimumPairs {
            let differences = zip(a.workerValues, b.workerValues).map { log($1) - log($0) }
            shift = RankStatistics.pairedShift(differences, level: level)
            cell.method = "\(differences.count) paired workers, Wilcoxon signed-rank"
        } else if min(a.workerValues.count, b.workerValues.count) >= minimumWorkers || metric == .peakMemory {
            shift = RankStatistics.shift(baseline: a.workerValues.map(log), current: b.workerValues.map(log), level: level)
            cell.method = "\(a.workerValues.count) vs \(b.workerValues.count) workers, Mann–Whitney"
        } else {
            shift = RankStatistics.shift(baseline: a.iterationValues.map(log), current: b.iterationValues.map(log), level: level)
            cell.method = "\(a.iterationValues.count) vs \(b.iterationValues.count) iterations, Mann–Whitney"
            if metric != .instructions {
                cell.note = "noise measured within \(a.workerValues.count == 1 && b.workerValues.count == 1 ? "one worker" : "few workers") a side only: compare \(minimumPairs) or more workers a side (--rounds, or several runs as scripts/ci-regression.sh takes)"
            }
        }
        guard let shift else { return }
        let ratio = exp(shift.estimate)
        cell.ratio = ratio
        cell.ratioLow = exp(shift.low)
        cell.ratioHigh = exp(shift.high)
        cell.coverage = shift.coverage
        cell.pValue = shift.pValue
        cell.verdict = verdict(ratio: ratio, low: exp(shift.low), high: exp(shift.high), threshold: threshold)
        if shift.coverage < level - 1e-9 {
            // No interval reaches the level: the change cannot be told from noise, whatever its size.
            cell.verdict = nil
            let note = "too few values for a \(Int((level * 100).rounded()))% interval (the range shown covers \(Int((shift.coverage * 100).rounded(.down)))%): "
                + "not judged; use 4 or more iterations or workers a side"
            cell.note = cell.note.map { $0 + "; " + note } ?? note
        }
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
                warnings.append("different \(name): \(a.sorted().joined(separator: ", ")) (baseline) and \(b.sorted().joined(separator: ", ")) (current)")
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
        }
        return warnings
    }

    /// One side's values per cell.
    struct Side {
        struct Cell {
            var summary: ComparisonSide
            /// The median of each worker's values, in the order the workers ran.
            var workerValues: [Double]
            /// Every successful iteration's value.
            var iterationValues: [Double]
            var shas: Set<String>
        }

        var cells: [ComparisonKey: Cell] = [:]
        /// What went wrong with a parser on a feed ("parser|feed name"), from the runs' summaries.
        var problems: [String: String] = [:]

        init(_ runs: [RunResult], metric: ComparisonMetric) {
            struct Worker {
                var started: String
                var round: Int
                var values: [Double]
            }
            var workers: [ComparisonKey: [String: Worker]] = [:]
            var shas: [ComparisonKey: Set<String>] = [:]
            for run in runs {
                for summary in run.cells {
                    guard let outcome = summary.outcome else { continue }
                    problems["\(summary.cell.parser)|\(ComparisonKey(summary.cell).feed)"] = outcome
                }
                for sample in run.samples where sample.error == nil {
                    guard let value = metric.value(sample) else { continue }
                    let key = ComparisonKey(sample.cell)
                    let id = "\(run.environment.runID)#\(sample.round)"
                    workers[key, default: [:]][id, default: Worker(started: run.environment.startedAt, round: sample.round, values: [])]
                        .values.append(value)
                    shas[key, default: []].insert(sample.cell.feedSHA256)
                }
            }
            for (key, byWorker) in workers {
                let ordered = byWorker.values.sorted { ($0.started, $0.round) < ($1.started, $1.round) }
                // Peak memory is one value per worker, repeated on its samples.
                let perWorker = ordered.compactMap { Statistics($0.values)?.median }
                let all = metric == .peakMemory ? perWorker : ordered.flatMap(\.values)
                guard let median = Statistics(all)?.median else { continue }
                let keyShas = shas[key] ?? []
                cells[key] = Cell(
                    summary: ComparisonSide(
                        median: median, iterations: ordered.reduce(0) { $0 + $1.values.count }, workers: perWorker.count,
                        feedSHA256: keyShas.sorted().joined(separator: ",")),
                    workerValues: perWorker, iterationValues: all, shas: keyShas)
            }
        }
    }
}
