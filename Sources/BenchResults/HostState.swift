#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One earlier run's calibration figures on one document, as the store keeps them (every parse's
/// ``Sample/calibrationNs``).
public struct RunCalibration: Sendable, Equatable {
    public var runID: String
    public var startedAt: String
    /// The document the calibration workload scanned (its first 64 KiB): figures compare only on
    /// the same bytes.
    public var feedSHA256: String
    public var calibrationNs: [Int]

    public init(runID: String, startedAt: String, feedSHA256: String, calibrationNs: [Int]) {
        self.runID = runID
        self.startedAt = startedAt
        self.feedSHA256 = feedSHA256
        self.calibrationNs = calibrationNs
    }
}

/// Whether the host ran as it usually does: this run's calibration workload (timed before every
/// parse, ``Sample/calibrationNs``) against the same host's earlier runs in the store.
///
/// A shared host holds a speed state for many seconds; a whole run can sit in a slow one, every
/// parser alike, with workers that agree. The noise report cannot see that from inside the run;
/// the history can. The run's figure is the median of its calibrations on each document, the
/// history's the median over its runs of theirs; the run has moved when the two differ by more
/// than the history's own spread — three robust standard deviations of the logarithms of its runs'
/// medians (1.4826 × their median absolute deviation), at least ``minimumThreshold`` — or, with
/// fewer than ``minimumHistory`` earlier runs, by more than ``littleHistoryThreshold``.
public struct HostState: Codable, Sendable, Equatable {
    /// The host as the runs record it.
    public var host: String
    /// This run's median calibration, ns (on the document with the most history).
    public var calibrationNs: Double?
    /// The median of the earlier runs' medians on that document, ns; `nil` with no history.
    public var usualNs: Double?
    /// Earlier runs of this host compared (on that document).
    public var historyRuns: Int
    /// This run's calibration over the usual one, the median over its documents: above 1, the
    /// machine ran slower than usual.
    public var ratio: Double?
    /// How far the ratio may stray from 1 before the run is said to have moved (relative).
    public var threshold: Double
    /// Whether this run's host state differs from its usual by more than ``threshold``.
    public var moved: Bool
    /// One sentence for every report.
    public var message: String

    /// The newest earlier runs of the host that make its history.
    public static let historyRuns = 30
    /// Earlier runs from which the history's own spread is used.
    public static let minimumHistory = 5

    /// Whether ``threshold`` is the history's own spread (`true`) or the fixed one for little history.
    public var fromHistorySpread: Bool { historyRuns >= Self.minimumHistory }
    /// The threshold with fewer than ``minimumHistory`` earlier runs.
    public static let littleHistoryThreshold = 0.10
    /// The smallest threshold, however steady the history.
    public static let minimumThreshold = 0.05

    public init(
        host: String, calibrationNs: Double?, usualNs: Double?, historyRuns: Int, ratio: Double?, threshold: Double,
        moved: Bool, message: String
    ) {
        self.host = host
        self.calibrationNs = calibrationNs
        self.usualNs = usualNs
        self.historyRuns = historyRuns
        self.ratio = ratio
        self.threshold = threshold
        self.moved = moved
        self.message = message
    }

    /// The state of a run whose history could not be read: it says why.
    public static func unknown(host: String, because reason: String) -> HostState {
        HostState(
            host: host, calibrationNs: nil, usualNs: nil, historyRuns: 0, ratio: nil, threshold: littleHistoryThreshold,
            moved: false, message: "Host state not compared: \(reason).")
    }

    /// Compares `run`'s calibrations with the same host's earlier runs.
    ///
    /// - Parameters:
    ///   - run: the run just made (its samples carry their calibration).
    ///   - history: the earlier runs' calibrations (any host's runs other than `run`'s are ignored
    ///     by the caller's query; runs of other documents are matched by digest).
    /// - Returns: the comparison, with its sentence.
    public static func assess(_ run: RunResult, history: [RunCalibration]) -> HostState {
        let host = run.environment.host
        if run.environment.isDebug {
            return unknown(
                host: host, because: "a debug build's calibration is not comparable with the release runs' history")
        }
        var mine: [String: [Double]] = [:]
        for sample in run.samples {
            if let ns = sample.calibrationNs, ns > 0 { mine[sample.cell.feedSHA256, default: []].append(Double(ns)) }
        }
        guard !mine.isEmpty else {
            return unknown(
                host: host, because: "this run timed no calibration (no parse cells, or counted instructions)")
        }
        // Per document: this run's median, and each earlier run's.
        var earlier: [String: [String: [Double]]] = [:]
        for record in history where record.runID != run.environment.runID && mine[record.feedSHA256] != nil {
            earlier[record.feedSHA256, default: [:]][record.runID, default: []] += record.calibrationNs.filter {
                $0 > 0
            }
            .map(Double.init)
        }
        var ratios: [Double] = []
        var main: (feed: String, runs: [Double])?
        for (feed, values) in mine {
            let runs = (earlier[feed] ?? [:]).values.compactMap { median($0) }
            guard let now = median(values), let usual = median(runs) else { continue }
            ratios.append(now / usual)
            if runs.count > main?.runs.count ?? 0 { main = (feed, runs) }
        }
        let largest = mine.max { $0.value.count < $1.value.count }?.key ?? ""
        let feed = main?.feed ?? largest
        let calibration = median(mine[feed] ?? [])
        guard let main, let ratio = median(ratios), let usual = median(main.runs), let calibration else {
            return HostState(
                host: host, calibrationNs: calibration, usualNs: nil, historyRuns: 0, ratio: nil,
                threshold: littleHistoryThreshold, moved: false,
                message:
                    "Host state: no earlier run of \(host) on these documents in the store, so nothing to say whether this machine ran "
                    + "as usual (calibration \(micro(calibration)) µs); the next runs will have this one to compare with."
            )
        }
        let n = main.runs.count
        let fromSpread = n >= minimumHistory
        var threshold = littleHistoryThreshold
        if fromSpread {
            let logs = main.runs.map { log($0 / usual) }
            let mad = median(logs.map { abs($0) }) ?? 0
            threshold = max(exp(3 * 1.4826 * mad) - 1, minimumThreshold)
        }
        let moved = abs(log(ratio)) > log(1 + threshold)
        let against =
            "calibration \(micro(calibration)) µs against a median of \(micro(usual)) µs over \(n) run\(n == 1 ? "" : "s")"
        let limit =
            fromSpread
            ? "its history's spread of ±\(percent(threshold))"
            : "±\(percent(threshold)), with fewer than \(minimumHistory) earlier runs to learn its spread from"
        let message: String
        if moved {
            let size = ratio >= 1 ? "\(times(ratio)) slower" : "\(times(1 / ratio)) faster"
            message =
                "HOST STATE: this run's machine ran \(size) than its usual (\(against); beyond \(limit)): its absolute "
                + "times are not comparable with other runs' — ratios between parsers of this run still are."
        } else {
            message = "Host state as usual: \(against), within \(limit)."
        }
        return HostState(
            host: host, calibrationNs: calibration, usualNs: usual, historyRuns: n, ratio: ratio, threshold: threshold,
            moved: moved, message: message)
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        return Statistics.percentile(sorted: values.sorted(), 0.5)
    }

    static func micro(_ ns: Double?) -> String {
        guard let ns else { return "?" }
        return ns >= 100_000 ? String(Int((ns / 1_000).rounded())) : NoiseReport.fixed(ns / 1_000, 1)
    }

    static func percent(_ value: Double) -> String {
        let rounded = Int((value * 100).rounded())
        return rounded >= 1 ? "\(rounded)%" : "\(NoiseReport.fixed(value * 100, 1))%"
    }

    static func times(_ value: Double) -> String { NoiseReport.fixed(value, 2) + "×" }
}
