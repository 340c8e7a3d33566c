import Foundation

/// One cell's figure run after run on one machine, and where it shifted (`bench history`).
///
/// A point is the run's own figure: for wall time, the median of its workers' medians (its
/// table's time); for the others, its median of the metric over its clean samples; for calibrated
/// time, the run's time ÷ the median of every calibration figure the run timed on the same document in
/// the same scenario (all its workers, of every parser): a worker's own calibration moves with where its process
/// landed in memory as much as with the host, and dividing each parse by it made a quiet history
/// 3× noisier than wall time, while the median over a whole run's workers follows only the host's
/// speed state. The series is per host and per
/// cell (parser, scenario, feed by digest, chunk size, network profile); the changes are
/// ``ChangePoints``' on the logarithms of the points (a shift is a ratio), each with the ratio of the
/// runs after it to the runs before it (up to the neighbouring changes: Hodges–Lehmann, with its 95%
/// Mann–Whitney interval).
public struct RunSeries: Sendable, Codable, Equatable {
    /// One run's figure.
    public struct Point: Sendable, Codable, Equatable {
        public var runID: String
        public var startedAt: String
        public var commit: String?
        public var value: Double
        /// `true` when the run did not finish (interrupted, failed, or still running): its value is
        /// from the cells it finished; absent for a run that finished.
        public var incomplete: Bool?

        init(runID: String, startedAt: String, commit: String?, value: Double, complete: Bool?) {
            self.runID = runID
            self.startedAt = startedAt
            self.commit = commit
            self.value = value
            incomplete = complete == false ? true : nil
        }
    }

    /// A shift of the series.
    public struct Shift: Sendable, Codable, Equatable {
        /// The first run at the new level.
        public var index: Int
        public var runID: String
        public var startedAt: String
        public var commit: String?
        /// The last run at the old level (its commit is the last one before the change).
        public var previousRunID: String
        public var previousCommit: String?
        /// The runs after ÷ the runs before: estimate and 95% interval.
        public var ratio: Double
        public var low: Double
        public var high: Double
        /// The permutation test's p-value.
        public var pValue: Double
        /// The runs in the segments compared.
        public var runsBefore: Int
        public var runsAfter: Int
    }

    public var host: String
    public var parser: String
    public var scenario: CellScenario
    public var feedPath: String
    public var feedSHA256: String
    public var chunkSize: Int
    public var network: String
    public var metric: Metric
    public var points: [Point]
    public var shifts: [Shift] = []
    /// The index of the first point searched for shifts, when the series is longer than the runs
    /// searched (``ChangePoints/newestRuns``); `nil` when every point was.
    public var searchedFrom: Int?

    /// The series of `metric` in `stored`, oldest run first: one per host and cell with at least one
    /// run that has the metric.
    ///
    /// - Parameters:
    ///   - stored: the samples of the runs, of every parser when `metric` is calibrated time (its
    ///     runs' calibration is taken over all their workers).
    ///   - metric: the figure.
    ///   - parsers: the parsers whose series to give; empty for all.
    /// - Returns: the series, in the order their cells first appear.
    public static func series(_ stored: [StoredSample], metric: Metric, parsers: Set<String> = []) -> [RunSeries] {
        struct Run {
            var startedAt: String
            var commit: String?
            var complete: Bool?
            /// The values by worker (its round), for a time; all under round 0 for the others.
            var values: [Int: [Double]] = [:]
        }
        let calibrated = metric == .calibratedTime
        let runCalibration = calibrated ? Self.runCalibrations(stored) : [:]
        // A run's time (and a practice's total) is the median of its workers' medians, as its
        // table gives it.
        let figure: Metric = calibrated ? .wallNs : metric
        var order: [SeriesKey] = []
        var groups: [SeriesKey: (feedPath: String, runs: [String: Run])] = [:]
        for item in stored {
            let cell = item.sample.cell
            guard cell.scenario != .notTimed, parsers.isEmpty || parsers.contains(cell.parser) else { continue }
            let key = SeriesKey(cell, host: item.machine?.host ?? "")
            if groups[key] == nil {
                order.append(key)
                groups[key] = (cell.feedPath, [:])
            }
            let clean = metric.isTime ? item.sample.isClean : item.sample.error == nil
            guard clean, let value = calibrated ? item.sample.wallNs.map(Double.init) : metric.value(item.sample),
                value > 0, !calibrated || item.sample.calibrationNs != nil
            else { continue }
            let run = Run(startedAt: item.runStartedAt, commit: item.runGitCommit, complete: item.runComplete)
            groups[key]?.runs[item.runID, default: run]
                .values[RunFigures.isOfWorkers(figure, in: cell) ? item.sample.round : 0, default: []].append(value)
        }
        return order.compactMap { key in
            guard let group = groups[key], !group.runs.isEmpty else { return nil }
            let points = group.runs.compactMap { id, run -> Point? in
                let medians = run.values.values.map { Statistics.percentile(sorted: $0.sorted(), 0.5) }
                var value = Statistics.percentile(sorted: medians.sorted(), 0.5)
                if calibrated {
                    guard let calibration = runCalibration[Self.calibrationKey(id, key.feedSHA256, key.scenario)] else {
                        return nil
                    }
                    value /= calibration
                }
                return Point(
                    runID: id, startedAt: run.startedAt, commit: run.commit, value: value, complete: run.complete)
            }.sorted { ($0.startedAt, $0.runID) < ($1.startedAt, $1.runID) }
            guard !points.isEmpty else { return nil }
            return RunSeries(
                host: key.host, parser: key.parser, scenario: key.scenario, feedPath: group.feedPath,
                feedSHA256: key.feedSHA256, chunkSize: key.chunkSize, network: key.network, metric: metric,
                points: points)
        }
    }

    /// The series of `metric` from the runs' stored summaries (``MetricSummary``), oldest run first:
    /// as ``series(_:metric:parsers:)`` makes them from samples, without reading a sample.
    ///
    /// A point is the run's own figure (``RunFigures/Figure/runFigure(of:)``: for time, the median of its
    /// workers' medians). For calibrated time, the run's time ÷ the median of the calibration
    /// medians of every worker of the run on the same document and scenario (whatever its parser):
    /// the summaries keep each worker's median, not each parse's figure, so the divisor is the median
    /// over the run's workers rather than over its parses (the same within a worker's spread).
    ///
    /// - Parameters:
    ///   - stored: the summaries of `metric` (for calibrated time: of wall time and calibration,
    ///     of every parser).
    ///   - metric: the figure.
    ///   - parsers: the parsers whose series to give; empty for all.
    /// - Returns: the series, in the order their cells first appear.
    public static func series(
        summaries stored: [StoredMetricSummary], metric: Metric, parsers: Set<String> = []
    ) -> [RunSeries] {
        series(runs: RunFigures.runs(stored), metric: metric, parsers: parsers)
    }

    /// The metrics whose workers' medians ``series(runs:metric:parsers:)`` takes for `metric`'s
    /// series: calibration's, for calibrated time; wall time's, for wall and calibrated time (a
    /// run's time, ``RunFigures/Figure/runFigure(of:)``).
    public static func workerMetrics(_ metric: Metric) -> Set<Metric> {
        let figure: Metric = metric == .calibratedTime ? .wallNs : metric
        let divisor: Set<Metric> = metric == .calibratedTime ? [.calibrationNs] : []
        return divisor.union(RunFigures.workerMediansOfRunFigures.intersection([figure]))
    }

    /// The series of `metric` from the runs' figures (``RunFigures``, as a store reads them for a
    /// report), as ``series(summaries:metric:parsers:)`` makes them (the workers' medians it reads
    /// are those of ``workerMetrics(_:)``).
    public static func series(runs: [RunFigures], metric: Metric, parsers: Set<String> = []) -> [RunSeries] {
        let calibrated = metric == .calibratedTime
        let figure: Metric = calibrated ? .wallNs : metric
        var order: [SeriesKey] = []
        var groups: [SeriesKey: (feedPath: String, points: [Point])] = [:]
        for run in runs {
            // The run's calibration medians by document and scenario, of every parser.
            var calibrations: [String: [Double]] = [:]
            if calibrated {
                for cell in run.cells {
                    for item in cell.figures where item.metric == .calibrationNs {
                        calibrations[
                            calibrationKey(run.runID, cell.cell.feedSHA256, cell.cell.scenario), default: []] +=
                            item.workerMedians.filter { $0 > 0 }
                    }
                }
            }
            for cell in run.cells {
                let key = cell.cell
                guard key.scenario != .notTimed, parsers.isEmpty || parsers.contains(key.parser) else { continue }
                for item in cell.figures where item.metric == figure {
                    let seriesKey = SeriesKey(key, host: run.machine?.host ?? "")
                    if groups[seriesKey] == nil {
                        order.append(seriesKey)
                        groups[seriesKey] = (key.feedPath, [])
                    }
                    var value = item.runFigure(of: key)
                    if calibrated {
                        let divisors = calibrations[calibrationKey(run.runID, key.feedSHA256, key.scenario)] ?? []
                        guard !divisors.isEmpty else { continue }
                        value /= Statistics.percentile(sorted: divisors.sorted(), 0.5)
                    }
                    guard value > 0 else { continue }
                    groups[seriesKey]?.points.append(
                        Point(
                            runID: run.runID, startedAt: run.startedAt, commit: run.gitCommit, value: value,
                            complete: run.complete))
                }
            }
        }
        return order.compactMap { key in
            guard let group = groups[key], !group.points.isEmpty else { return nil }
            return RunSeries(
                host: key.host, parser: key.parser, scenario: key.scenario, feedPath: group.feedPath,
                feedSHA256: key.feedSHA256, chunkSize: key.chunkSize, network: key.network, metric: metric,
                points: group.points.sorted { ($0.startedAt, $0.runID) < ($1.startedAt, $1.runID) })
        }
    }

    /// Each run's median calibration figure per document and scenario, over the clean samples of
    /// all its parsers (``calibrationKey(_:_:_:)``).
    private static func runCalibrations(_ stored: [StoredSample]) -> [String: Double] {
        var figures: [String: [Double]] = [:]
        for item in stored where item.sample.isClean {
            guard let calibration = item.sample.calibrationNs, calibration > 0 else { continue }
            let cell = item.sample.cell
            figures[calibrationKey(item.runID, cell.feedSHA256, cell.scenario), default: []].append(Double(calibration))
        }
        return figures.mapValues { Statistics.percentile(sorted: $0.sorted(), 0.5) }
    }

    /// What a series follows: one host's cell (parser, feed, network profile, scenario, chunk size).
    private struct SeriesKey: Hashable {
        var host, parser, feedSHA256, network: String
        var scenario: CellScenario
        var chunkSize: Int

        init(_ cell: CellKey, host: String) {
            self.host = host
            parser = cell.parser
            feedSHA256 = cell.feedSHA256
            network = cell.network
            scenario = cell.scenario
            chunkSize = cell.chunkSize
        }
    }

    private static func calibrationKey(_ runID: String, _ feedSHA256: String, _ scenario: CellScenario) -> String {
        runID + "\u{0}" + feedSHA256 + "\u{0}" + scenario.description
    }

    /// The series with its shifts found by `method`.
    public func findingShifts(_ method: ChangePoints = ChangePoints()) -> RunSeries {
        var result = self
        let logs = points.map { Foundation.log($0.value) }
        // The newest runs only: the search's cost grows with the square of the series' length.
        let from = max(0, points.count - method.newestRuns)
        result.searchedFrom = from > 0 ? from : nil
        let changes = method.changes(Array(logs[from...])).map {
            ChangePoints.Change(index: $0.index + from, pValue: $0.pValue)
        }
        let bounds = [from] + changes.map(\.index) + [points.count]
        result.shifts = changes.enumerated().compactMap { position, change in
            let before = Array(logs[bounds[position]..<change.index])
            let after = Array(logs[change.index..<bounds[position + 2]])
            guard let shift = RankStatistics.shift(baseline: before, current: after) else { return nil }
            let first = points[change.index]
            let previous = points[change.index - 1]
            return Shift(
                index: change.index, runID: first.runID, startedAt: first.startedAt, commit: first.commit,
                previousRunID: previous.runID, previousCommit: previous.commit, ratio: Foundation.exp(shift.estimate),
                low: Foundation.exp(shift.low), high: Foundation.exp(shift.high), pValue: change.pValue,
                runsBefore: before.count, runsAfter: after.count)
        }
        return result
    }
}
