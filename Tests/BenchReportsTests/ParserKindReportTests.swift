import BenchReports
@testable import BenchResults
import BenchTestSupport
import Foundation
import Testing

@Suite("Kinds, binding tax and the floor in the reports")
struct ParserKindReportTests {
    /// A run with libxml2, its C reference and the floor, described as `bench run` describes them.
    static func run() -> RunResult {
        let drift = [1, 1.3, 0.9, 1.1, 1.0, 1.2]
        let base = ["c-libxml2": 4e6, "libxml2": 4.2e6, "memchr": 3e5]
        var rounds: [String: [Double]] = [:]
        for (parser, value) in base { rounds[parser] = drift.map { value * $0 } }
        var run = SyntheticRuns.run(id: "r", started: "2026-11-22T10:00:00Z", rounds: rounds)
        let kinds = ["c-libxml2": "reference", "libxml2": "push/event", "memchr": "floor"]
        for index in run.cells.indices {
            run.cells[index].kind = kinds[run.cells[index].cell.parser]
            run.cells[index].relative = nil
        }
        RelativeSpeed.rank(&run.cells, samples: run.samples, reference: nil, baseline: "null", unranked: ["memchr"])
        RelativeSpeed.divide(&run.cells, samples: run.samples, by: ["libxml2": "c-libxml2"], into: \.bindingTax)
        RelativeSpeed.divide(
            &run.cells, samples: run.samples, by: ["libxml2": "memchr", "c-libxml2": "memchr"], into: \.floorMultiple)
        return run
    }

    @Test func theTableShowsKindsTaxAndFloorWithTheFloorBelowTheParsers() throws {
        let table = RunReport.table(Self.run())
        let lines = table.split(separator: "\n").map(String.init)
        let header = try #require(lines.first { $0.contains("× fastest") })
        #expect(header.contains("kind") && header.contains("× floor") && header.contains("vs C"))
        let rows = lines.filter { $0.hasPrefix("  libxml2") || $0.hasPrefix("  c-libxml2") || $0.hasPrefix("  memchr") }
        let names: [String] = rows.map { (row: String) -> String in String(row.split(separator: " ").first ?? "") }
        #expect(names == ["c-libxml2", "libxml2", "memchr"])
        let libxml2 = try #require(rows.first { $0.hasPrefix("  libxml2") })
        // 1.05 × fastest and 1.05 vs C (every round the same ratio: the interval is a point, not shown).
        #expect(
            libxml2.contains("push/event") && libxml2.components(separatedBy: " 1.05 ").count - 1 == 2, "\(libxml2)")
        #expect(rows.last?.contains("floor") == true)
    }

    @Test func theCSVJSONAndHTMLCarryThem() throws {
        let run = Self.run()
        let csv = RunReport.summaryCSV(run.cells)
        let lines = csv.split(separator: "\r\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        let header = lines[0]
        let libxml2 = try #require(lines.first { $0.first == "libxml2" })
        let row = Dictionary(uniqueKeysWithValues: zip(header, libxml2))
        #expect(row["kind"] == "push/event" && row["c_reference"] == "c-libxml2" && row["floor"] == "memchr")
        #expect(abs((Double(row["c_tax"] ?? "") ?? 0) - 1.05) < 1e-3)
        #expect(abs((Double(row["floor_multiple"] ?? "") ?? 0) - 14) < 1e-2)
        let json = try RunReport.json(run)
        #expect(
            json.contains("\"bindingTax\"") && json.contains("\"floorMultiple\"")
                && json.contains("\"kind\" : \"floor\""))
        let html = HTMLReport.run(run, history: [])
        #expect(html.contains("id=\"binding-tax\"") && html.contains("id=\"floor\""))
        #expect(html.contains("libxml2 (push/event)") && html.contains("c-libxml2 (reference)"))
    }
}

/// The terminal's table: its columns, its wrapped legend and the answer in words.
@Suite("The terminal's table and the answer")
struct TerminalTableTests {
    @Test func columnsAreReadInTheTablesOrder() throws {
        #expect(try ParseColumn.parse(["all"]).get() == ParseColumn.allCases)
        #expect(try ParseColumn.parse(["default"]).get() == ParseColumn.defaults)
        #expect(try ParseColumn.parse(["lost-cpu", "VS-C", "time"]).get() == [.versusC, .time, .lostCPU])
        #expect(throws: ParseColumn.UnknownColumn.self) { try ParseColumn.parse(["time", "speed"]).get() }
        let unknown = ParseColumn.parse(["speed"])
        if case .failure(let error) = unknown {
            #expect(error.description.hasPrefix("--columns: unknown column 'speed'; known: all, default, kind,"))
        }
    }

    @Test func wrappingKeepsWordsAndIndents() {
        #expect(Format.wrap("short line", width: 20) == "short line")
        #expect(Format.wrap("one two three four five six", width: 10) == "one two\nthree four\nfive six")
        #expect(Format.wrap("  indented words go on here", width: 12) == "  indented\n  words go\n  on here")
        #expect(Format.wrap("averyveryverylongword x", width: 8) == "averyveryverylongword\nx")
        #expect(Format.wrap("a\n\nb", width: 1) == "a\n\nb")
    }

    /// A parse cell with a × fastest ratio and its within-run interval, and its parse's memory.
    static func cell(_ parser: String, kind: String, ratio: Double, interval: (Double, Double)?, mib: Double)
        -> CellSummary
    {
        var summary = CellSummary.summarise(
            CellKey(
                parser: parser, scenario: .parse, feedPath: "Data/top300.rss.xml", feedSHA256: "feed",
                feedBytes: 901_440, chunkSize: 16_384),
            samples: [
                Sample(
                    cell: CellKey(
                        parser: parser, scenario: .parse, feedPath: "Data/top300.rss.xml", feedSHA256: "feed",
                        feedBytes: 901_440, chunkSize: 16_384),
                    songs: 300, round: 1, iteration: 1, wallNs: Int(ratio * 1e6), cpuNs: Int(ratio * 1e6),
                    firstSongNs: 1_000, peakResidentBytes: 30 << 20, error: nil, debug: false)
            ], peakResidentBytes: 30 << 20, baselinePeakBytes: nil, outcome: nil)
        summary.kind = kind
        summary.parsePeakBytes = Int(mib * 1_048_576)
        summary.relative = RelativeSpeed(
            reference: "c-libxml2", ratio: ratio, low: interval?.0, high: interval?.1, coverage: 0.95, rounds: 20)
        return summary
    }

    @Test func theAnswerComesFromTheFigures() {
        let cells = [
            Self.cell("c-libxml2", kind: "reference", ratio: 1, interval: nil, mib: 0.8),
            Self.cell("libxml2", kind: "push/event", ratio: 1.08, interval: (1.05, 1.11), mib: 0.8),
            Self.cell("expat", kind: "push/event", ratio: 1.74, interval: (1.67, 1.81), mib: 0.2),
            Self.cell("foundation", kind: "push/event", ratio: 2.6, interval: (2.5, 2.7), mib: 3.8),
            Self.cell("memchr", kind: "floor", ratio: 0.09, interval: (0.08, 0.1), mib: 0.1),
        ]
        let run = RunResult(
            environment: SyntheticRuns.run(id: "a", started: "2026-11-25T08:00:00Z", rounds: [:]).environment,
            settings: RunSettings(iterations: 5, warmup: 1, rounds: 20, chunkSize: 16_384, timeoutSeconds: 30),
            cells: cells, samples: [])
        #expect(
            RunReport.answer(run) == [
                "On this machine, for top300.rss.xml: libxml2 (push/event) is the fastest of the Swift choices, "
                    + "1.61× ahead of expat and 2.41× ahead of foundation (by the × fastest 95% intervals shown, from "
                    + "this run's rounds); its parse used 0.8 MiB against 0.2 (expat) and 3.8 (foundation)."
            ])
        // Overlapping intervals are said as such, never as "ahead"; the interval the table shows
        // counts: widened by the noise between runs, foundation's reaches libxml2's.
        var close = cells
        close[2].relative = RelativeSpeed(
            reference: "c-libxml2", ratio: 1.12, low: 1.02, high: 1.2, coverage: 0.95, rounds: 20)
        close[3].relative?.include(
            RunToRun(earlierRuns: 6, differenceSpread: 0.4, degrees: 5.1, level: 0.95, halfWidth: 1.0))
        #expect((close[3].relative?.low ?? 9) < 1.0, "widened past libxml2")
        let said = RunReport.answer(
            RunResult(environment: run.environment, settings: run.settings, cells: close, samples: []))
        #expect(
            said.first?.hasPrefix(
                "On this machine, for top300.rss.xml: libxml2 (push/event) has the lowest time of the Swift choices, "
                    + "but by the × fastest 95% intervals shown, widened by the noise between the host's runs, it is not "
                    + "told apart from expat (1.04×) and foundation (2.41×)")
                == true, "\(said)")
        // No Swift parser measured: nothing to say.
        #expect(
            RunReport.answer(
                RunResult(environment: run.environment, settings: run.settings, cells: [cells[0]], samples: [])
            ).isEmpty)
    }

    /// A run whose ratios are against a reference parser says so wherever it names the column.
    ///
    /// The document workload's c-libxml2, or `--reference`: its header, the key, the legend and the
    /// answer. A ratio below 1 is then no contradiction of "the fastest's".
    @Test func aRunAgainstAReferenceNamesItInTheKeyTheLegendAndTheAnswer() {
        let cells = [
            Self.cell("c-libxml2", kind: "reference", ratio: 1, interval: nil, mib: 0.8),
            Self.cell("libxml2", kind: "push/event", ratio: 0.92, interval: (0.88, 0.95), mib: 0.8),
            Self.cell("expat", kind: "push/event", ratio: 1.74, interval: (1.67, 1.81), mib: 0.2),
        ]
        let environment = SyntheticRuns.run(id: "a", started: "2026-11-25T08:00:00Z", rounds: [:]).environment
        var settings = RunSettings(iterations: 5, warmup: 1, rounds: 20, chunkSize: 16_384, timeoutSeconds: 30)
        settings.reference = "c-libxml2"
        let run = RunResult(environment: environment, settings: settings, cells: cells, samples: [])
        let keyed = RunReport.table(run, columns: ParseColumn.defaults, key: true)
        #expect(keyed.contains("× c-libxml2"))
        #expect(keyed.contains("× c-libxml2: time ÷ c-libxml2's, from workers of the same round"), "\(keyed)")
        let legend = RunReport.table(run)
        #expect(legend.contains("× c-libxml2: time ÷ c-libxml2's (the run's reference parser)"), "\(legend)")
        #expect(legend.contains("paired by round as × c-libxml2"))
        for text in [keyed, legend, RunReport.markdown(run)] {
            #expect(!text.contains("× fastest"), "\(text)")
        }
        #expect(
            RunReport.answer(run).first?.contains("by the × c-libxml2 95% intervals shown, from this run's rounds")
                == true, "\(RunReport.answer(run))")
    }
}
