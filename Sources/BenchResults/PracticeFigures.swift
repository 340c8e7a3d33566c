/// The figures of one practice cell (`bench run --scenario paged,fields,gzip,queue,store,read`): the
/// choice a developer makes, against what the user waits for and what goes over the wire.
public struct PracticeFigures: Codable, Sendable, Equatable {
    /// "paging", "fields", "compression", "queue", "cancel", "store" or "read".
    public var practice: String
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
    public static func describe(scenario cell: CellScenario) -> (practice: String, choice: String, order: Int)? {
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
        cells.compactMap(PracticeFigures.init).sorted {
            (practiceOrder.firstIndex(of: $0.practice) ?? 99, $0.feedPath, $0.network, $0.order, $0.parser)
                < (practiceOrder.firstIndex(of: $1.practice) ?? 99, $1.feedPath, $1.network, $1.order, $1.parser)
        }
    }

    /// The figures of stored samples of practice cells (every run pooled, one per cell), for the
    /// history's HTML: medians over the clean samples.
    public static func of(samples: [Sample]) -> [PracticeFigures] {
        let byCell = Dictionary(grouping: samples.filter { describe(scenario: $0.cell.scenario) != nil }, by: \.cell)
        return of(
            byCell.map { cell, samples in
                CellSummary.summarise(
                    cell, samples: samples, peakResidentBytes: nil, baselinePeakBytes: nil, outcome: nil)
            })
    }
}
