import BenchResults
import Foundation

/// The formats other tools read (`--format` of `bench run`, `bench report` and `bench compare`),
/// written from ``ExportPoint``s.
///
/// Each follows its tool's published structure; `docs/formats.md` shows an example of each and
/// `docs/schemas/` holds the JSON Schemas they are checked against.
public enum ExportFormat: String, CaseIterable, Sendable {
    /// JMH's result JSON, as package-benchmark writes it and github-action-benchmark (`tool: jmh`) and
    /// jmh-visualizer read it: one element per cell and feed, the wall time its primary metric
    /// (ms/op), every other figure a secondary metric.
    case jmh
    /// github-action-benchmark's `customSmallerIsBetter` JSON: one entry per cell and figure
    /// (every figure the suite exports is smaller-is-better).
    case githubActionBenchmark = "github-action-benchmark"
    /// Bencher Metric Format: per cell, its measures with `value`, `lower_value`, `upper_value`; the
    /// wall time is Bencher's built-in `latency` (ns).
    case bmf
    /// InfluxDB line protocol (Grafana, Telegraf): one line per cell and figure, measurement
    /// `xmlbench`, tags host, parser, scenario, feed (chunk, network, kind where set), measure, unit.
    case influx

    /// The points in this format.
    ///
    /// - Parameters:
    ///   - points: The figures, in the order they are to be written.
    ///   - absent: The figures cells should have and have not, with why (``ExportPoint/absences(_:)``):
    ///     line protocol writes each as a line with a `missing` field and no value; JMH leaves out
    ///     a cell with no headline time (its primary metric is that time, never another figure);
    ///     github-action-benchmark says it in the `extra` of the cell's other figures; BMF, which
    ///     holds numbers only, leaves it out. The caller says on standard error what was left out.
    /// - Returns: The text, ending in a newline.
    /// - Throws: `EncodingError` when a JSON format cannot encode a value.
    public func write(_ points: [ExportPoint], absent: [ExportPoint.Absence] = []) throws -> String {
        switch self {
        case .jmh: return try JSONDocument.text(Self.jmh(points))
        case .githubActionBenchmark: return try JSONDocument.text(Self.githubActionBenchmark(points, absent: absent))
        case .bmf: return try JSONDocument.text(Self.bmf(points))
        case .influx: return Self.influx(points, absent: absent)
        }
    }

    // MARK: JMH

    struct JMHMetric: Encodable {
        var score: Double
        var scoreError: Double?
        var scoreConfidence: [Double]?
        var scorePercentiles: [String: Double]
        var scoreUnit: String
        var rawData: [[Double]]
    }

    struct JMHElement: Encodable {
        var benchmark: String
        var mode = "sample"
        var threads = 1
        var forks: Int
        var measurementIterations: Int
        var params: [String: String]
        var primaryMetric: JMHMetric
        var secondaryMetrics: [String: JMHMetric]
    }

    /// A JMH unit and what the point's values are divided by to be in it.
    static func jmhUnit(_ unit: Metric.Unit) -> (name: String, divisor: Double) {
        switch unit {
        case .nanoseconds: ("ms/op", 1e6)
        case .bytes: ("B/op", 1)
        case .count: ("#/op", 1)
        case .ratio, .status: ("ratio", 1)
        }
    }

    static func jmhMetric(_ point: ExportPoint) -> JMHMetric {
        let (unit, divisor) = jmhUnit(point.unit)
        var metric = JMHMetric(
            score: point.value / divisor, scorePercentiles: [:], scoreUnit: unit,
            rawData: point.raw.map { $0.map { $0 / divisor } })
        if let low = point.low, let high = point.high {
            metric.scoreConfidence = [low / divisor, high / divisor]
            metric.scoreError = (high - low) / 2 / divisor
        }
        for (percentile, value) in point.percentiles {
            metric.scorePercentiles[String(format: "%.1f", percentile)] = value / divisor
        }
        return metric
    }

    static func jmh(_ points: [ExportPoint]) -> [JMHElement] {
        var order: [String] = []
        var groups: [String: [ExportPoint]] = [:]
        for point in points {
            if groups[point.benchmark] == nil { order.append(point.benchmark) }
            groups[point.benchmark, default: []].append(point)
        }
        return order.compactMap { name in
            // The primary metric is the time, or a count where the cell was counted; a cell with
            // neither is left out, never given another figure (peak memory) in that place.
            guard let group = groups[name],
                let primary = group.first(where: { $0.measure == Metric.wallNs.name })
                    ?? group.first(where: { $0.measure == Metric.instructions.name })
            else { return nil }
            var params: [String: String] = [:]
            for tag in primary.tags where !["parser", "scenario", "kind"].contains(tag.key) {
                params[tag.key] = tag.value
            }
            if name.contains("#"), let digest = primary.feedSHA256 { params["feed_sha256"] = digest }
            if let machine = primary.machine { params["machine"] = machine.note }
            var secondary: [String: JMHMetric] = [:]
            for point in group where point != primary { secondary[point.measure] = jmhMetric(point) }
            let scenario = primary.tag("scenario") ?? "cell"
            let parser = primary.tag("parser") ?? name
            return JMHElement(
                benchmark: "xmlbench.\(scenario).\(parser)", forks: primary.raw.count,
                measurementIterations: primary.raw.reduce(0) { $0 + $1.count }, params: params,
                primaryMetric: jmhMetric(primary), secondaryMetrics: secondary)
        }
    }

    // MARK: github-action-benchmark

    struct CustomBenchmark: Encodable {
        var name: String
        var unit: String
        var value: Double
        var range: String?
        var extra: String
    }

    /// A unit for people and what the point's values are divided by to be in it.
    static func displayUnit(_ unit: Metric.Unit) -> (name: String, divisor: Double) {
        switch unit {
        case .nanoseconds: ("ms", 1e6)
        case .bytes: ("bytes", 1)
        case .count: ("count", 1)
        case .ratio, .status: ("×", 1)
        }
    }

    static func githubActionBenchmark(_ points: [ExportPoint], absent: [ExportPoint.Absence] = []) -> [CustomBenchmark]
    {
        var missing: [String: [String]] = [:]
        for absence in absent {
            missing[absence.benchmark, default: []].append("no \(absence.measure): \(absence.reason)")
        }
        return points.map { point in
            let (unit, divisor) = displayUnit(point.unit)
            var entry = CustomBenchmark(
                name: "\(point.benchmark) \(point.measure)", unit: unit, value: point.value / divisor, range: nil,
                extra: point.meaning)
            if let low = point.low, let high = point.high {
                let half = Swift.max(point.value - low, high - point.value) / divisor
                entry.range = "± " + significant(half)
                entry.extra =
                    "interval \(significant(low / divisor))–\(significant(high / divisor)) \(unit); " + point.meaning
            }
            for line in missing[point.benchmark] ?? [] { entry.extra += "\n" + line }
            if let machine = point.machine { entry.extra += "\nmachine: " + machine.note }
            let origin = point.source.filter { $0.key == "run" || $0.key == "commit" }
            if !origin.isEmpty {
                entry.extra += "\n" + origin.map { "\($0.key): \($0.value)" }.joined(separator: "\n")
            }
            return entry
        }
    }

    /// A number with four significant digits, for people.
    static func significant(_ value: Double) -> String {
        let magnitude = value == 0 ? 0 : Int(Foundation.floor(Foundation.log10(Swift.abs(value))))
        return Format.number(value, decimals: Swift.max(0, 3 - magnitude))
    }

    // MARK: Bencher Metric Format

    struct BMFMetric: Encodable {
        var value: Double
        var lowerValue: Double?
        var upperValue: Double?

        enum CodingKeys: String, CodingKey {
            case value
            case lowerValue = "lower_value"
            case upperValue = "upper_value"
        }
    }

    /// The Bencher measure of a figure: the wall time is Bencher's built-in `latency` (ns); the
    /// others keep their names (Bencher creates a measure on first sight).
    static func bmfMeasure(_ measure: String) -> String {
        measure == Metric.wallNs.name ? "latency" : measure
    }

    /// The BMF measure that marks a run on a noisy machine: 1 noisy, 0 quiet (BMF holds numbers only).
    public static let bmfNoisyMeasure = "noisy-machine"

    static func bmf(_ points: [ExportPoint]) -> [String: [String: BMFMetric]] {
        var document: [String: [String: BMFMetric]] = [:]
        for point in points {
            document[point.benchmark, default: [:]][bmfMeasure(point.measure)] = BMFMetric(
                value: point.value, lowerValue: point.low, upperValue: point.high)
            if let machine = point.machine {
                document[point.benchmark, default: [:]][bmfNoisyMeasure] = BMFMetric(value: machine.noisy ? 1 : 0)
            }
        }
        return document
    }

    // MARK: InfluxDB line protocol

    /// The measurement every line is written to.
    public static let influxMeasurement = "xmlbench"

    /// A line's timestamp in nanoseconds since 1970.
    ///
    /// Milliseconds are all a run's start has; a Double cannot hold nanoseconds since 1970.
    private static func timestamp(_ time: Date) -> String {
        String(Int64((time.timeIntervalSince1970 * 1000).rounded()) * 1_000_000)
    }

    static func influx(_ points: [ExportPoint], absent: [ExportPoint.Absence] = []) -> String {
        func escapeKey(_ text: String) -> String {
            var out = ""
            for character in text {
                if character == "," || character == "=" || character == " " { out.append("\\") }
                out.append(character == "\n" ? " " : character)
            }
            return out
        }
        func quoted(_ text: String) -> String {
            "\""
                + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: " ") + "\""
        }
        func number(_ value: Double) -> String {
            value == value.rounded() && Swift.abs(value) < 1e15 ? String(format: "%.1f", value) : "\(value)"
        }
        var lines: [String] = []
        for point in points {
            let tags = (point.tags + [ExportPoint.Tag("measure", point.measure), .init("unit", point.unit.rawValue)])
                .filter { !$0.value.isEmpty }
            var line = influxMeasurement
            for tag in tags { line += ",\(escapeKey(tag.key))=\(escapeKey(tag.value))" }
            var fields = ["value=\(number(point.value))"]
            if let low = point.low { fields.append("low=\(number(low))") }
            if let high = point.high { fields.append("high=\(number(high))") }
            for field in point.source { fields.append("\(escapeKey(field.key))=\(quoted(field.value))") }
            if let digest = point.feedSHA256 { fields.append("feed_sha256=\(quoted(digest))") }
            if let machine = point.machine {
                fields.append("noisy=\(machine.noisy)")
                fields.append("machine=\(quoted(machine.note))")
            }
            line += " " + fields.joined(separator: ",")
            if let time = point.time { line += " " + timestamp(time) }
            lines.append(line)
        }
        // A figure that is missing: the same series, no value, a `missing` field saying why.
        for absence in absent {
            let tags = (absence.tags + [.init("measure", absence.measure), .init("unit", absence.unit.rawValue)])
                .filter { !$0.value.isEmpty }
            var line = influxMeasurement
            for tag in tags { line += ",\(escapeKey(tag.key))=\(escapeKey(tag.value))" }
            var fields = ["missing=\(quoted(absence.reason))"]
            for field in absence.source { fields.append("\(escapeKey(field.key))=\(quoted(field.value))") }
            if let digest = absence.feedSHA256 { fields.append("feed_sha256=\(quoted(digest))") }
            line += " " + fields.joined(separator: ",")
            if let time = absence.time { line += " " + timestamp(time) }
            lines.append(line)
        }
        return lines.map { $0 + "\n" }.joined()
    }
}
