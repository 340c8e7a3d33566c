import BenchResults
import Foundation

/// One figure of one cell as the ecosystem's formats carry it (``ExportFormat``): which cell, which
/// measure, its value with the interval the suite stands behind, and what both mean.
///
/// The same points come from a run (``points(_:)-(RunResult)``), from the store's pooled history
/// (``points(_:)-([HistoryRow])``) and from a comparison (``points(_:)-(RunComparison)``); each
/// format only writes them its own way, so a figure cannot differ between formats.
public struct ExportPoint: Sendable, Equatable {
    /// A name and a value: line protocol's tags and string fields.
    public struct Tag: Sendable, Equatable {
        public var key: String
        public var value: String

        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    /// The cell as a path: scenario, parser, feed, then `chunk-N` and the network profile where the
    /// cell has them ("parse/libxml2/top300.rss.xml").
    public var benchmark: String
    /// What identifies the cell: host, parser, scenario, feed, chunk, network, kind, in that order
    /// (those it has).
    public var tags: [Tag]
    /// The figure: a metric's `name` ("wall", "allocations"); "x-" and a parser ("x-c-libxml2": time
    /// ÷ that fixed reference's), "binding-tax" (time ÷ the same library's C reference), "x-floor"
    /// (time ÷ the `memchr` floor's); or "ratio" (a comparison).
    public var measure: String
    public var unit: Metric.Unit
    public var value: Double
    /// The interval, when the figure has one.
    public var low: Double?
    public var high: Double?
    /// What the value and its interval are, in words.
    public var meaning: String
    /// The wall times of the cell's parses, ns, one array per worker process (JMH's `rawData`);
    /// empty when not kept.
    public var raw: [[Double]] = []
    /// Percentiles of the parses (key: the percentile, 0 to 100), when known.
    public var percentiles: [Double: Double] = [:]
    /// When it was measured (the run's start); `nil` for figures pooled over many runs.
    public var time: Date?
    /// Where it came from: the run and its commit (line protocol's string fields).
    public var source: [Tag] = []
    /// The SHA-256 of the feed or document measured, when known.
    public var feedSHA256: String?
    /// Whether the run was measured on a noisy machine (`NoiseReport.noisy`), and why.
    ///
    /// `nil` when not known (pooled figures, comparisons). Every format marks it.
    public var machine: Machine?

    /// A run's noise verdict as the formats carry it.
    public struct Machine: Sendable, Equatable {
        public var noisy: Bool
        /// "noisy: <the first warning>" or "quiet".
        public var note: String

        public init(_ noise: NoiseReport) {
            noisy = noise.noisy
            note = noise.noisy ? "noisy: " + noise.warnings.joined(separator: " ") : "quiet"
        }
    }

    /// A figure a cell should have and has not: no figure takes its place, and this says why.
    public struct Absence: Sendable, Equatable, CustomStringConvertible {
        public var benchmark: String
        public var tags: [Tag]
        public var measure: String
        public var unit: Metric.Unit
        /// Why there is no figure ("all 8 of its parses lost the CPU to other work …").
        public var reason: String
        public var time: Date?
        public var source: [Tag] = []
        public var feedSHA256: String?

        /// One line for a person: "parse/foundation/top300.rss.xml/chunk-16384 wall: <reason>".
        public var description: String { "\(benchmark) \(measure): \(reason)" }
    }

    /// The tag named `key`, if the point has it.
    public func tag(_ key: String) -> String? {
        tags.first { $0.key == key }?.value
    }

    /// The cell's name and tags.
    static func identity(
        host: String?, parser: String, scenario: String, feed: String, chunkSize: Int?, network: String,
        kind: String?
    ) -> (benchmark: String, tags: [Tag]) {
        let feedName = Format.feedName(feed)
        var path = [scenario, parser, feedName]
        var tags =
            (host.map { [Tag("host", $0)] } ?? []) + [
                Tag("parser", parser), Tag("scenario", scenario), Tag("feed", feedName),
            ]
        if let chunkSize, chunkSize > 0 {
            path.append("chunk-\(chunkSize)")
            tags.append(Tag("chunk", String(chunkSize)))
        }
        if !network.isEmpty {
            path.append(network)
            tags.append(Tag("network", network))
        }
        if let kind { tags.append(Tag("kind", kind)) }
        return (path.joined(separator: "/"), tags)
    }

    /// Gives points whose cell names coincide (the same cell on two machines, or two feeds of one
    /// name) names that tell them apart: the host, then the feed's digest.
    static func disambiguated(_ points: [ExportPoint]) -> [ExportPoint] {
        var result = points
        for suffix in [
            { (point: ExportPoint) in point.tag("host").map { "@\($0)" } },
            { $0.feedSHA256.map { "#\($0.prefix(8))" } },
        ] {
            var identities: [String: Set<String>] = [:]
            for point in result {
                identities[point.benchmark + "\u{0}" + point.measure, default: []].insert(
                    point.tags.map(\.value).joined(separator: "\u{0}") + "\u{0}" + (point.feedSHA256 ?? ""))
            }
            for index in result.indices
            where (identities[result[index].benchmark + "\u{0}" + result[index].measure]?.count ?? 0) > 1 {
                result[index].benchmark += suffix(result[index]) ?? ""
            }
        }
        return result
    }
}

extension ExportPoint {
    /// A run's figures: per measured cell, the headline time with its next-run interval, the speed
    /// against the fastest with its interval, and every other figure the cell has (medians, peaks,
    /// counts), each in its own unit.
    public static func points(_ result: RunResult) -> [ExportPoint] {
        let environment = result.environment
        let time = environment.startDate
        let source = [Tag("run", environment.runID)] + (environment.gitCommit.map { [Tag("commit", $0)] } ?? [])
        let samplesByCell = Dictionary(grouping: result.samples, by: \.cell)
        let machine = result.noise.map(Machine.init)
        let fixed = againstFixedReference(result)
        var points: [ExportPoint] = []
        for (offset, cell) in result.cells.enumerated() where cell.cell.scenario != .notTimed {
            let key = cell.cell
            let (benchmark, tags) = identity(
                host: environment.host, parser: key.parser, scenario: key.scenario.name, feed: key.feedPath,
                chunkSize: key.chunkSize, network: key.network, kind: cell.kind)
            func point(
                _ measure: String, _ unit: Metric.Unit, _ value: Double?, low: Double? = nil, high: Double? = nil,
                meaning: String
            ) {
                guard let value, value.isFinite else { return }
                points.append(
                    ExportPoint(
                        benchmark: benchmark, tags: tags, measure: measure, unit: unit, value: value,
                        low: low.flatMap { $0.isFinite ? $0 : nil }, high: high.flatMap { $0.isFinite ? $0 : nil },
                        meaning: meaning, time: time, source: source, feedSHA256: key.feedSHA256, machine: machine))
            }
            let samples = samplesByCell[key] ?? []
            let clean = samples.filter { $0.isClean && $0.round > 0 }
            if let estimate = cell.estimate {
                point(
                    Metric.wallNs.name, .nanoseconds, estimate.value, low: estimate.low, high: estimate.high,
                    meaning: "median of \(estimate.workers) worker processes' medians; "
                        + "interval: where the next run's figure should fall ("
                        + (estimate.runToRun == nil
                            ? "\(percent(estimate.coverage)) from this run's workers)"
                            : "with the run-to-run noise of the host's earlier runs)"))
                let byWorker = Dictionary(grouping: clean, by: \.round).sorted { $0.key < $1.key }
                points[points.count - 1].raw = byWorker.map { $0.value.compactMap(\.wallNs).map(Double.init) }
                let all = clean.compactMap(\.wallNs).map(Double.init).sorted()
                if !all.isEmpty {
                    for p in [0.0, 50, 90, 95, 99, 100] {
                        points[points.count - 1].percentiles[p] = Statistics.percentile(sorted: all, p / 100)
                    }
                }
            }
            // Against a fixed, named reference, never "whichever was fastest": a series keeps one
            // meaning from run to run.
            let relative = fixed[offset]
            for (measure, speed) in [
                (relative.map { "x-" + $0.reference }, relative), ("binding-tax", cell.bindingTax),
                ("x-floor", cell.floorMultiple),
            ] {
                guard let measure, let speed else { continue }
                point(
                    measure, .ratio, speed.ratio, low: speed.low, high: speed.high,
                    meaning: "this cell's ÷ \(speed.reference)'s, paired by round over \(speed.rounds) rounds"
                        + (speed.coverage.map { "; \(percent($0)) interval" } ?? "")
                        + (speed.runToRun == nil ? "" : ", widened by the run-to-run noise"))
            }
            if let total = cell.totalEstimate {
                point(
                    Metric.totalNs.name, .nanoseconds, total.value, low: total.low, high: total.high,
                    meaning: "median of \(total.workers) worker processes' medians; interval: the next run's")
            }
            for metric in Metric.allCases where metric.traits.polarity != .neither {
                let traits = metric.traits
                if metric == .totalNs && cell.totalEstimate != nil { continue }
                switch traits.cellFigure {
                case .medianOfClean, .medianOfSuccessful, .maximum, .statistics:
                    let what =
                        traits.cellFigure == .maximum
                        ? "the largest over the iterations" : "median over the iterations"
                    point(metric.name, traits.unit, metric.cellFigure(samples), meaning: what)
                case .perWorker:
                    let value = metric == .parsePeakBytes ? cell.parsePeakBytes : cell.peakResidentBytes
                    point(
                        metric.name, traits.unit, value.map(Double.init),
                        meaning: metric == .parsePeakBytes
                            ? "median over the workers of the parse's own peak"
                            : "the highest peak resident set of the cell's workers")
                case .apart:
                    switch metric {
                    case .instructions:
                        point(metric.name, .count, cell.instructions?.median, meaning: "median per parse (callgrind)")
                    case .allocations:
                        point(metric.name, .count, cell.allocations?.median, meaning: "malloc-family calls per parse")
                    case .calibratedTime:
                        let values = clean.compactMap(\.calibratedTime).sorted()
                        point(
                            metric.name, .ratio, values.isEmpty ? nil : Statistics.percentile(sorted: values, 0.5),
                            meaning: "median of wall time ÷ the calibration workload's, per parse")
                    default: break  // wall: the headline above
                    }
                }
            }
        }
        return disambiguated(points)
    }

    /// The figures a run's cells should have and have not, with why: the headline time of a cell
    /// that times a parse from memory and ended with none (every parse failed or lost the CPU).
    ///
    /// No format puts another figure in their place; line protocol writes them (a `missing` field),
    /// the others leave them out, and the command says so on standard error.
    public static func absences(_ result: RunResult) -> [Absence] {
        let environment = result.environment
        let source = [Tag("run", environment.runID)] + (environment.gitCommit.map { [Tag("commit", $0)] } ?? [])
        return result.cells.compactMap { cell in
            guard cell.cell.scenario.isParseFromMemory, let reason = cell.whyNoFigure else { return nil }
            let key = cell.cell
            let (benchmark, tags) = identity(
                host: environment.host, parser: key.parser, scenario: key.scenario.name, feed: key.feedPath,
                chunkSize: key.chunkSize, network: key.network, kind: cell.kind)
            return Absence(
                benchmark: benchmark, tags: tags, measure: Metric.wallNs.name, unit: Metric.wallNs.traits.unit,
                reason: reason,
                time: environment.startDate, source: source, feedSHA256: key.feedSHA256)
        }
    }

    /// The parsers no export divides by when it can choose: C references first, then the libraries
    /// in this order; any other parser after them, by name.
    static let referenceOrder = ["c-libxml2", "libxml2", "c-expat", "expat", "foundation"]

    /// Each cell's time against its table's fixed reference (by index into `result.cells`).
    ///
    /// The reference of a ranked table (``CellKey/table``: scenario, feed and chunk size) is the run's `--reference` when it ran
    /// there, else the first of ``referenceOrder`` that has a time there, else the first by name:
    /// never "the fastest of this run", so that `x-c-libxml2` means the same in every run. Ratios
    /// the run already has against it are kept (with any widening by the noise between runs); the
    /// others are paired by round from the run's samples, as the run pairs its own.
    static func againstFixedReference(_ result: RunResult) -> [Int: RelativeSpeed] {
        let excluded: Set<String> = ["baseline", "floor"]
        var tables: [CellKey.Table: [Int]] = [:]
        for (index, cell) in result.cells.enumerated()
        where cell.cell.scenario.ranksParsers && cell.relative != nil && cell.time != nil
            && !excluded.contains(cell.kind ?? "")
        {
            tables[cell.cell.table, default: []].append(index)
        }
        var fixed: [Int: RelativeSpeed] = [:]
        for indices in tables.values {
            let names = indices.map { result.cells[$0].cell.parser }
            let preferred = [result.settings.reference].compactMap { $0 } + referenceOrder
            guard
                let reference = preferred.first(where: names.contains) ?? names.sorted().first,
                let anchor = indices.first(where: { result.cells[$0].cell.parser == reference })
            else { continue }
            fixed[anchor] = RelativeSpeed(
                reference: reference, ratio: 1, low: nil, high: nil, coverage: nil,
                rounds: result.cells[anchor].relative?.rounds ?? 0)
            var divide: [String: String] = [:]
            for index in indices where index != anchor {
                if let own = result.cells[index].relative, own.reference == reference {
                    fixed[index] = own
                } else {
                    divide[result.cells[index].cell.parser] = reference
                }
            }
            guard !divide.isEmpty else { continue }
            // This table's cells alone, so that each parser is divided by this table's reference.
            var table = indices.map { index in
                var cell = result.cells[index]
                cell.relative = nil
                return cell
            }
            RelativeSpeed.divide(&table, samples: result.samples, by: divide, into: \.relative)
            for (position, index) in indices.enumerated() where divide[result.cells[index].cell.parser] != nil {
                if let speed = table[position].relative { fixed[index] = speed }
            }
        }
        return fixed
    }

    /// The store's figures over many runs (`bench report`).
    ///
    /// Per row, the median of the runs' own figures (`HistoryRow`: one a run) with the interval of
    /// that median, and the other medians the row has. No time: they are over many runs.
    public static func points(_ rows: [HistoryRow]) -> [ExportPoint] {
        var points: [ExportPoint] = []
        for row in rows {
            let (benchmark, tags) = identity(
                host: row.machine?.host, parser: row.parser, scenario: row.scenario.name, feed: row.feedPath,
                chunkSize: row.chunkSize, network: row.network, kind: row.kind)
            let pooled = "of \(row.runs) run(s)' own figures, one a run (\(row.samples) clean samples)"
            func point(_ measure: String, _ unit: Metric.Unit, _ statistics: Statistics?, meaning: String) {
                guard let statistics, statistics.median.isFinite else { return }
                var point = ExportPoint(
                    benchmark: benchmark, tags: tags, measure: measure, unit: unit, value: statistics.median,
                    low: statistics.medianLow, high: statistics.medianHigh, meaning: meaning,
                    feedSHA256: row.feedSHA256)
                point.percentiles = [
                    0: statistics.min, 50: statistics.median, 90: statistics.p90, 100: statistics.max,
                ]
                points.append(point)
            }
            let interval = "; interval: \(percent(row.wall?.medianCoverage ?? 0.95)) of that median"
            for metric in HistoryRow.figureMetrics {
                let runs = metric == .wallNs ? "; a run's: its workers' medians' median" + interval : ""
                point(metric.name, metric.traits.unit, row.figures[metric], meaning: "median " + pooled + runs)
            }
            for (metric, value) in [
                (Metric.peakResidentBytes, row.peakResidentMedianBytes), (.parsePeakBytes, row.parsePeakMedianBytes),
            ] {
                guard let value else { continue }
                points.append(
                    ExportPoint(
                        benchmark: benchmark, tags: tags, measure: metric.name, unit: .bytes, value: value,
                        meaning: "median of every worker's peak, over \(row.runs) run(s)", feedSHA256: row.feedSHA256))
            }
        }
        return disambiguated(points)
    }

    /// A comparison's figures (`bench compare`): per compared cell, current ÷ baseline with its
    /// interval (measure "ratio"), and each side's median of the compared metric.
    public static func points(_ comparison: RunComparison) -> [ExportPoint] {
        let metric = comparison.metric.metric
        let time = comparison.currentRuns.last.flatMap(RunEnvironment.startDate(ofRunID:))
        var points: [ExportPoint] = []
        for cell in comparison.cells {
            let key = cell.key
            let (benchmark, tags) = identity(
                host: nil, parser: key.parser, scenario: key.scenario.name, feed: key.feed, chunkSize: key.chunkSize,
                network: key.network, kind: cell.current?.kind ?? cell.baseline?.kind)
            let source =
                [Tag("metric", comparison.metric.rawValue)] + (cell.verdict.map { [Tag("verdict", $0.rawValue)] } ?? [])
                + [
                    Tag("baseline", comparison.baselineRuns.joined(separator: " ")),
                    Tag("current", comparison.currentRuns.joined(separator: " ")),
                ]
            func add(
                _ measure: String, _ unit: Metric.Unit, _ value: Double?, low: Double?, high: Double?, _ meaning: String
            ) {
                guard let value, value.isFinite else { return }
                points.append(
                    ExportPoint(
                        benchmark: benchmark, tags: tags, measure: measure, unit: unit, value: value, low: low,
                        high: high, meaning: meaning, time: time, source: source,
                        feedSHA256: cell.current?.feedSHA256 ?? cell.baseline?.feedSHA256))
            }
            add(
                "ratio", .ratio, cell.ratio, low: cell.ratioLow, high: cell.ratioHigh,
                "current ÷ baseline of \(comparison.metric.rawValue)"
                    + (cell.coverage.map { "; \(percent($0)) interval" } ?? "")
                    + (cell.method.map { " (\($0))" } ?? "")
                    + (cell.verdict.map { "; verdict: \($0.rawValue)" } ?? ""))
            add(
                "baseline-\(metric.name)", metric.traits.unit, cell.baseline?.median, low: nil, high: nil,
                "the baseline's median")
            add(
                "current-\(metric.name)", metric.traits.unit, cell.current?.median, low: nil, high: nil,
                "the current side's median")
        }
        return points
    }

    private static func percent(_ coverage: Double) -> String {
        Format.number(coverage * 100, decimals: 1) + "%"
    }
}
