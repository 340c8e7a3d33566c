/// The figures of one `concurrent` cell (`bench run --scenario concurrent`): N parses of a feed at
/// once on N threads of one worker, their throughput and its scaling against one thread.
public struct ConcurrentFigures: Codable, Sendable, Equatable {
    public var scenario: String
    public var parser: String
    public var feedPath: String
    public var feedBytes: Int
    public var chunkSize: Int
    /// Parses at once, one per thread.
    public var threads: Int
    public var songs: Int
    /// Clean batches.
    public var n: Int
    /// A batch's wall time, from the threads' release to the last one's end: the median of the
    /// workers' medians, and the interval the next run's figure should fall in when there are
    /// workers enough.
    public var batchNs: Double?
    public var batchLowNs: Double?
    public var batchHighNs: Double?
    /// How much ``batchLowNs`` … ``batchHighNs`` covers when it is less than 95%.
    public var batchCoverage: ShortCoverage?
    /// The process's CPU time over a batch, every thread's (median).
    public var cpuNs: Double?
    /// Parses per second, all threads together: `threads` / the batch's time.
    public var parsesPerSecond: Double?
    /// ``parsesPerSecond`` over the same parser's with one thread, on the same feed and chunk size
    /// (ideally `threads`, when there are cores enough); `nil` without a one-thread figure.
    public var scaling: Double?
    public var failed: Int
    /// Why the cell has no figure or what went wrong: a crash, a time-out, a wrong answer, not run.
    public var outcome: String?

    /// How the outcome of a parser that may not parse on several threads begins.
    public static let notRunPrefix = "not run: "

    /// The cell of `threads` parses at once.
    public static func cell(threads: Int) -> CellScenario { CellScenario(.concurrent, count: threads) }

    /// The parses at once of a cell of the concurrent table (its choice's count), or `nil` for another cell.
    public static func threads(of cell: CellScenario) -> Int? {
        guard cell.table == .concurrent, let threads = cell.count, threads > 0 else { return nil }
        return threads
    }

    /// The figures of a `concurrent` cell's summary, or `nil` for another cell.
    public init?(_ cell: CellSummary) {
        guard let threads = Self.threads(of: cell.cell.scenario) else { return nil }
        scenario = cell.cell.scenario.name
        parser = cell.cell.parser
        feedPath = cell.cell.feedPath
        feedBytes = cell.cell.feedBytes
        chunkSize = cell.cell.chunkSize
        self.threads = threads
        songs = cell.songs
        n = cell.wall?.count ?? 0
        batchNs = cell.time
        batchLowNs = cell.estimate?.low
        batchHighNs = cell.estimate?.high
        batchCoverage = ShortCoverage(cell.estimate)
        cpuNs = cell.cpuMedianNs
        parsesPerSecond = cell.time.flatMap { $0 > 0 ? Double(threads) * 1e9 / $0 : nil }
        failed = cell.failed
        outcome = cell.outcome
    }

    /// The `concurrent` cells of a run, per feed and chunk size, each parser's thread counts
    /// together (in the cells' order), with their scaling against one thread.
    public static func of(_ cells: [CellSummary]) -> [ConcurrentFigures] {
        var figures = cells.compactMap(ConcurrentFigures.init)
        func key(_ figure: ConcurrentFigures) -> String { "\(figure.feedPath)|\(figure.chunkSize)|\(figure.parser)" }
        var single: [String: Double] = [:]
        for figure in figures where figure.threads == 1 { single[key(figure)] = figure.parsesPerSecond }
        for index in figures.indices {
            if let one = single[key(figures[index])], one > 0, let many = figures[index].parsesPerSecond {
                figures[index].scaling = many / one
            }
        }
        var order: [String: Int] = [:]
        for figure in figures where order[key(figure)] == nil { order[key(figure)] = order.count }
        return figures.enumerated().sorted { a, b in
            (order[key(a.element)] ?? 0, a.element.threads, a.offset) < (
                order[key(b.element)] ?? 0, b.element.threads, b.offset
            )
        }.map(\.element)
    }
}
