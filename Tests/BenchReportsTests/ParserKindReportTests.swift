import BenchReports
import BenchResults
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
        #expect(
            rows.map { $0.split(separator: " ").first.map(String.init) ?? "" } == ["c-libxml2", "libxml2", "memchr"])
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
