#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The figures of one cell: statistics over its clean samples (succeeded, kept the CPU).
///
/// **The headline time** is ``estimate``: each worker process's median wall time, then the median
/// of those medians, with the distribution-free 95% prediction interval of the next run's figure
/// (``RunEstimate``). On a shared machine most of the noise is between processes and moments (a
/// worker's median moves by about 20% against the next one's, seconds apart), so an interval over
/// one worker's iterations describes that worker, not what the next run will report; an interval
/// over workers spread across the run does. ``wall`` keeps the plain statistics of every clean
/// iteration (the classic mean and spread).
public struct CellSummary: Codable, Sendable, Equatable {
    public var cell: CellKey
    /// Songs built per iteration (from the successful samples).
    public var songs: Int
    /// Statistics of the wall time of every clean iteration, pooled over the workers, ns; `nil` when
    /// none succeeded.
    ///
    /// Its median interval describes the iterations, not the next run: see ``estimate``.
    public var wall: Statistics?
    /// Median CPU time, ns.
    public var cpuMedianNs: Double?
    /// Median time to the first song, ns.
    public var firstSongMedianNs: Double?
    /// Median download time, ns (`download` scenario).
    public var downloadMedianNs: Double?
    /// Median total time, ns (`download` scenario).
    public var totalMedianNs: Double?
    /// The highest peak resident set of the cell's workers over their whole life (loading the feed
    /// included), bytes.
    public var peakResidentBytes: Int?
    /// ``peakResidentBytes`` minus the `null` baseline's on the same feed, bytes.
    public var peakOverBaselineBytes: Int?
    /// Iterations that failed.
    public var failed: Int
    /// What went wrong with the cell as a whole (a crash, a time-out, disagreeing songs), if anything.
    public var outcome: String?
    /// Median body bytes received (`download` scenarios).
    public var bytesMedian: Double?
    /// The HTTP status of the successful samples (`download` scenarios).
    public var httpStatus: Int?
    /// Statistics of the instructions per parse (`--counter instructions`).
    public var instructions: Statistics?
    /// The statistics of the metrics kept by metric (``Metric/keptByMetric``: estimated cycles), over
    /// the successful samples; `nil` when the cell has none.
    public var figures: [Metric: Statistics]?
    /// The headline time from the workers' medians, ns, with the interval the next run's figure
    /// should fall in (``RunEstimate``).
    public var estimate: RunEstimate?
    /// How much the workers disagree (``RunEstimate/spread``).
    public var workerSpread: Double? { estimate?.spread }
    /// The speed against the reference parser of the same table (`parse` scenario), from workers
    /// that ran side by side.
    public var relative: RelativeSpeed?
    /// The median over the workers of the parse's own peak (``Sample/parsePeakBytes``), bytes.
    public var parsePeakBytes: Int?
    /// Measured iterations that lost the CPU to other work (left out of the figures).
    public var preempted: Int?
    /// Statistics of the `malloc`-family calls per parse (``Sample/allocations``); min = max when
    /// they repeat exactly, as they should.
    public var allocations: Statistics?
    /// The median of the bytes those calls asked for, per parse.
    public var allocatedBytes: Double?
    /// The median of the bytes each parse left allocated: its songs.
    public var keptBytes: Double?
    /// The practices: median requests per iteration.
    public var requestsMedian: Double?
    /// The practices: median body bytes on the wire per iteration.
    public var wireBytesMedian: Double?
    /// The `store` practice: median time writing the songs, ns.
    public var storeMedianNs: Double?
    /// The `read` practice: screens per iteration, and the median pages SQLite read from the file per
    /// iteration.
    public var visitsMedian: Double?
    public var pagesReadMedian: Double?
    /// The `read` practice: this choice's time per visit over the other choice of its pair's
    /// (``ReadPairs``), paired by round.
    public var pairRatio: RelativeSpeed?
    /// Where the cell's noise lies: parses, workers, runs (``NoiseLevels``); the run level from the
    /// host's earlier runs in the store, when it had them.
    public var noiseLevels: NoiseLevels?
    /// The total time from the workers' medians, with the interval the next run's figure should fall
    /// in (the practices' headline: what the user waits for).
    public var totalEstimate: RunEstimate?
    /// A cancelled queue: the most bytes delivered after a cancel, the most parser time after it,
    /// and the most requests started after it, over the iterations.
    public var afterCancelBytesMax: Int?
    public var afterCancelParseNsMax: Int?
    public var startedAfterCancelMax: Int?
    /// The parser's kind ("push/event", "pull", "tree", "Codable", "reference", "floor", "baseline");
    /// `nil` in files made before kinds were recorded, or for a parser this build does not know.
    public var kind: String?
    /// The Swift binding's cost: this adapter's figure over its C reference's.
    ///
    /// The reference is the same extraction in plain C over the same library (`libxml2` ÷
    /// `c-libxml2`), in time or, in a run with `--counter instructions`, in instructions; paired by round, with its interval. `nil` for a
    /// parser without a C reference, or when the reference did not run.
    public var bindingTax: RelativeSpeed?
    /// This parser's figure as a multiple of the `memchr` floor's (one pass over the bytes, no
    /// parsing), in time or instructions as ``bindingTax``; `nil` when the floor did not run.
    public var floorMultiple: RelativeSpeed?

    public init(
        cell: CellKey, songs: Int, wall: Statistics?, cpuMedianNs: Double?, firstSongMedianNs: Double?,
        downloadMedianNs: Double? = nil, totalMedianNs: Double? = nil, peakResidentBytes: Int?,
        peakOverBaselineBytes: Int?, failed: Int, outcome: String?
    ) {
        self.cell = cell
        self.songs = songs
        self.wall = wall
        self.cpuMedianNs = cpuMedianNs
        self.firstSongMedianNs = firstSongMedianNs
        self.downloadMedianNs = downloadMedianNs
        self.totalMedianNs = totalMedianNs
        self.peakResidentBytes = peakResidentBytes
        self.peakOverBaselineBytes = peakOverBaselineBytes
        self.failed = failed
        self.outcome = outcome
    }

    /// The statistics of a count per parse: a metric kept by metric (``figures``), instructions
    /// or allocations; `nil` for any other, or when the cell has none.
    public func statistics(_ metric: Metric) -> Statistics? {
        switch metric {
        case .instructions: instructions
        case .allocations: allocations
        default: figures?[metric]
        }
    }

    /// How much of the parse time was hidden under the download: the median over the iterations of
    /// (download + parse − total) / parse, between 0 (parsed after the download) and 1 (all of it
    /// while the bytes arrived).
    ///
    /// Taken per iteration: medians of different iterations do not add up.
    /// `nil` outside the `download` scenarios.
    public var overlap: Double?

    /// One iteration's overlap; see ``overlap``.
    public static func overlap(_ sample: Sample) -> Double? {
        guard let download = sample.downloadNs, let total = sample.totalNs, let parse = sample.wallNs, parse > 0 else {
            return nil
        }
        return Swift.min(1, Swift.max(0, Double(download + parse - total) / Double(parse)))
    }

    /// The headline time, ns: the median of the workers' medians (of the iterations, in files made
    /// before workers were summarised).
    public var time: Double? { estimate?.value ?? wall?.median }

    /// Whether every measured parse lost the CPU to other work.
    ///
    /// The cell has no time because the machine was busy, not because the parser failed (its parses
    /// succeeded; their times counted the other work). Measured again on a quieter machine, it has one.
    public var everyParseLostTheCPU: Bool {
        time == nil && instructions == nil && failed == 0 && (preempted ?? 0) > 0
    }

    /// What to say of a cell whose every parse lost the CPU (``everyParseLostTheCPU``), or `nil`:
    /// "no time: " and the words of ``whyNoFigure``.
    public var lostTheCPUNote: String? {
        guard everyParseLostTheCPU, let preempted else { return nil }
        return "no time: " + Self.lostTheCPU(preempted)
    }

    /// Why a cell whose every parse (`count` of them) lost the CPU has no time: the one sentence
    /// that the tables' notes (``lostTheCPUNote``), the exports and the run's exit status say.
    static func lostTheCPU(_ count: Int) -> String {
        (count == 1 ? "its one parse" : "all \(count) of its parses")
            + " lost the CPU to other work (a busy machine, not a failure); measure again when it is quieter"
    }

    /// Why a timed cell has no headline figure (neither a time nor an instruction count), in words:
    /// every parse failed, or every parse lost the CPU to other work; `nil` when it has one.
    ///
    /// What a report, an export or an exit status says in the figure's place: never another figure.
    public var whyNoFigure: String? {
        guard time == nil, instructions == nil, totalEstimate == nil, cell.scenario != .notTimed else { return nil }
        let lost = preempted ?? 0
        if failed > 0 && lost == 0 {
            return "all \(failed) parse(s) failed" + (outcome.map { " (\($0))" } ?? "")
        }
        if failed > 0 { return "\(failed) parse(s) failed and the other \(lost) lost the CPU to other work" }
        if lost > 0 { return Self.lostTheCPU(lost) }
        return "no parse was measured" + (outcome.map { " (\($0))" } ?? "")
    }

    /// Throughput from the headline time, in MB/s (10⁶ bytes a second): every parse of an
    /// iteration's (N for `concurrent-N`).
    public var megabytesPerSecond: Double? {
        guard let median = time, median > 0 else { return nil }
        let parses = ConcurrentFigures.threads(of: cell.scenario) ?? 1
        return Double(cell.feedBytes * parses) / (median / 1e9) / 1e6
    }

    /// The summary of a parser that was not timed on a feed (``CellScenario/notTimed``): it
    /// disagreed or failed the agreement check, for the reason `why` (its outcome is "not timed: why").
    public static func notTimed(
        parser: String, feedPath: String, feedSHA256: String, feedBytes: Int, chunkSize: Int, why: String
    ) -> CellSummary {
        CellSummary(
            cell: CellKey(
                parser: parser, scenario: .notTimed, feedPath: feedPath, feedSHA256: feedSHA256, feedBytes: feedBytes,
                chunkSize: chunkSize),
            songs: 0, wall: nil, cpuMedianNs: nil, firstSongMedianNs: nil, peakResidentBytes: nil,
            peakOverBaselineBytes: nil, failed: 0, outcome: "not timed: \(why)")
    }

    /// Summarises samples of one cell: failed samples count in ``failed`` only, samples that lost
    /// the CPU in ``preempted`` only; each figure is over the values that count (``Metric/counted(_:)``,
    /// the rule of the summaries a store keeps by metric too).
    public static func summarise(
        _ cell: CellKey, samples: [Sample], peakResidentBytes: Int?, baselinePeakBytes: Int?, outcome: String?
    ) -> CellSummary {
        let good = samples.filter { $0.error == nil }
        let clean = good.filter(\.isClean)
        func figure(_ metric: Metric) -> Double? { metric.cellFigure(samples) }
        func count(_ metric: Metric) -> Int? { figure(metric).map { Int($0) } }
        var summary = CellSummary(
            cell: cell, songs: good.first?.songs ?? 0,
            wall: Statistics(Metric.wallNs.counted(samples)),
            cpuMedianNs: figure(.cpuNs), firstSongMedianNs: figure(.firstSongNs),
            downloadMedianNs: figure(.downloadNs), totalMedianNs: figure(.totalNs),
            peakResidentBytes: peakResidentBytes,
            peakOverBaselineBytes: peakResidentBytes.flatMap { peak in baselinePeakBytes.map { peak - $0 } },
            failed: samples.count - good.count, outcome: outcome)
        summary.bytesMedian = figure(.bytes)
        summary.overlap = Statistics(clean.compactMap(CellSummary.overlap))?.median
        summary.httpStatus = good.compactMap(\.httpStatus).first
        summary.instructions = Statistics(Metric.instructions.counted(samples))
        let kept = Metric.keptByMetric.compactMap { metric in
            Statistics(metric.counted(samples)).map { (metric, $0) }
        }
        summary.figures = kept.isEmpty ? nil : Dictionary(uniqueKeysWithValues: kept)
        let perWorker = WorkerValues.medians(samples) { $0.wallNs.map(Double.init) }
        summary.estimate = RunEstimate(workerMedians: Array(perWorker.values))
        summary.parsePeakBytes = WorkerValues.perWorker(samples, \.parsePeakBytes).map { values in
            Int(Statistics.percentile(sorted: values.sorted(), 0.5).rounded())
        }
        summary.preempted = good.filter { $0.preempted == true }.count
        summary.allocations = Statistics(Metric.allocations.counted(samples))
        summary.allocatedBytes = figure(.allocatedBytes)
        summary.keptBytes = figure(.keptBytes)
        summary.requestsMedian = figure(.requests)
        summary.wireBytesMedian = figure(.wireBytes)
        summary.storeMedianNs = figure(.storeNs)
        summary.visitsMedian = figure(.visits)
        summary.pagesReadMedian = figure(.pagesRead)
        if clean.contains(where: { $0.requests != nil || $0.storeNs != nil }) {
            summary.totalEstimate = RunEstimate(
                workerMedians: Array(WorkerValues.medians(samples) { $0.totalNs.map(Double.init) }.values))
        }
        summary.afterCancelBytesMax = count(.afterCancelBytes)
        summary.afterCancelParseNsMax = count(.afterCancelParseNs)
        summary.startedAfterCancelMax = count(.startedAfterCancel)
        return summary
    }
}
