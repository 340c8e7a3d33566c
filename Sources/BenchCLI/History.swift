import ArgumentParser
import BenchReports
import BenchResults
import Foundation
import StatsStore

/// `bench history`: where each cell's figure shifted, run after run, in the stats store.
struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find where each parser's figure shifted across the stored runs (change points).",
        discussion: """
            For each machine and cell (parser, scenario, feed, chunk size, network profile), the series of \
            its runs' medians (read from the summaries stored with each run, not from raw samples), oldest first, searched with E-Divisive means: a change is kept when a \
            permutation test on the series itself says it is not noise (p below --significance), so every \
            cell is judged against its own noise, not a fixed percentage. Each change says the run and commit \
            where the new level starts, the one before it, and the shift with its 95% interval. The default \
            metric, calibrated (each run's time, the median of its workers' medians as its table gives it, ÷ the median over the run's workers of the \
            calibration workload timed before every parse), does not move with the host's speed state; wall time does. \
            The finished cells of runs that did not finish (interrupted) are in the series, and counted under the \
            table, unless --exclude-incomplete. SQLite or PostgreSQL (--store).
            """)

    @OptionGroup var parserOptions: ParserOptions

    @OptionGroup var cells: CellSelection

    @Option(help: "The figure: \(ComparisonMetric.allCases.map(\.rawValue).joined(separator: ", ")).")
    var metric: ComparisonMetric = .calibrated

    @Option(help: "The p-value below which a shift is kept.")
    var significance: Double = 0.01

    @Option(
        name: .customLong("newest-runs"),
        help:
            "Search each series' newest runs only (the search's time grows with the square of a series' length; the report says when a series is longer)."
    )
    var newestRuns: Int = ChangePoints.defaultNewestRuns

    @OptionGroup var inclusion: RunInclusion

    @Option(help: "What to print.")
    var format: HistoryFormat = .table

    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        guard significance > 0 && significance < 0.5 else {
            throw ValidationError("--significance is a p-value between 0 and 0.5 (e.g. 0.01)")
        }
        let fewest = 2 * ChangePoints().minimumSegment
        guard newestRuns >= fewest else {
            throw ValidationError("--newest-runs must be at least \(fewest) (a change needs runs on either side)")
        }
    }

    func run() throws {
        let database = try storeOptions.open(mustExist: true, readOnly: true)
        // Calibrated time divides by the calibration of every worker in a run, whatever its parser.
        let calibrated = metric == .calibrated
        let filter = SampleFilter(
            parsers: calibrated ? [] : parserOptions.names, scenarios: cells.scenarioNames, feed: cells.feed,
            includeGateTests: inclusion.includeGateTests, excludeIncomplete: inclusion.excludeIncomplete,
            hosts: cells.hostNames)
        let method = ChangePoints(significance: significance, newestRuns: newestRuns)
        // The runs' stored summaries, not their samples: one row per run, cell and metric.
        let metrics: [Metric] = calibrated ? [.wallNs, .calibrationNs] : [metric.metric]
        var runs: [RunFigures] = []
        try database.forEachRunFigures(
            matching: filter, metrics: metrics, workerMedians: RunSeries.workerMetrics(metric.metric)
        ) { runs.append($0) }
        let series = RunSeries.series(runs: runs, metric: metric.metric, parsers: Set(parserOptions.names)).map {
            $0.findingShifts(method)
        }
        if series.isEmpty {
            // Whether the selection has runs at all, of any figure: the error says which is missing.
            var selected = filter
            selected.parsers = parserOptions.names
            func count(_ filter: SampleFilter) throws -> Int {
                var matching = 0
                try database.forEachRunFigures(
                    matching: filter, metrics: HistoryRow.summarisedMetrics + [.calibrationNs], workerMedians: []
                ) { _ in matching += 1 }
                return matching
            }
            let matching = try count(selected)
            selected.includeDebug = true
            throw CommandFailure(
                description: Self.nothingToSearch(
                    runs: matching, debugRuns: matching > 0 ? 0 : try count(selected), metric: metric))
        }
        // The runs searched that did not finish: said under the table, not silently in it.
        let searched = Set(series.flatMap { $0.points[($0.searchedFrom ?? 0)...].map(\.runID) })
        let incomplete = runs.filter { searched.contains($0.runID) && $0.complete == false }.count
        let note =
            incomplete == 0
            ? ""
            : "\(incomplete) of the \(searched.count) runs searched did not finish (interrupted, failed, or still "
                + "running): their finished cells are in the series; --exclude-incomplete leaves them out.\n"
        switch format {
        case .markdown: print(ChangeReport.markdown(series, method: method) + note, terminator: "")
        case .json: print(try ChangeReport.json(series, method: method), terminator: "")
        case .table:
            let width = Terminal(quiet: true).width
            print(
                ChangeReport.table(series, method: method, width: width)
                    + (note.isEmpty ? "" : "\n" + Format.wrap(String(note.dropLast()), width: width) + "\n"),
                terminator: "")
        }
    }

    /// Why there is no series to search: no stored run has a cell of the selection, or those that
    /// do have no figure of `metric` (download and practice cells time no calibration).
    ///
    /// - Parameters:
    ///   - runs: how many stored runs have a cell of the selection, of any figure.
    ///   - debugRuns: how many of debug builds have one, when no other does (history leaves them out).
    ///   - metric: the figure asked for.
    /// - Returns: the error's words.
    static func nothingToSearch(runs: Int, debugRuns: Int = 0, metric: ComparisonMetric) -> String {
        guard runs > 0 else {
            guard debugRuns == 0 else {
                return "only runs of debug builds have a cell of that selection (\(debugRuns)), and bench history "
                    + "leaves them out: a debug build's times are not a release build's"
            }
            return "no stored run has a cell of that selection (bench report shows what the store holds)"
        }
        let what =
            runs == 1 ? "the 1 stored run of that selection has" : "the \(runs) stored runs of that selection have"
        guard metric == .calibrated else { return "\(what) no \(metric.rawValue) figures" }
        return "\(what) no calibrated time: only parse cells time the calibration workload "
            + "(download and practice cells do not, and runs made before it was added); --metric wall searches their "
            + "wall time"
    }
}
