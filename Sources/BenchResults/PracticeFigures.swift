/// The figures of one practice cell (`bench run --scenario paged,fields,gzip,queue,store,read`): the
/// choice a developer makes, against what the user waits for and what goes over the wire.
public struct PracticeFigures: Codable, Sendable, Equatable {
    /// Which practice: its name in the practice table, "paging" … "read", in every format.
    public var practice: PracticeID
    /// The choice, in words: "25 per page", "song fields only", "gzip", "4 at once", "batch, index order".
    public var choice: String
    /// The choice's place among its practice's choices.
    public var order: Int
    public var scenario: String
    public var parser: String
    /// The network profile ("" for `store`).
    public var network: String
    public var feedPath: String
    public var songs: Int
    /// Clean iterations.
    public var n: Int
    public var requests: Double?
    /// Body bytes on the wire, and bytes fed to the parser.
    public var wireBytes: Double?
    public var bytes: Double?
    public var firstSongNs: Double?
    /// Total: start → every song ready (for `store`: parse + store; for `read`: the time per visit).
    ///
    /// The median of the workers' medians, and the interval the next run's figure should fall in,
    /// when there are workers enough.
    public var totalNs: Double?
    public var totalLowNs: Double?
    public var totalHighNs: Double?
    /// How much ``totalLowNs`` … ``totalHighNs`` covers when it is less than 95%.
    public var totalCoverage: ShortCoverage?
    public var parseNs: Double?
    public var downloadNs: Double?
    public var storeNs: Double?
    /// The cancel: the most bytes delivered, parser time spent and requests started after it.
    public var afterCancelBytes: Int?
    public var afterCancelParseNs: Int?
    public var startedAfterCancel: Int?
    /// `read`: screens per iteration; per visit, the pages SQLite read from the file, the `malloc`
    /// calls and the bytes they asked for (from the cell's allocation-counting worker).
    public var visits: Int?
    public var pagesReadPerVisit: Double?
    public var allocationsPerVisit: Double?
    public var allocatedBytesPerVisit: Double?
    /// `read`: the time per visit over the recommended choice's of its pair (``ReadPairs``).
    public var pairRatio: RelativeSpeed?
    public var failed: Int
    public var outcome: String?

    /// The practice and choice of a practice cell, or `nil` for another scenario.
    public static func describe(scenario cell: CellScenario) -> (practice: PracticeID, choice: String, order: Int)? {
        guard let kind = cell.kind, let practice = kind.traits.practice?.name, let choice = cell.choice,
            let about = kind.practiceChoice(choice)
        else { return nil }
        return (practice, about.words, about.order)
    }

    /// The practices in the order reports show them: as ``ScenarioID`` lists their scenarios.
    public static let practiceOrder = ScenarioID.allCases.compactMap(\.traits.practice?.name)

    /// The figures of a practice cell's summary, or `nil` for another scenario.
    public init?(_ cell: CellSummary) {
        guard let about = Self.describe(scenario: cell.cell.scenario) else { return nil }
        practice = about.practice
        choice = about.choice
        order = about.order
        scenario = cell.cell.scenario.name
        parser = cell.cell.parser
        network = cell.cell.network
        feedPath = cell.cell.feedPath
        songs = cell.songs
        n = cell.wall?.count ?? 0
        requests = cell.requestsMedian
        wireBytes = cell.wireBytesMedian
        bytes = cell.bytesMedian
        firstSongNs = cell.firstSongMedianNs
        totalNs = cell.totalEstimate?.value ?? cell.totalMedianNs
        totalLowNs = cell.totalEstimate?.low
        totalHighNs = cell.totalEstimate?.high
        totalCoverage = ShortCoverage(cell.totalEstimate)
        parseNs = cell.time
        downloadNs = cell.downloadMedianNs
        storeNs = cell.storeMedianNs
        afterCancelBytes = cell.afterCancelBytesMax
        afterCancelParseNs = cell.afterCancelParseNsMax
        startedAfterCancel = cell.startedAfterCancelMax
        if cell.cell.scenario.traits?.practice?.timesVisits == true {
            // The headline is the time per visit, from the workers' medians, with the next run's interval.
            totalNs = cell.estimate?.value
            totalLowNs = cell.estimate?.low
            totalHighNs = cell.estimate?.high
            totalCoverage = ShortCoverage(cell.estimate)
            parseNs = nil
            if let visits = cell.visitsMedian, visits > 0 {
                self.visits = Int(visits)
                pagesReadPerVisit = cell.pagesReadMedian.map { $0 / visits }
                allocationsPerVisit = cell.allocations.map { $0.median / visits }
                allocatedBytesPerVisit = cell.allocatedBytes.map { $0 / visits }
            }
            pairRatio = cell.pairRatio
        }
        failed = cell.failed
        outcome = cell.outcome
    }

    /// The practice cells of a run, in report order: practice, feed, network, choice, parser.
    public static func of(_ cells: [CellSummary]) -> [PracticeFigures] {
        sorted(cells.compactMap(PracticeFigures.init))
    }

    /// The metrics ``of(runs:)`` reads of stored runs.
    public static let storedMetrics: [Metric] = [
        .wallNs, .totalNs, .firstSongNs, .downloadNs, .storeNs, .requests, .wireBytes, .bytes, .afterCancelBytes,
        .afterCancelParseNs, .startedAfterCancel, .visits, .pagesRead, .allocations, .allocatedBytes,
    ]
    /// The metrics of ``storedMetrics`` whose workers' medians ``of(runs:)`` reads: a run's total is
    /// the median of its workers' medians (``RunFigures/Figure/runFigure(of:)``).
    public static let storedWorkerMedians: Set<Metric> = RunFigures.workerMediansOfRunFigures

    /// The practice cells of stored runs (the store's page): a cell each, over every run that
    /// measured it, in report order.
    ///
    /// Each figure is over the runs, one value a run, the run's own (``RunFigures/Figure/runFigure(of:)``:
    /// its total, the median of its workers' medians, as its table gave it): their median, or
    /// their largest for a figure that is a largest value (what a cancel let through). A total's
    /// whiskers are the interval of that median over the runs (``Statistics/medianLow`` …
    /// ``Statistics/medianHigh``): they describe the stored runs. `runs` are of one machine: a cell
    /// of unlike machines is not one figure.
    ///
    /// - Parameter runs: the runs' figures, read with ``storedMetrics`` (and the workers' medians of
    ///   ``storedWorkerMedians``).
    /// - Returns: the practice cells' figures; ``n`` counts the runs' clean parses behind them.
    public static func of(runs: [RunFigures]) -> [PracticeFigures] {
        var order: [CellKey] = []
        var cells: [CellKey: Pooled] = [:]
        for run in runs {
            for cell in run.cells where describe(scenario: cell.cell.scenario) != nil {
                if cells[cell.cell] == nil { order.append(cell.cell) }
                cells[cell.cell, default: Pooled()].add(cell)
            }
        }
        return sorted(order.compactMap { key in cells[key].flatMap { PracticeFigures(key, pooled: $0) } })
    }

    /// A practice cell's figures over stored runs: each metric's value a run.
    struct Pooled {
        var values: [Metric: [Double]] = [:]
        var counts: [Metric: Int] = [:]
        var songs = 0
        var failed = 0

        mutating func add(_ cell: RunFigures.Cell) {
            for figure in cell.figures {
                values[figure.metric, default: []].append(figure.runFigure(of: cell.cell))
                counts[figure.metric, default: 0] += figure.count
            }
            songs = cell.songs ?? songs
            failed += cell.failed ?? 0
        }

        /// The runs' median of `metric`, or their largest for a metric whose figure is the largest value.
        func figure(_ metric: Metric) -> Double? {
            guard let values = values[metric], !values.isEmpty else { return nil }
            return metric.traits.cellFigure == .maximum ? values.max() : Statistics(values)?.median
        }
    }

    /// The figures of a practice cell over stored runs (``of(runs:)``).
    init?(_ cell: CellKey, pooled: Pooled) {
        guard let about = Self.describe(scenario: cell.scenario) else { return nil }
        practice = about.practice
        choice = about.choice
        order = about.order
        scenario = cell.scenario.name
        parser = cell.parser
        network = cell.network
        feedPath = cell.feedPath
        songs = pooled.songs
        n = pooled.counts[.wallNs] ?? 0
        requests = pooled.figure(.requests)
        wireBytes = pooled.figure(.wireBytes)
        bytes = pooled.figure(.bytes)
        firstSongNs = pooled.figure(.firstSongNs)
        parseNs = pooled.figure(.wallNs)
        downloadNs = pooled.figure(.downloadNs)
        storeNs = pooled.figure(.storeNs)
        afterCancelBytes = pooled.figure(.afterCancelBytes).map { Int($0) }
        afterCancelParseNs = pooled.figure(.afterCancelParseNs).map { Int($0) }
        startedAfterCancel = pooled.figure(.startedAfterCancel).map { Int($0) }
        // The headline: the total, or for a practice that times visits, the time per visit.
        let timesVisits = cell.scenario.traits?.practice?.timesVisits == true
        let total = Statistics(pooled.values[timesVisits ? .wallNs : .totalNs] ?? [])
        totalNs = total?.median
        totalLowNs = total?.medianLow
        totalHighNs = total?.medianHigh
        if timesVisits {
            parseNs = nil
            if let visits = pooled.figure(.visits), visits > 0 {
                self.visits = Int(visits)
                pagesReadPerVisit = pooled.figure(.pagesRead).map { $0 / visits }
                allocationsPerVisit = pooled.figure(.allocations).map { $0 / visits }
                allocatedBytesPerVisit = pooled.figure(.allocatedBytes).map { $0 / visits }
            }
        }
        failed = pooled.failed
    }

    /// `figures` in report order: practice, feed, network, choice, parser.
    static func sorted(_ figures: [PracticeFigures]) -> [PracticeFigures] {
        figures.sorted {
            (practiceOrder.firstIndex(of: $0.practice) ?? 99, $0.feedPath, $0.network, $0.order, $0.parser)
                < (practiceOrder.firstIndex(of: $1.practice) ?? 99, $1.feedPath, $1.network, $1.order, $1.parser)
        }
    }
}
