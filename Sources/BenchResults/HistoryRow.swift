/// One row of `bench report`: the averages of one parser on one scenario, feed, chunk size and
/// network profile across the stored runs, like the original study's statistics screen.
///
/// Samples whose figures do not compare are never pooled: the key holds everything that changes a
/// figure (scenario, feed by SHA-256, chunk size, network profile, what was counted, and the machine
/// with its library versions). Failed samples and parses that lost the CPU are left out of every figure.
public struct HistoryRow: Codable, Sendable, Equatable {
    public var scenario: CellScenario
    public var feedPath: String
    public var feedSHA256: String
    public var network: String
    public var parser: String
    /// The machine and libraries of every sample of the row (`nil`: samples read without their run's machine).
    public var machine: Machine?
    /// The parser's kind as this build knows it (``CellSummary/kind``); `nil` when not filled in.
    public var kind: String?
    /// Bytes per push (0: the whole feed; download cells: as the network delivers them).
    public var chunkSize: Int?
    /// Runs with at least one sample of this cell.
    public var runs: Int
    /// Of those, the runs the harness found noisy.
    public var noisyRuns: Int?
    /// Of those, the runs that did not finish (interrupted, or failed halfway): their finished
    /// cells are included.
    public var incompleteRuns: Int?
    /// The distinct commits whose builds made those runs (`nil`: not known): more than one means
    /// the row pools builds of different code.
    public var commits: Int?
    /// Of those runs, the ones stored before parses that lost the CPU were flagged: such parses
    /// are in their figures (`nil`: not known).
    public var runsBeforePreemptionRule: Int?
    /// Samples in the figures (succeeded, kept the CPU).
    public var samples: Int
    /// Failed samples (left out of every figure).
    public var failed: Int
    /// Each figure's statistics, by metric.
    ///
    /// The metrics are ``figureMetrics``: the times, the instruction counts and the metrics kept by
    /// metric; a metric the row has no value of is absent. In JSON, an object keyed by the metrics'
    /// names. The peaks are apart: a worker's, not a parse's.
    public var figures: [Metric: Statistics]
    /// The median of the workers' peak resident sets over their whole life, bytes.
    public var peakResidentMedianBytes: Double?
    /// The median of the workers' parse's own peaks, bytes.
    public var parsePeakMedianBytes: Double?
    /// The feed's size, bytes.
    public var feedBytes: Int?
    /// The document's measured shape, for cells of the document workload, as the newest stored run
    /// that measured it recorded it (`nil`: not a document cell, or stored before shapes were kept).
    public var document: DocumentProfile?

    /// What a row gathers: one machine's cell (scenario, feed, chunk size, network profile, parser),
    /// counted or timed.
    private struct GroupKey: Hashable {
        var scenario: CellScenario
        var feedSHA256, network, parser: String
        var chunkSize: Int
        var counted: Bool
        var machine: Machine?

        init(_ cell: CellKey, counted: Bool, machine: Machine?) {
            scenario = cell.scenario
            feedSHA256 = cell.feedSHA256
            network = cell.network
            parser = cell.parser
            chunkSize = cell.chunkSize
            self.counted = counted
            self.machine = machine
        }
    }

    /// Groups stored samples by machine, scenario, feed, chunk size, network profile, counter and
    /// parser, in first-seen order.
    public static func aggregate(_ stored: [StoredSample]) -> [HistoryRow] {
        var order: [GroupKey] = []
        var groups: [GroupKey: [StoredSample]] = [:]
        for item in stored {
            let cell = item.sample.cell
            let key = GroupKey(cell, counted: item.sample.instructions != nil, machine: item.machine)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(item)
        }
        return order.map { key in
            let items = groups[key] ?? []
            let good = items.filter { $0.sample.error == nil }.map(\.sample)
            // The allocation workers' samples (round 0) have counts, not times: not samples of a figure here.
            let clean = good.filter(\.isClean)
            func stats(_ values: [Int?]) -> Statistics? { Statistics(values.compactMap { $0.map(Double.init) }) }
            // One peak per worker: take each run and round once.
            var peaks: [String: Int] = [:]
            var parsePeaks: [String: Int] = [:]
            for item in items {
                if let peak = item.sample.peakResidentBytes { peaks["\(item.runID)/\(item.sample.round)"] = peak }
                if let peak = item.sample.parsePeakBytes { parsePeaks["\(item.runID)/\(item.sample.round)"] = peak }
            }
            var runs: [String: StoredSample] = [:]
            for item in items { runs[item.runID] = item }
            return HistoryRow(
                scenario: key.scenario, feedPath: items.last?.sample.cell.feedPath ?? "", feedSHA256: key.feedSHA256,
                network: key.network, parser: key.parser, machine: key.machine, chunkSize: key.chunkSize,
                runs: runs.count,
                noisyRuns: runs.values.filter { $0.runNoisy == true }.count,
                incompleteRuns: runs.values.filter { $0.runComplete == false }.count,
                commits: Set(runs.values.compactMap(\.runGitCommit)).count,
                runsBeforePreemptionRule: runs.values.filter { $0.runRetriesPreempted == nil }.count,
                samples: clean.filter { $0.allocations == nil }.count,
                failed: items.count - good.count,
                // A time over the parses that kept the CPU; a count over every parse that succeeded.
                figures: figures { metric in stats((metric.isTime ? clean : good).map { $0[metric] }) },
                peakResidentMedianBytes: Statistics(peaks.values.map(Double.init))?.median,
                parsePeakMedianBytes: Statistics(parsePeaks.values.map(Double.init))?.median,
                feedBytes: items.last?.sample.cell.feedBytes)
        }
    }

    /// The metrics of a row's ``figures``, in the order reports list them.
    public static let figureMetrics: [Metric] =
        [.wallNs, .cpuNs, .firstSongNs, .downloadNs, .totalNs, .instructions] + Metric.keptByMetric

    /// The metrics ``aggregate(summaries:)`` reads: the figures' and the peaks'.
    public static let summarisedMetrics: [Metric] = figureMetrics + [.peakResidentBytes, .parsePeakBytes]

    /// The metrics of ``summarisedMetrics`` whose workers' medians a row reads: its peaks (the
    /// median of every worker's) and wall time (a run's time is its workers' medians' median, as
    /// the run's own table gives it: ``RunFigures/Figure/runFigure(of:)``).
    public static let workerMetrics: Set<Metric> = peakMetrics.union(RunFigures.workerMediansOfRunFigures)

    /// The metrics whose row figure is the median of every worker's, not of the runs' figures.
    static let peakMetrics: Set<Metric> = [.peakResidentBytes, .parsePeakBytes]

    /// Groups the runs' stored summaries (``MetricSummary``) as ``aggregate(_:)`` groups samples.
    ///
    /// No sample is read: each figure is over the runs, one value a run (the run's own figure,
    /// ``RunFigures/Figure/runFigure(of:)``), not over every pooled parse; its interval is the interval
    /// of the median run's figure. Peaks are the median of every worker's, as from samples.
    public static func aggregate(summaries stored: [StoredMetricSummary]) -> [HistoryRow] {
        // Each run's summaries together, the runs in the order they first come.
        var order: [String] = []
        var byRun: [String: [StoredMetricSummary]] = [:]
        for item in stored {
            if byRun[item.runID] == nil { order.append(item.runID) }
            byRun[item.runID, default: []].append(item)
        }
        var aggregator = Aggregator()
        for runID in order { RunFigures.runs(byRun[runID] ?? []).forEach { aggregator.add($0) } }
        return aggregator.rows()
    }

    /// The row's ``figures``, each of ``figureMetrics`` from `statistics`.
    fileprivate static func figures(_ statistics: (Metric) -> Statistics?) -> [Metric: Statistics] {
        Dictionary(uniqueKeysWithValues: figureMetrics.compactMap { metric in statistics(metric).map { (metric, $0) } })
    }

    /// The figures by name, each its metric's in ``figures``.
    public var wall: Statistics? { figures[.wallNs] }
    public var cpu: Statistics? { figures[.cpuNs] }
    public var firstSong: Statistics? { figures[.firstSongNs] }
    public var download: Statistics? { figures[.downloadNs] }
    public var total: Statistics? { figures[.totalNs] }
    /// The instructions per parse (runs with `--counter instructions`).
    public var instructions: Statistics? { figures[.instructions] }
}

extension HistoryRow {
    /// ``aggregate(summaries:)`` fed a run at a time (``add(_:)-(RunFigures)``, as
    /// `StatsStoring.forEachRunFigures` gives them), or one summary at a time, a run's together (the
    /// order `StatsStoring.forEachMetricSummary` gives them in): what a report over many runs holds
    /// in memory is each row's figures (a value a run), not every summary read.
    ///
    /// ```swift
    /// var aggregator = HistoryRow.Aggregator()
    /// try store.forEachRunFigures(
    ///     matching: filter, metrics: HistoryRow.summarisedMetrics, workerMedians: HistoryRow.workerMetrics
    /// ) {
    ///     aggregator.add($0)
    /// }
    /// let rows = aggregator.rows()
    /// ```
    public struct Aggregator: Sendable {
        private var order: [GroupKey] = []
        private var groups: [GroupKey: Group] = [:]
        /// The runs added so far: a group knows a run by its number.
        private var runsAdded = 0
        /// The summaries of the run being read one at a time: whether a cell was counted is known
        /// at its run's end.
        private var pending: [StoredMetricSummary] = []

        public init() {}

        /// Adds a summary; a run's summaries come one after another.
        public mutating func add(_ item: StoredMetricSummary) {
            if let last = pending.last, last.runID != item.runID { flush() }
            pending.append(item)
        }

        /// Adds a run's figures (a run is added once).
        public mutating func add(_ run: RunFigures) {
            flush()
            runsAdded += 1
            let facts = Group.Run(
                number: runsAdded, noisy: run.noisy, complete: run.complete, commit: run.gitCommit,
                retriesPreempted: run.retriesPreempted, failed: nil)
            for cell in run.cells where !cell.figures.isEmpty {
                // A run's cell is counted when its run counted instructions in it.
                let key = GroupKey(
                    cell.cell, counted: cell.figures.contains { $0.metric == .instructions }, machine: run.machine)
                if groups[key] == nil {
                    order.append(key)
                    groups[key] = Group()
                }
                var cellFacts = facts
                cellFacts.failed = cell.failed
                groups[key]?.add(cell, run: cellFacts)
            }
        }

        /// The rows, in the order their groups first came.
        public mutating func rows() -> [HistoryRow] {
            flush()
            return order.compactMap { key in groups[key].map { $0.row(key) } }
        }

        /// Adds the pending run's summaries to their groups.
        private mutating func flush() {
            guard !pending.isEmpty else { return }
            let runs = RunFigures.runs(pending)
            pending.removeAll(keepingCapacity: true)
            for run in runs { add(run) }
        }
    }

    /// What a row keeps of its runs' cells: each metric's value a run, its counts, the workers'
    /// peaks, each run's facts.
    private struct Group: Sendable {
        struct Run: Sendable {
            /// The run's number in the order runs were added.
            var number: Int
            var noisy: Bool?
            var complete: Bool?
            var commit: String?
            var retriesPreempted: Bool?
            var failed: Int?
        }
        var medians: [Metric: [Double]] = [:]
        var workers: [Metric: [Double]] = [:]
        var counts: [Metric: Int] = [:]
        /// One entry a run (a run's later cell in the same group takes its place).
        var runs: [Run] = []
        var feedPath = ""
        var feedBytes: Int?

        mutating func add(_ cell: RunFigures.Cell, run: Run) {
            for figure in cell.figures {
                medians[figure.metric, default: []].append(figure.runFigure(of: cell.cell))
                if HistoryRow.peakMetrics.contains(figure.metric) {
                    workers[figure.metric, default: []] += figure.workerMedians
                }
                counts[figure.metric, default: 0] += figure.count
            }
            if runs.last?.number == run.number {
                runs[runs.count - 1] = run
            } else {
                runs.append(run)
            }
            feedPath = cell.cell.feedPath
            feedBytes = cell.cell.feedBytes
        }

        func row(_ key: GroupKey) -> HistoryRow {
            func perRun(_ metric: Metric) -> Statistics? { Statistics(medians[metric] ?? []) }
            func workers(_ metric: Metric) -> Double? { Statistics(self.workers[metric] ?? [])?.median }
            let timed = counts[.wallNs] ?? 0
            return HistoryRow(
                scenario: key.scenario, feedPath: feedPath, feedSHA256: key.feedSHA256, network: key.network,
                parser: key.parser, machine: key.machine, chunkSize: key.chunkSize, runs: runs.count,
                noisyRuns: runs.filter { $0.noisy == true }.count,
                incompleteRuns: runs.filter { $0.complete == false }.count,
                commits: Set(runs.compactMap(\.commit)).count,
                runsBeforePreemptionRule: runs.filter { $0.retriesPreempted == nil }.count,
                samples: timed > 0 ? timed : counts[.instructions] ?? 0,
                failed: runs.compactMap(\.failed).reduce(0, +), figures: HistoryRow.figures(perRun),
                peakResidentMedianBytes: workers(.peakResidentBytes), parsePeakMedianBytes: workers(.parsePeakBytes),
                feedBytes: feedBytes)
        }
    }
}
