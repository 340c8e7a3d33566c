import BenchReports
import BenchResults
import BenchTestSupport
import Foundation
import Testing

/// The formats other tools read: every figure is the run's own, each format's structure is the one
/// its tool publishes (the schemas in `docs/schemas`; CI checks real runs against them with
/// check-jsonschema), line protocol's escaping holds for any name.
@Suite("Formats for other tools")
struct ExportFormatTests {
    static let schemas = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/schemas")

    static func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    /// The cell's headline, speed and counts reach every format unchanged (in the format's unit).
    @Test func everyFormatCarriesTheRunsOwnFigures() throws {
        let run = GoldenReportTests.run()
        let expat = try #require(run.cells.first { $0.cell.parser == "expat" && $0.cell.scenario == .parse })
        let estimate = try #require(expat.estimate)
        let relative = try #require(expat.relative)
        let name = "parse/expat/top300.rss.xml/chunk-16384"
        let points = ExportPoint.points(run)

        let bmf = try #require(try Self.json(ExportFormat.bmf.write(points)) as? [String: [String: [String: Double]]])
        #expect(
            bmf[name]?["latency"] == [
                "value": estimate.value, "lower_value": estimate.low, "upper_value": estimate.high,
            ])
        // The ratio is against a fixed reference, named in the measure (here the run's fastest too).
        #expect(relative.reference == "c-libxml2")
        #expect(bmf[name]?["x-c-libxml2"]?["value"] == relative.ratio)
        #expect(bmf[name]?["allocations"]?["value"] == 743)

        let jmh = try #require(try Self.json(ExportFormat.jmh.write(points)) as? [[String: Any]])
        let element = try #require(jmh.first { $0["benchmark"] as? String == "xmlbench.parse.expat" })
        let primary = try #require(element["primaryMetric"] as? [String: Any])
        #expect(primary["scoreUnit"] as? String == "ms/op")
        #expect(primary["score"] as? Double == estimate.value / 1e6)
        #expect(primary["scoreConfidence"] as? [Double] == [estimate.low / 1e6, estimate.high / 1e6])
        // One raw array per worker, holding its clean parses.
        let raw = try #require(primary["rawData"] as? [[Double]])
        let clean = run.samples.filter { $0.cell == expat.cell && $0.isClean && $0.round > 0 }
        #expect(raw.count == Set(clean.map(\.round)).count && raw.joined().count == clean.count)
        #expect(element["forks"] as? Int == raw.count)
        #expect((element["params"] as? [String: String])?["feed"] == "top300.rss.xml")
        let secondary = try #require(element["secondaryMetrics"] as? [String: [String: Any]])
        #expect(secondary["x-c-libxml2"]?["score"] as? Double == relative.ratio)

        let custom = try #require(
            try Self.json(ExportFormat.githubActionBenchmark.write(points)) as? [[String: Any]])
        let wall = try #require(custom.first { $0["name"] as? String == "\(name) wall" })
        #expect(wall["unit"] as? String == "ms" && wall["value"] as? Double == estimate.value / 1e6)
        #expect((wall["extra"] as? String)?.contains("run: 20261122T100000Z-gold") == true)
        #expect((wall["range"] as? String)?.hasPrefix("± ") == true)

        let influx = try ExportFormat.influx.write(points)
        let line = try #require(
            try LineProtocol.parse(influx).first { $0.tags["parser"] == "expat" && $0.tags["measure"] == "wall" })
        #expect(line.fields["value"] == "\(estimate.value)" || Double(line.fields["value"] ?? "") == estimate.value)
        #expect(line.tags["host"] == run.environment.host && line.tags["unit"] == "nanoseconds")
        #expect(line.fields["run"] == "\"20261122T100000Z-gold\"")
        // 2026-11-22T10:00:00Z in nanoseconds.
        #expect(line.timestamp == 1_795_341_600_000_000_000)
    }

    /// `bench run` writes its start with fractional seconds: every line still has its timestamp
    /// (to the millisecond); a comparison's lines have the current run's, read from its ID.
    @Test func lineProtocolTimestampsComeFromTheRunsStart() throws {
        var run = GoldenReportTests.run()
        run.environment.startedAt = "2026-11-22T10:00:00.250Z"
        let lines = try LineProtocol.parse(try ExportFormat.influx.write(ExportPoint.points(run)))
        #expect(!lines.isEmpty && lines.allSatisfy { $0.timestamp == 1_795_341_600_250_000_000 })
        #expect(RunEnvironment.startDate(ofRunID: "20261122T100000Z-4f1c")?.timeIntervalSince1970 == 1_795_341_600)
        #expect(RunEnvironment.startDate(ofRunID: "not-a-run") == nil)
    }

    /// A parser that was not timed has no figures to export; the download cell has its own.
    @Test func onlyMeasuredFiguresAreExported() throws {
        var run = GoldenReportTests.run()
        let points = ExportPoint.points(run)
        #expect(points.contains { $0.tag("scenario") == "download" && $0.measure == "download" })
        #expect(!points.contains { $0.value.isNaN || $0.low?.isNaN == true })
        run.cells.append(
            CellSummary.summarise(
                CellKey(
                    parser: "xmlcoder", scenario: .notTimed, feedPath: "Data/top300.rss.xml", feedSHA256: "feedsha",
                    feedBytes: 1, chunkSize: 0), samples: [], peakResidentBytes: nil, baselinePeakBytes: nil,
                outcome: "disagreed"))
        #expect(!ExportPoint.points(run).contains { $0.tag("parser") == "xmlcoder" })
    }

    /// Every JSON format has what its schema requires (the schema's own `required` lists, read from
    /// `docs/schemas`); CI validates real runs with check-jsonschema as well.
    @Test func theJSONFormatsHaveWhatTheirSchemasRequire() throws {
        let points = ExportPoint.points(GoldenReportTests.run())
        func schema(_ name: String) throws -> [String: Any] {
            let data = try Data(contentsOf: Self.schemas.appendingPathComponent("\(name).schema.json"))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        let custom = try schema("github-action-benchmark")
        let customRequired = try #require((custom["items"] as? [String: Any])?["required"] as? [String])
        for entry in try #require(try Self.json(ExportFormat.githubActionBenchmark.write(points)) as? [[String: Any]]) {
            for key in customRequired { #expect(entry[key] != nil, "\(key) missing in \(entry)") }
        }
        let jmh = try schema("jmh")
        let elementRequired = try #require((jmh["items"] as? [String: Any])?["required"] as? [String])
        let metricRequired = try #require(
            ((jmh["definitions"] as? [String: Any])?["metric"] as? [String: Any])?["required"] as? [String])
        for element in try #require(try Self.json(ExportFormat.jmh.write(points)) as? [[String: Any]]) {
            for key in elementRequired { #expect(element[key] != nil, "\(key) missing") }
            let primary = try #require(element["primaryMetric"] as? [String: Any])
            for key in metricRequired { #expect(primary[key] != nil, "primaryMetric.\(key) missing") }
        }
        let bmf = try #require(try Self.json(ExportFormat.bmf.write(points)) as? [String: [String: [String: Double]]])
        #expect(!bmf.isEmpty && bmf.values.allSatisfy { $0.values.allSatisfy { $0["value"] != nil } })
    }

    /// Names with the characters line protocol gives a meaning (commas, spaces, equals signs, quotes)
    /// come back unchanged from a line protocol reader.
    @Test func lineProtocolEscapesAnyName() throws {
        let cell = CellKey(
            parser: "expat", scenario: .parse, feedPath: "feeds/my feed,v=2 \"final\".xml", feedSHA256: "abc",
            feedBytes: 1, chunkSize: 0)
        var run = SyntheticRuns.run(
            id: "20261122T100000Z-x", started: "2026-11-22T10:00:00Z", rounds: ["expat": [1e6, 1.1e6]])
        run.environment.host = "build host, #2"
        run.environment.gitCommit = "abc\"def\\"
        run.samples = run.samples.map {
            var sample = $0
            sample.cell = cell
            return sample
        }
        run.cells = [
            CellSummary.summarise(
                cell, samples: run.samples, peakResidentBytes: nil, baselinePeakBytes: nil, outcome: nil)
        ]
        let lines = try LineProtocol.parse(try ExportFormat.influx.write(ExportPoint.points(run)))
        #expect(!lines.isEmpty)
        for line in lines {
            #expect(line.measurement == "xmlbench")
            #expect(line.tags["feed"] == "my feed,v=2 \"final\".xml")
            #expect(line.tags["host"] == "build host, #2")
            #expect(line.fields["commit"] == #""abc\"def\\""#)
        }
    }

    /// The same cell from two machines, or two feeds of one name, get names that tell them apart.
    @Test func clashingCellNamesAreToldApart() throws {
        let run = SyntheticRuns.run(
            id: "r", started: "2026-11-22T10:00:00Z", rounds: ["expat": [3_000_000, 3_100_000]])
        func stored(host: String, sha: String) -> [StoredSample] {
            run.samples.map {
                var sample = $0
                sample.cell.feedSHA256 = sha
                var item = StoredSample(runID: "r-\(host)-\(sha)", runStartedAt: "2026-11-22T10:00:00Z", sample: sample)
                item.machine = Machine(
                    host: host, cpuModel: "cpu", cores: 2, swiftVersion: "6.3.1", libxml2Version: "2.9.14",
                    expatVersion: "2.5.0")
                return item
            }
        }
        let rows = HistoryRow.aggregate(
            stored(host: "a", sha: "1111111111") + stored(host: "b", sha: "1111111111")
                + stored(host: "b", sha: "2222222222"))
        let names = Set(ExportPoint.points(rows).filter { $0.measure == "wall" }.map(\.benchmark))
        #expect(names.count == 3, "\(names)")
        #expect(names.contains { $0.hasSuffix("@a") })
        #expect(names.contains { $0.hasSuffix("@b#11111111") } && names.contains { $0.hasSuffix("@b#22222222") })
        // Alone, a cell keeps its plain name.
        let single = ExportPoint.points(HistoryRow.aggregate(stored(host: "a", sha: "1111111111")))
        #expect(single.allSatisfy { !$0.benchmark.contains("@") && !$0.benchmark.contains("#") })
    }
}

/// A reader of InfluxDB line protocol as its reference describes it: `measurement,tag=v field=v ts`,
/// with `\` escaping commas, spaces and equals signs in names, and double-quoted string fields.
enum LineProtocol {
    struct Line {
        var measurement: String
        var tags: [String: String]
        /// Field values as written (strings keep their quotes and escapes).
        var fields: [String: String]
        var timestamp: Int64?
    }

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    static func parse(_ text: String) throws -> [Line] {
        try text.split(separator: "\n").map { try line(Array($0)) }
    }

    static func line(_ characters: [Character]) throws -> Line {
        var index = 0
        /// Reads up to an unescaped character of `stops` (or the end), unescaping.
        func token(until stops: Set<Character>) -> String {
            var out = ""
            while index < characters.count, !stops.contains(characters[index]) {
                if characters[index] == "\\", index + 1 < characters.count,
                    [",", "=", " ", "\\"].contains(characters[index + 1])
                {
                    out.append(characters[index + 1])
                    index += 2
                } else {
                    out.append(characters[index])
                    index += 1
                }
            }
            return out
        }
        let measurement = token(until: [",", " "])
        var tags: [String: String] = [:]
        while index < characters.count, characters[index] == "," {
            index += 1
            let key = token(until: ["="])
            guard index < characters.count else { throw Malformed(description: "tag \(key) has no value") }
            index += 1
            let value = token(until: [",", " "])
            guard !key.isEmpty, !value.isEmpty else { throw Malformed(description: "empty tag \(key)=\(value)") }
            tags[key] = value
        }
        guard index < characters.count, characters[index] == " " else { throw Malformed(description: "no fields") }
        index += 1
        var fields: [String: String] = [:]
        repeat {
            if index < characters.count, characters[index] == "," { index += 1 }
            let key = token(until: ["="])
            guard index < characters.count else { throw Malformed(description: "field \(key) has no value") }
            index += 1
            var value = ""
            if characters[index] == "\"" {
                value.append("\"")
                index += 1
                while index < characters.count, characters[index] != "\"" {
                    if characters[index] == "\\", index + 1 < characters.count {
                        value.append(characters[index])
                        index += 1
                    }
                    value.append(characters[index])
                    index += 1
                }
                guard index < characters.count else { throw Malformed(description: "unterminated string in \(key)") }
                value.append("\"")
                index += 1
            } else {
                while index < characters.count, characters[index] != ",", characters[index] != " " {
                    value.append(characters[index])
                    index += 1
                }
                // A float, or a boolean as line protocol writes them.
                let booleans: Set<String> = ["t", "T", "true", "True", "TRUE", "f", "F", "false", "False", "FALSE"]
                guard Double(value) != nil || booleans.contains(value) else {
                    throw Malformed(description: "field \(key)=\(value) is neither a number nor a boolean")
                }
            }
            fields[key] = value
        } while index < characters.count && characters[index] == ","
        var timestamp: Int64?
        if index < characters.count {
            guard characters[index] == " ", let value = Int64(String(characters[(index + 1)...])) else {
                throw Malformed(description: "bad timestamp")
            }
            timestamp = value
        }
        return Line(measurement: measurement, tags: tags, fields: fields, timestamp: timestamp)
    }
}
