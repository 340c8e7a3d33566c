#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A parser's speed against a reference parser of the same table: time ÷ the reference's time.
///
/// Taken from workers that ran side by side: in each round, this parser's worker median over the
/// reference's worker median of the same round (they ran seconds apart at most, so a slow spell of
/// the machine hits both). The estimate is the Hodges–Lehmann estimate of those ratios (on the log
/// scale), the interval the Wilcoxon signed-rank interval over the rounds (95%).
public struct RelativeSpeed: Codable, Sendable, Equatable {
    /// The parser it is measured against.
    public var reference: String
    /// time ÷ reference time (1 for the reference itself).
    public var ratio: Double
    /// The interval; `nil` for the reference, or when no round has both.
    public var low: Double?
    public var high: Double?
    /// The interval's exact coverage (below 0.95 with fewer than 6 rounds).
    public var coverage: Double?

    /// Whether the interval is a 95% one (the reference's own ratio, exact, has none to lack).
    public var isAt95: Bool { (coverage ?? 1) >= 0.95 - 1e-9 }

    /// The interval's level in whole percent (50) where it is not a 95% one, for the tables whose
    /// columns say 95%; `nil` where it is.
    public var lowerLevel: Int? {
        guard let coverage, !isAt95 else { return nil }
        return Int((coverage * 100).rounded(.down))
    }
    /// Rounds in which both had a figure.
    public var rounds: Int
    /// The run-to-run level learnt from the host's earlier runs, when the store had enough of them.
    ///
    /// ``low`` … ``high`` are then widened to hold it (``RunToRun``), and the interval from this run's
    /// rounds alone is kept in ``withinRunLow`` … ``withinRunHigh``.
    public var runToRun: RunToRun?
    public var withinRunLow: Double?
    public var withinRunHigh: Double?

    public init(reference: String, ratio: Double, low: Double?, high: Double?, coverage: Double?, rounds: Int) {
        self.reference = reference
        self.ratio = ratio
        self.low = low
        self.high = high
        self.coverage = coverage
        self.rounds = rounds
    }

    /// Widens the interval by the run-to-run level (``runToRun``), keeping the within-run one.
    public mutating func include(_ level: RunToRun) {
        guard let low, let high else { return }
        withinRunLow = low
        withinRunHigh = high
        (self.low, self.high) = level.widen(value: ratio, low: low, high: high)
        runToRun = level
    }

    /// Whether the interval leaves no doubt on which side of the reference this parser is.
    public var isSettled: Bool {
        guard let low, let high else { return ratio == 1 }
        return low > 1 || high < 1
    }

    /// Sets `field` of every `parse` cell whose parser has a reference to its figure over that one's.
    ///
    /// `references` maps a parser to the parser to divide by, in the same table (feed and chunk
    /// size): each round's worker medians paired, as ``rank(_:samples:reference:baseline:unranked:)``
    /// pairs them. The figure is the instruction count in a run that counted instructions, else the
    /// wall time.
    public static func divide(
        _ summaries: inout [CellSummary], samples: [Sample], by references: [String: String],
        into field: WritableKeyPath<CellSummary, RelativeSpeed?>
    ) {
        let byCell = WorkerValues.parseSamplesByCell(samples)
        func figures(_ cell: CellKey) -> [Int: Double] {
            let cellSamples = byCell[cell] ?? []
            let counted = cellSamples.contains { $0.instructions != nil }
            return WorkerValues.medians(cellSamples) { sample in
                counted ? sample.instructions.map(Double.init) : sample.wallNs.map(Double.init)
            }
        }
        for index in summaries.indices where summaries[index].cell.scenario.ranksParsers {
            guard let referenceName = references[summaries[index].cell.parser] else { continue }
            var referenceCell = summaries[index].cell
            referenceCell.parser = referenceName
            guard summaries.contains(where: { $0.cell == referenceCell }) else { continue }
            let anchor = figures(referenceCell)
            let logRatios = WorkerValues.pairedLogRatios(anchor, figures(summaries[index].cell))
            guard let shift = RankStatistics.pairedShift(logRatios) else { continue }
            // Exact counts repeat: every ratio is the same, and so are the interval's ends.
            summaries[index][keyPath: field] = RelativeSpeed(
                reference: referenceName, ratio: exp(shift.estimate), low: exp(shift.low), high: exp(shift.high),
                coverage: shift.coverage, rounds: logRatios.count)
        }
    }

    /// Fills in ``CellSummary/relative`` for every ranked table (``CellKey/table``: scenario, feed, chunk size).
    ///
    /// Each cell of `summaries` is given against `reference` when it is in the table, else against
    /// the table's fastest parser. The parser named `baseline` (which parses nothing) and those in `unranked` (the floor)
    /// get none, and are never the fastest.
    public static func rank(
        _ summaries: inout [CellSummary], samples: [Sample], reference: String?, baseline: String,
        unranked: Set<String> = []
    ) {
        let byCell = WorkerValues.parseSamplesByCell(samples)
        var tables: [CellKey.Table: [Int]] = [:]
        for (index, summary) in summaries.enumerated()
        where summary.cell.scenario.ranksParsers && summary.cell.parser != baseline
            && !unranked.contains(summary.cell.parser)
            && summary.time != nil
        {
            tables[summary.cell.table, default: []].append(index)
        }
        let snapshot = summaries
        // Every cell of `indices` against the cell at `anchor`, paired by round.
        func ratios(_ indices: [Int], anchor: Int) -> [Int: RelativeSpeed] {
            let anchorName = snapshot[anchor].cell.parser
            let anchorWorkers = WorkerValues.wallMedians(byCell, snapshot[anchor].cell)
            var speeds: [Int: RelativeSpeed] = [
                anchor: RelativeSpeed(
                    reference: anchorName, ratio: 1, low: nil, high: nil, coverage: nil, rounds: anchorWorkers.count)
            ]
            for index in indices where index != anchor {
                let logRatios = WorkerValues.pairedLogRatios(
                    anchorWorkers, WorkerValues.wallMedians(byCell, snapshot[index].cell))
                guard let shift = RankStatistics.pairedShift(logRatios) else { continue }
                speeds[index] = RelativeSpeed(
                    reference: anchorName, ratio: exp(shift.estimate), low: exp(shift.low), high: exp(shift.high),
                    coverage: shift.coverage, rounds: logRatios.count)
            }
            return speeds
        }
        for indices in tables.values {
            let named = indices.first { summaries[$0].cell.parser == reference }
            guard
                var anchor = named
                    ?? indices.min(by: { (summaries[$0].time ?? .infinity) < (summaries[$1].time ?? .infinity) })
            else { continue }
            var speeds = ratios(indices, anchor: anchor)
            // "The fastest" is the fastest by the same paired ratios every column shows: a parser
            // whose ratio to the one with the lowest median is below 1 becomes the reference (the
            // median and the paired estimate can order two close parsers differently).
            if named == nil {
                var tried: Set<Int> = [anchor]
                while let faster = speeds.min(by: { $0.value.ratio < $1.value.ratio }), faster.value.ratio < 1,
                    !tried.contains(faster.key)
                {
                    tried.insert(faster.key)
                    anchor = faster.key
                    speeds = ratios(indices, anchor: anchor)
                }
            }
            for index in indices { summaries[index].relative = speeds[index] }
        }
    }
}
