/// A figure an iteration can carry: its unit, which way is better, how a cell sums it up, its names,
/// and whether `bench compare` may judge it.
///
/// The one table of the figures: ``Sample``'s subscript, the samples CSV, the stores' columns (and
/// their migrations), the cell summaries' plain figures, `bench compare` and the formatting of a
/// value all read it. A new figure is its case here (a line of ``traits``), its store column's frozen
/// migration, and the worker code that records it into the iteration's figures (``MetricValues``,
/// which ``Sample`` carries keyed by metric).
public enum Metric: String, CaseIterable, Codable, Sendable {
    // The order is the samples CSV's (new ones only at the end).
    case wallNs, cpuNs, firstSongNs, downloadNs, totalNs, peakResidentBytes, bytes, httpStatus, instructions
    case parsePeakBytes, calibrationNs, allocations, allocatedBytes, keptBytes, requests, wireBytes, storeNs
    case afterCancelBytes, afterCancelParseNs, startedAfterCancel
    case visits, pagesRead
    /// Estimated cycles of a counted parse (``Sample/estimatedCycles``).
    case estimatedCycles
    /// Wall time over the calibration workload's (``Sample/calibratedTime``): derived, not stored.
    case calibratedTime
    /// The minor page faults of a timed parse: the pages it touched for the first time
    /// (`getrusage`'s `ru_minflt` before and after the parse).
    case minorPageFaults

    /// What a value counts.
    public enum Unit: String, Codable, Sendable {
        case nanoseconds, bytes, count, ratio
        /// An HTTP status code: a label, not a quantity.
        case status
    }

    /// Which way a change is an improvement.
    public enum Polarity: String, Codable, Sendable {
        case lowerIsBetter, higherIsBetter
        /// Neither: a fact about the machine or the exchange (the calibration's time, an HTTP status).
        case neither
    }

    /// How a cell sums up its samples' values.
    public enum CellFigure: Sendable {
        /// The median over the clean samples (succeeded, kept the CPU).
        case medianOfClean
        /// The median over the successful samples (exact counts: losing the CPU does not move them).
        case medianOfSuccessful
        /// The largest value over the successful samples (what a cancel let through, at worst).
        case maximum
        /// One value per worker, repeated on its samples (peaks): summed up by the cell apart.
        case perWorker
        /// Summed up by the cell apart (its headline statistics, or a label).
        case apart
        /// The statistics over the successful samples (an exact count: its median, minimum and
        /// maximum), kept by metric (``CellSummary/statistics(_:)``): every report lists such a
        /// metric from this table, with no code of its own.
        case statistics
    }

    /// A metric's entry in the table.
    public struct Traits {
        /// The column in the stores (SQLite and PostgreSQL) and, unless ``csvColumn`` says otherwise,
        /// in the samples CSV; `nil` for a derived figure.
        public var column: String?
        public var unit: Unit
        public var polarity: Polarity
        public var cellFigure: CellFigure
        /// The same binary and feed give the same value every time (a count, not a measurement).
        public var exact: Bool = false
        /// Its name for `bench compare --metric`, when compare may judge it.
        public var comparedAs: String? = nil
        /// The samples CSV's name, where it differs from ``column``.
        public var csvColumn: String? = nil
        /// Its column's heading in the tables that show it (a figure kept by ``CellFigure/statistics``).
        public var heading: String? = nil
        /// What it means, for the legend under those tables.
        public var meaning: String? = nil
        /// Its words in a terminal's short key (a few, as the key's other columns have).
        public var key: String? = nil
    }

    /// The table: one entry per metric.
    public var traits: Traits {
        switch self {
        case .wallNs:
            Traits(
                column: "wall_ns", unit: .nanoseconds, polarity: .lowerIsBetter, cellFigure: .apart,
                comparedAs: "wall")
        case .cpuNs:
            Traits(
                column: "cpu_ns", unit: .nanoseconds, polarity: .lowerIsBetter,
                cellFigure: .medianOfClean, comparedAs: "cpu")
        case .firstSongNs:
            Traits(
                column: "first_song_ns", unit: .nanoseconds, polarity: .lowerIsBetter,
                cellFigure: .medianOfClean)
        case .downloadNs:
            Traits(
                column: "download_ns", unit: .nanoseconds, polarity: .lowerIsBetter,
                cellFigure: .medianOfClean)
        case .totalNs:
            Traits(
                column: "total_ns", unit: .nanoseconds, polarity: .lowerIsBetter,
                cellFigure: .medianOfClean)
        case .peakResidentBytes:
            Traits(
                column: "peak_resident_bytes", unit: .bytes, polarity: .lowerIsBetter,
                cellFigure: .perWorker, comparedAs: "peak-memory", csvColumn: "peak_rss_bytes")
        case .bytes:
            Traits(column: "bytes", unit: .bytes, polarity: .lowerIsBetter, cellFigure: .medianOfClean)
        case .httpStatus:
            Traits(column: "http_status", unit: .status, polarity: .neither, cellFigure: .apart)
        case .instructions:
            Traits(
                column: "instructions", unit: .count, polarity: .lowerIsBetter,
                cellFigure: .apart, exact: true, comparedAs: "instructions")
        case .parsePeakBytes:
            Traits(
                column: "parse_peak_bytes", unit: .bytes, polarity: .lowerIsBetter,
                cellFigure: .perWorker)
        case .calibrationNs:
            Traits(
                column: "calibration_ns", unit: .nanoseconds, polarity: .neither,
                cellFigure: .apart)
        case .allocations:
            Traits(
                column: "allocations", unit: .count, polarity: .lowerIsBetter, cellFigure: .apart,
                exact: true, comparedAs: "allocations")
        case .allocatedBytes:
            Traits(
                column: "allocated_bytes", unit: .bytes, polarity: .lowerIsBetter,
                cellFigure: .medianOfSuccessful, exact: true)
        case .keptBytes:
            Traits(
                column: "kept_bytes", unit: .bytes, polarity: .lowerIsBetter,
                cellFigure: .medianOfSuccessful, exact: true)
        case .requests:
            Traits(
                column: "requests", unit: .count, polarity: .lowerIsBetter,
                cellFigure: .medianOfClean)
        case .wireBytes:
            Traits(
                column: "wire_bytes", unit: .bytes, polarity: .lowerIsBetter,
                cellFigure: .medianOfClean)
        case .storeNs:
            Traits(
                column: "store_ns", unit: .nanoseconds, polarity: .lowerIsBetter,
                cellFigure: .medianOfClean)
        case .afterCancelBytes:
            Traits(
                column: "after_cancel_bytes", unit: .bytes, polarity: .lowerIsBetter,
                cellFigure: .maximum)
        case .afterCancelParseNs:
            Traits(
                column: "after_cancel_parse_ns", unit: .nanoseconds,
                polarity: .lowerIsBetter, cellFigure: .maximum)
        case .startedAfterCancel:
            Traits(
                column: "started_after_cancel", unit: .count, polarity: .lowerIsBetter,
                cellFigure: .maximum)
        case .visits:
            Traits(column: "visits", unit: .count, polarity: .neither, cellFigure: .medianOfSuccessful)
        case .pagesRead:
            Traits(
                column: "pages_read", unit: .count, polarity: .lowerIsBetter,
                cellFigure: .medianOfClean)
        case .estimatedCycles:
            Traits(
                column: "estimated_cycles", unit: .count, polarity: .lowerIsBetter,
                cellFigure: .statistics, exact: true, comparedAs: "cycles", heading: "est. cycles",
                meaning: "est. cycles: the median of L1 hits + 5 × last-level hits + 35 × RAM hits in callgrind's "
                    + "cache simulation (Itamar Turner-Trauring's model, as iai-callgrind and CodSpeed report it): "
                    + "exact too, it counts what the caches cost.",
                key: "est. cycles: what the caches cost a parse (callgrind)")
        case .calibratedTime:
            Traits(
                column: nil, unit: .ratio, polarity: .lowerIsBetter, cellFigure: .apart,
                comparedAs: "calibrated")
        case .minorPageFaults:
            Traits(
                column: "minor_page_faults", unit: .count, polarity: .lowerIsBetter, cellFigure: .statistics,
                comparedAs: "faults", heading: "minor faults",
                meaning: "minor faults: the median of the page faults a timed parse took that read nothing from disk "
                    + "(getrusage's ru_minflt across the parse): the memory it touched for the first time, a page "
                    + "at a time, which a warm-up does not take back.",
                key: "minor faults: pages a parse touched first")
        }
    }

    /// The metrics a sample stores (every one but the derived: those with a column), in the samples
    /// CSV's order; a sample keeps them by metric (``Sample/figures``).
    public static let stored = allCases.filter { $0.traits.column != nil }

    /// The metrics a cell keeps by metric (``CellFigure/statistics``), in the table's order: the
    /// reports' columns for them follow this list.
    public static let keptByMetric = allCases.filter { $0.traits.cellFigure == .statistics }

    /// Whether it is a time: a sample that lost the CPU has it inflated by the other work (left out
    /// of every figure), and times of runs made apart on a noisy machine are not judged.
    public var isTime: Bool {
        traits.unit == .nanoseconds || self == .calibratedTime
    }

    /// The column in the stores, for a stored metric.
    public var column: String { traits.column ?? rawValue }

    /// Its name in the exported formats (`bench run --format bmf`, `influx`, …): the compared
    /// name where it has one ("wall", "peak-memory"), else its column without a nanoseconds suffix,
    /// dashed ("first-song", "parse-peak-bytes").
    public var name: String {
        if let compared = traits.comparedAs { return compared }
        var base = column
        if base.hasSuffix("_ns") { base.removeLast(3) }
        return base.split(separator: "_").joined(separator: "-")
    }

    /// The column in the samples CSV.
    public var csvColumn: String { traits.csvColumn ?? column }

    /// The sample's value, if it has one (a derived figure computed from the stored ones).
    public func value(_ sample: Sample) -> Double? {
        if self == .calibratedTime { return sample.calibratedTime }
        return sample[self].map(Double.init)
    }

    /// The cell's figure from its samples, for a metric summed up by ``Traits/cellFigure`` (else `nil`).
    public func cellFigure(_ samples: [Sample]) -> Double? {
        switch traits.cellFigure {
        case .medianOfClean, .medianOfSuccessful, .statistics: return Statistics(counted(samples))?.median
        case .maximum: return counted(samples).max()
        case .perWorker, .apart: return nil
        }
    }

    /// Whether `sample`'s value counts in this metric's figures: a clean sample (succeeded, kept
    /// the CPU) for a time or a figure of the clean parses, a successful one for anything else.
    ///
    /// The one rule of every figure of a run: its summary (``CellSummary/summarise(_:samples:peakResidentBytes:baselinePeakBytes:outcome:)``)
    /// and the summaries a store keeps by metric (``MetricSummary/of(_:)``), which report and
    /// history read, so that both give a run the same figure.
    public func counts(_ sample: Sample) -> Bool {
        switch traits.cellFigure {
        case .medianOfClean: return sample.isClean
        case .medianOfSuccessful, .statistics, .maximum, .perWorker: return sample.error == nil
        case .apart: return isTime ? sample.isClean : sample.error == nil
        }
    }

    /// The values of `samples` that count in this metric's figures (``counts(_:)``), in order.
    public func counted(_ samples: [Sample]) -> [Double] {
        // One pass, no copy of the samples: the backfill calls it for every metric of every cell.
        var values: [Double] = []
        for sample in samples where counts(sample) {
            if let number = value(sample) { values.append(number) }
        }
        return values
    }
}

/// Dictionaries keyed by metric encode as objects keyed by the metric's name (``CellSummary/figures``).
extension Metric: CodingKeyRepresentable {}

extension Sample {
    /// The value of a stored metric; a derived one (``Metric/calibratedTime``) reads `nil` and
    /// ignores writes: use ``Metric/value(_:)``.
    public subscript(metric: Metric) -> Int? {
        get { figures[metric] }
        set { figures[metric] = newValue }
    }
}
