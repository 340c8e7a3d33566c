import BenchResults
import Foundation
import GRDB

/// The rows of `cell_summaries` and `metric_summaries` (migration v11), in the SQL both stores share
/// but for how a parameter is written (`?` or `$1`).
enum SummaryRows {
    /// One statement and its arguments.
    struct Statement {
        var sql: String
        var arguments: [DatabaseValue]
    }

    static let cellColumns = [
        "run_id", "position", "parser", "scenario", "feed_path", "feed_sha256", "feed_bytes", "chunk_size", "network",
        "songs", "failed", "preempted", "outcome", "summary",
    ]
    static let metricColumns = [
        "run_id", "position", "parser", "scenario", "feed_path", "feed_sha256", "feed_bytes", "chunk_size", "network",
        "metric", "n", "mean", "median", "standard_deviation", "minimum", "maximum", "p90", "median_low",
        "median_high", "median_coverage", "worker_medians",
    ]

    /// The statements that replace the stored records of `cells`' cells in run `runID` with these
    /// (a cell's earlier record, from an earlier worker of the run, goes); `replacingAll` first
    /// removes every record of the run (a run summarised again from its samples).
    static func replacing(
        _ cells: [CellRecord], runID: String, replacingAll: Bool = false, placeholder: (Int) -> String
    ) throws -> [Statement] {
        var statements: [Statement] = []
        if replacingAll {
            for table in ["cell_summaries", "metric_summaries"] {
                statements.append(
                    Statement(
                        sql: "DELETE FROM \(table) WHERE run_id = \(placeholder(1))", arguments: [runID.databaseValue]))
            }
        }
        for (position, record) in cells.enumerated() {
            let cell = record.summary.cell
            let identity: [DatabaseValue] = [
                runID.databaseValue, cell.parser.databaseValue, cell.scenario.name.databaseValue,
                cell.feedPath.databaseValue, cell.feedSHA256.databaseValue, cell.chunkSize.databaseValue,
                cell.network.databaseValue,
            ]
            if !replacingAll {
                let condition = ["run_id", "parser", "scenario", "feed_path", "feed_sha256", "chunk_size", "network"]
                    .enumerated().map { "\($1) = \(placeholder($0 + 1))" }.joined(separator: " AND ")
                for table in ["cell_summaries", "metric_summaries"] {
                    statements.append(Statement(sql: "DELETE FROM \(table) WHERE \(condition)", arguments: identity))
                }
            }
            let cellValues: [DatabaseValue] = [
                runID.databaseValue, position.databaseValue, cell.parser.databaseValue,
                cell.scenario.name.databaseValue, cell.feedPath.databaseValue, cell.feedSHA256.databaseValue,
                cell.feedBytes.databaseValue, cell.chunkSize.databaseValue, cell.network.databaseValue,
            ]
            statements.append(
                insert(
                    "cell_summaries", cellColumns,
                    [
                        cellValues + [
                            record.summary.songs.databaseValue, record.summary.failed.databaseValue,
                            record.summary.preempted.databaseValue, record.summary.outcome.databaseValue,
                            try text(record.summary).databaseValue,
                        ]
                    ], placeholder: placeholder))
            guard !record.metrics.isEmpty else { continue }
            statements.append(
                insert(
                    "metric_summaries", metricColumns,
                    record.metrics.map { metric in
                        let statistics = metric.statistics
                        return cellValues + [
                            metric.metric.column.databaseValue, statistics.count.databaseValue,
                            statistics.mean.databaseValue, statistics.median.databaseValue,
                            statistics.standardDeviation.databaseValue, statistics.min.databaseValue,
                            statistics.max.databaseValue, statistics.p90.databaseValue,
                            statistics.medianLow.databaseValue, statistics.medianHigh.databaseValue,
                            statistics.medianCoverage.databaseValue, workerText(metric.workerMedians).databaseValue,
                        ]
                    }, placeholder: placeholder))
        }
        return statements
    }

    /// One multi-row `INSERT`.
    private static func insert(
        _ table: String, _ columns: [String], _ rows: [[DatabaseValue]], placeholder: (Int) -> String
    ) -> Statement {
        var arguments: [DatabaseValue] = []
        let values = rows.map { row in
            "("
                + row.map { value in
                    arguments.append(value)
                    return placeholder(arguments.count)
                }.joined(separator: ", ") + ")"
        }
        return Statement(
            sql: "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES \(values.joined(separator: ", "))",
            arguments: arguments)
    }

    /// A value as the store's text holds it: JSON, keys sorted, a non-finite number as a string.
    static func text(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// A value read back from ``text(_:)``.
    static func value<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try decoder.decode(type, from: Data(text.utf8))
    }

    /// The cell of a row of either table.
    static func cell(_ row: NamedRow) -> CellKey {
        CellKey(
            parser: row["parser"], scenario: CellScenario(name: row["scenario"]), feedPath: row["feed_path"],
            feedSHA256: row["feed_sha256"], feedBytes: row["feed_bytes"], chunkSize: row["chunk_size"],
            network: row["network"])
    }

    /// A row of `metric_summaries` (`nil`: a metric this bench does not know).
    static func metric(_ row: NamedRow) throws -> MetricSummary? {
        let column: String = row["metric"]
        guard let metric = Metric.stored.first(where: { $0.column == column }) else { return nil }
        guard var statistics = Statistics([0]) else { return nil }
        statistics.count = row["n"]
        statistics.mean = row["mean"]
        statistics.median = row["median"]
        statistics.standardDeviation = row["standard_deviation"]
        statistics.min = row["minimum"]
        statistics.max = row["maximum"]
        statistics.p90 = row["p90"]
        statistics.medianLow = row["median_low"]
        statistics.medianHigh = row["median_high"]
        statistics.medianCoverage = row["median_coverage"]
        return MetricSummary(
            metric: metric, statistics: statistics,
            workerMedians: try workers(row["worker_medians"]))
    }

    /// Worker medians as `worker_medians` holds them: "round=median" by round, comma-separated, each
    /// number as Swift writes it (read back exactly), cheaper to read than JSON in a long history.
    static func workerText(_ medians: [Int: Double]) -> String {
        medians.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    }

    /// Worker medians read back from ``workerText(_:)``, or from the JSON object by round that the
    /// bench wrote for a few hours before it (`{"1":3951.5,…}`, same migration: stores written then
    /// hold it).
    static func workers(_ text: String) throws -> [Int: Double] {
        if text.hasPrefix("{") {
            guard let byRound = try? value([String: Double].self, text) else {
                throw StatsStoreError(description: "an unreadable worker_medians value in the stats store: \(text)")
            }
            var medians: [Int: Double] = [:]
            for (round, median) in byRound {
                guard let round = Int(round) else {
                    throw StatsStoreError(description: "an unreadable worker_medians value in the stats store: \(text)")
                }
                medians[round] = median
            }
            return medians
        }
        // Read over the bytes, without a string a pair: a report reads one of these a row.
        var medians: [Int: Double] = [:]
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: ",") { end += 1 }
            guard let equals = bytes[start..<end].firstIndex(of: UInt8(ascii: "=")),
                let round = Int(String(decoding: bytes[start..<equals], as: UTF8.self)),
                let median = Double(String(decoding: bytes[(equals + 1)..<end], as: UTF8.self))
            else {
                throw StatsStoreError(description: "an unreadable worker_medians value in the stats store: \(text)")
            }
            medians[round] = median
            start = end + 1
        }
        return medians
    }

    /// The worker medians of a ``workerText(_:)`` (or its JSON predecessor), in the order of their
    /// rounds, without their rounds: what a report over many runs takes the median of.
    static func workerValues(_ text: String) throws -> [Double] {
        var copy = text
        return try copy.withUTF8 { try workerValues($0) }
    }

    /// ``workerValues(_:)`` of the text's bytes, read where the database holds them: each number
    /// read as `Double(String)` reads it, with no array of parts made.
    static func workerValues(_ bytes: UnsafeBufferPointer<UInt8>) throws -> [Double] {
        func unreadable() -> StatsStoreError {
            StatsStoreError(
                description: "an unreadable worker_medians value in the stats store: "
                    + String(decoding: bytes, as: UTF8.self))
        }
        if bytes.first == UInt8(ascii: "{") {
            return try workers(String(decoding: bytes, as: UTF8.self)).sorted { $0.key < $1.key }.map(\.value)
        }
        var values: [Double] = []
        var start = 0
        // ``workerText(_:)`` writes the rounds in order: "round=median,…".
        while start < bytes.count {
            var equals = start
            while equals < bytes.count && bytes[equals] >= UInt8(ascii: "0") && bytes[equals] <= UInt8(ascii: "9") {
                equals += 1
            }
            guard equals > start, equals < bytes.count, bytes[equals] == UInt8(ascii: "=") else { throw unreadable() }
            var end = equals + 1
            while end < bytes.count && bytes[end] != UInt8(ascii: ",") { end += 1 }
            let number = UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<end])
            guard let median = wholeNumber(number) ?? Double(String(decoding: number, as: UTF8.self))
            else { throw unreadable() }
            values.append(median)
            start = end + 1
        }
        return values
    }

    /// A number written as a whole number, read without a string; `nil` for any other text.
    ///
    /// "41324544" and "41324544.0" (how ``workerText(_:)`` writes most medians) of at most 15
    /// digits: exactly the `Double` that `Double(String)` reads of them. Other text is read as text.
    static func wholeNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var value = 0
        var index = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
        }
        guard index > 0, index <= 15 else { return nil }
        if index < bytes.count {
            guard bytes[index] == UInt8(ascii: "."), index + 1 < bytes.count else { return nil }
            for zero in bytes[(index + 1)...] where zero != UInt8(ascii: "0") { return nil }
        }
        return Double(value)
    }

    /// The records of one run from its rows of both tables, in the run's order.
    static func records(cells: [Row], metrics: [Row]) throws -> [CellRecord] {
        var byCell: [CellKey: [MetricSummary]] = [:]
        for row in metrics.map(NamedRow.init) {
            if let metric = try metric(row) { byCell[cell(row), default: []].append(metric) }
        }
        let order = Dictionary(uniqueKeysWithValues: Metric.stored.enumerated().map { ($1, $0) })
        return try cells.map { row in
            let metrics = (byCell[cell(NamedRow(row))] ?? []).sorted {
                order[$0.metric, default: 0] < order[$1.metric, default: 0]
            }
            return CellRecord(summary: try value(CellSummary.self, row["summary"]), metrics: metrics)
        }
    }

    /// The records of a run, both tables in the run's order (both stores' SQL).
    static func cellsOfRun(_ placeholder: (Int) -> String) -> String {
        "SELECT * FROM cell_summaries WHERE run_id = \(placeholder(1)) ORDER BY position"
    }

    static func metricsOfRun(_ placeholder: (Int) -> String) -> String {
        "SELECT * FROM metric_summaries WHERE run_id = \(placeholder(1)) ORDER BY position"
    }

    /// The runs whose summaries are not complete, oldest first (both stores' SQL); never a run whose
    /// raw samples retention removed (summarised from none, it would lose what it has).
    static let unsummarised = """
        SELECT r.run_id FROM runs r LEFT JOIN summarised_runs s ON s.run_id = r.run_id
        WHERE s.run_id IS NULL AND NOT EXISTS (SELECT 1 FROM pruned_runs p WHERE p.run_id = r.run_id)
        ORDER BY r.started_at, r.run_id
        """
}
