/// One stored run as `bench report` reads it: the run's facts once, and for each of its cells the
/// figures its summaries keep (``MetricSummary``) that a report over many runs uses: each metric's
/// count, the run's median, and its workers' medians.
///
/// What ``StoredMetricSummary`` repeats on every row (the run, its machine, the cell) is here once
/// a run and once a cell, and the statistics a report does not use are not read at all: a store of
/// 10,000 runs holds over 400,000 such rows.
public struct RunFigures: Sendable, Equatable {
    public var runID: String
    public var startedAt: String
    /// Whether the run was found noisy (`nil`: not known, or the run has not ended).
    public var noisy: Bool?
    /// Whether the run finished.
    public var complete: Bool?
    /// The commit the run's build was made from.
    public var gitCommit: String?
    /// Whether the run measured again the parses that lost the CPU (`nil`: not known).
    public var retriesPreempted: Bool?
    /// The machine the run ran on.
    public var machine: Machine?
    /// Its cells with at least one figure, in the run's order.
    public var cells: [Cell]

    public init(
        runID: String, startedAt: String, noisy: Bool? = nil, complete: Bool? = nil, gitCommit: String? = nil,
        retriesPreempted: Bool? = nil, machine: Machine? = nil, cells: [Cell] = []
    ) {
        self.runID = runID
        self.startedAt = startedAt
        self.noisy = noisy
        self.complete = complete
        self.gitCommit = gitCommit
        self.retriesPreempted = retriesPreempted
        self.machine = machine
        self.cells = cells
    }

    /// One cell of the run and its figures.
    public struct Cell: Sendable, Equatable {
        public var cell: CellKey
        /// The iterations of the cell that failed (`nil`: not known).
        public var failed: Int?
        /// The songs of the cell's feed (`nil`: not read).
        public var songs: Int?
        public var figures: [Figure]

        public init(cell: CellKey, failed: Int?, songs: Int? = nil, figures: [Figure]) {
            self.cell = cell
            self.failed = failed
            self.songs = songs
            self.figures = figures
        }
    }

    /// What a report uses of one ``MetricSummary``.
    public struct Figure: Sendable, Equatable {
        public var metric: Metric
        /// The values behind the run's figure (``Statistics/count``).
        public var count: Int
        /// The median of the cell's counted values, pooled over its workers.
        public var median: Double
        /// The largest of them (`nil`: not read).
        public var maximum: Double?
        /// Each worker's median, in the order of their rounds (empty when not read).
        public var workerMedians: [Double]

        /// The run's figure of `cell`, as the run's own tables give it: for wall time (the
        /// headline time, `CellSummary.time`) and a practice's total (its headline,
        /// `CellSummary.totalEstimate`), the median of the workers' medians, when they were read
        /// (``RunFigures/workerMediansOfRunFigures``); for a metric whose cell figure is the
        /// largest value (``Metric/CellFigure/maximum``), ``maximum`` when it was read; for the
        /// others, ``median``.
        ///
        /// - Parameter cell: the cell the figure is of.
        /// - Returns: the figure, in the metric's unit.
        public func runFigure(of cell: CellKey) -> Double {
            if metric.traits.cellFigure == .maximum { return maximum ?? median }
            guard RunFigures.isOfWorkers(metric, in: cell), !workerMedians.isEmpty else { return median }
            return Statistics.percentile(sorted: workerMedians.sorted(), 0.5)
        }

        public init(metric: Metric, count: Int, median: Double, maximum: Double? = nil, workerMedians: [Double]) {
            self.metric = metric
            self.count = count
            self.median = median
            self.maximum = maximum
            self.workerMedians = workerMedians
        }

        public init(_ summary: MetricSummary) {
            self.init(
                metric: summary.metric, count: summary.statistics.count, median: summary.statistics.median,
                maximum: summary.statistics.max,
                workerMedians: summary.workerMedians.sorted { $0.key < $1.key }.map(\.value))
        }
    }

    /// The metrics a run's page draws from its stored history: parse time (the history chart),
    /// the first song (its chart) and calibration (the calibrated time of the change points).
    public static let pageMetrics: [Metric] = [.wallNs, .firstSongNs, .calibrationNs]
    /// The metrics of ``pageMetrics`` whose workers' medians the page takes: calibration's (the
    /// change points' divisor, ``RunSeries/workerMetrics(_:)``).
    public static let pageWorkerMedians: Set<Metric> = RunSeries.workerMetrics(.calibratedTime)

    /// The metrics whose workers' medians make a run's figure (``Figure/runFigure(of:)``): wall
    /// time's, and total time's (a practice's headline).
    ///
    /// A reader of ``Figure/runFigure(of:)`` asks for them, or gets the pooled median.
    public static let workerMediansOfRunFigures: Set<Metric> = [.wallNs, .totalNs]

    /// Whether a run's figure of `metric` in `cell` is the median of its workers' medians, as its
    /// tables give it: wall time (the headline time), and a practice's total (its headline); the
    /// others are the run's median of the cell's counted values.
    ///
    /// - Parameters:
    ///   - metric: the figure's metric (wall time for calibrated time, its numerator).
    ///   - cell: the cell it is of.
    /// - Returns: `true` for a figure of the workers' medians.
    public static func isOfWorkers(_ metric: Metric, in cell: CellKey) -> Bool {
        metric == .wallNs || (metric == .totalNs && cell.scenario.table == .practice)
    }

    /// A run's own figures of `metrics` as a store would keep them (``MetricSummary/of(_:)`` of
    /// each cell's samples; the workers' medians of `workerMedians` only), for a page that draws a
    /// run the store did not record (`--no-store`, a store that failed).
    public init(_ result: RunResult, metrics: [Metric], workerMedians: Set<Metric>) {
        let environment = result.environment
        self.init(
            runID: environment.runID, startedAt: environment.startedAt, noisy: result.noise?.noisy,
            gitCommit: environment.gitCommit, retriesPreempted: result.settings.retryPreempted,
            machine: Machine(environment))
        let wanted = Set(metrics)
        cells = CellRecord.of(result.cells, samples: result.samples).compactMap { record in
            let figures = record.metrics.filter { wanted.contains($0.metric) }.map { summary in
                var figure = Figure(summary)
                if !workerMedians.contains(summary.metric) { figure.workerMedians = [] }
                return figure
            }
            return figures.isEmpty
                ? nil
                : Cell(
                    cell: record.summary.cell, failed: record.summary.failed, songs: record.summary.songs,
                    figures: figures)
        }
    }

    /// The runs of `stored` (one run's summaries one after another, as a store gives them), each
    /// cell with every summary of the run that names it.
    public static func runs(_ stored: [StoredMetricSummary]) -> [RunFigures] {
        var runs: [RunFigures] = []
        for item in stored {
            if runs.last?.runID != item.runID {
                runs.append(
                    RunFigures(
                        runID: item.runID, startedAt: item.runStartedAt, noisy: item.runNoisy,
                        complete: item.runComplete, gitCommit: item.runGitCommit,
                        retriesPreempted: item.runRetriesPreempted, machine: item.machine))
            }
            let last = runs.count - 1
            // A run has a few cells: found by a look along them.
            if let index = runs[last].cells.lastIndex(where: { $0.cell == item.cell }) {
                runs[last].cells[index].figures.append(Figure(item.summary))
            } else {
                runs[last].cells.append(Cell(cell: item.cell, failed: item.cellFailed, figures: [Figure(item.summary)]))
            }
        }
        return runs
    }
}
