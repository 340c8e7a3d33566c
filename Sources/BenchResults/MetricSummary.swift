/// One metric of one cell of one run, as the stats store keeps it beside the run's samples: the
/// statistics of the values that count (``Metric/counted(_:)``, the rule of the run's own
/// summary) and each worker's median, by round.
///
/// Kept by metric, one row per run, cell and metric, so that a metric added later needs no new
/// column. History, report and the HTML history read these instead of every raw sample.
public struct MetricSummary: Codable, Sendable, Equatable {
    public var metric: Metric
    /// The statistics of the cell's values of ``metric`` (its median is the run's figure in `bench history`).
    public var statistics: Statistics
    /// Each worker's median of the clean values, by round (``WorkerValues/medians(_:_:)``).
    public var workerMedians: [Int: Double]

    public init(metric: Metric, statistics: Statistics, workerMedians: [Int: Double]) {
        self.metric = metric
        self.statistics = statistics
        self.workerMedians = workerMedians
    }

    /// The summaries of every stored metric that one cell's samples have a value of, in
    /// ``Metric/stored`` order.
    public static func of(_ samples: [Sample]) -> [MetricSummary] {
        Metric.stored.compactMap { metric in
            guard let statistics = Statistics(metric.counted(samples)) else { return nil }
            return MetricSummary(
                metric: metric, statistics: statistics,
                workerMedians: WorkerValues.medians(samples) { metric.value($0) })
        }
    }
}

/// What a stats store keeps of one cell of a run: the cell's summary as the run made it (what
/// its own table shows: figures, interval, ranking, verdict or why it was not timed), and the
/// summaries of its metrics.
public struct CellRecord: Sendable, Equatable {
    public var summary: CellSummary
    public var metrics: [MetricSummary]

    public init(summary: CellSummary, metrics: [MetricSummary]) {
        self.summary = summary
        self.metrics = metrics
    }

    /// The records of a run's `cells` (its summaries, in their order), each with the metrics of
    /// its samples among `samples`.
    public static func of(_ cells: [CellSummary], samples: [Sample]) -> [CellRecord] {
        let byCell = Dictionary(grouping: samples, by: \.cell)
        return cells.map { CellRecord(summary: $0, metrics: MetricSummary.of(byCell[$0.cell] ?? [])) }
    }
}

/// A metric summary read back from the stats store, with its cell and its run.
public struct StoredMetricSummary: Sendable, Equatable {
    public var runID: String
    public var runStartedAt: String
    public var cell: CellKey
    public var summary: MetricSummary
    /// Whether its run was found noisy (`nil`: not known, or the run has not ended).
    public var runNoisy: Bool?
    /// Whether its run finished.
    public var runComplete: Bool?
    /// The commit its run's build was made from.
    public var runGitCommit: String?
    /// Whether its run measured again the parses that lost the CPU (`nil`: not known).
    public var runRetriesPreempted: Bool?
    /// The machine its run ran on.
    public var machine: Machine?
    /// The iterations of its cell in its run that failed.
    public var cellFailed: Int?

    public init(runID: String, runStartedAt: String, cell: CellKey, summary: MetricSummary) {
        self.runID = runID
        self.runStartedAt = runStartedAt
        self.cell = cell
        self.summary = summary
    }
}
