#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `read` practice's choices, in pairs that the advice compares: a new connection per screen
/// against one shared connection with a cache, a screen by faults against one batch query, SQLite's
/// default page cache against one that holds the table.
public enum ReadPairs {
    /// The pairs' choices (the cell name after `read-`): the one the advice warns against first,
    /// then the one it recommends (the ratio's denominator).
    public static let pairs: [(against: String, recommended: String)] = [
        ("per-screen", "shared"), ("faults", "batch"), ("cache-default", "cache-table"),
    ]

    /// Every choice, in the reports' order.
    public static let choices = ["shared", "per-screen", "batch", "faults", "cache-table", "cache-default"]

    /// A choice in words, and its place in the reports' order; `nil` for a name this build does not know.
    public static func describe(_ choice: String) -> (words: String, order: Int)? {
        switch choice {
        case "shared": return ("one shared connection, decoded songs cached", 0)
        case "per-screen": return ("a new connection per screen, no cache", 1)
        case "batch": return ("a screen in one query", 2)
        case "faults": return ("a screen in 26 queries (keys, then a song each)", 3)
        case "cache-table": return ("a page cache that holds the table", 4)
        case "cache-default": return ("SQLite's default page cache", 5)
        default: return nil
        }
    }

    /// Sets ``CellSummary/pairRatio`` of each pair's first choice (of every scenario with
    /// ``ScenarioTraits/Practice/choicePairs``): its time per visit over the recommended choice's, the
    /// workers of each round paired (the Hodges–Lehmann estimate of the log ratios, with the
    /// Wilcoxon signed-rank 95% interval, as ``RelativeSpeed``).
    public static func divide(_ summaries: inout [CellSummary], samples: [Sample]) {
        var byCell: [CellKey: [Sample]] = [:]
        func pairs(_ cell: CellScenario) -> [String: String] { cell.traits?.practice?.choicePairs ?? [:] }
        for sample in samples where !pairs(sample.cell.scenario).isEmpty {
            byCell[sample.cell, default: []].append(sample)
        }
        for index in summaries.indices {
            let cell = summaries[index].cell
            guard let kind = cell.scenario.kind, let choice = cell.scenario.choice,
                let recommended = pairs(cell.scenario)[choice]
            else { continue }
            var other = cell
            other.scenario = CellScenario(kind, choice: recommended)
            let anchor = WorkerValues.wallMedians(byCell, other)
            let logRatios = WorkerValues.pairedLogRatios(anchor, WorkerValues.wallMedians(byCell, cell))
            guard let shift = RankStatistics.pairedShift(logRatios) else { continue }
            summaries[index].pairRatio = RelativeSpeed(
                reference: other.scenario.name, ratio: exp(shift.estimate), low: exp(shift.low), high: exp(shift.high),
                coverage: shift.coverage, rounds: logRatios.count)
        }
    }
}
