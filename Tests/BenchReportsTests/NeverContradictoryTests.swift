import BenchReports
@testable import BenchResults
import BenchTestSupport
import Foundation
import Testing

/// Issue 43: the formats and the words say what the table says.
///
/// No figure stands in another's place, a noisy run is marked in every format, an exported ratio
/// keeps one named reference, the answer sentence claims no order the shown intervals do not
/// support, and "fastest" is the one every column puts at 1.00.
@Suite("Never contradictory: exports, answer, reference")
struct NeverContradictoryTests {
    static let kinds = [
        "c-libxml2": "reference", "libxml2": "push/event", "expat": "push/event", "foundation": "push/event",
        "null": "baseline",
    ]

    /// A run in which every parse of `lost` lost the CPU (no time), the others timed per `rounds`.
    static func run(
        id: String = "20261122T100000Z-busy", rounds: [String: [Double]], lost: String? = nil, noise: NoiseReport? = nil
    ) -> RunResult {
        var run = SyntheticRuns.run(id: id, started: "2026-11-22T10:00:00Z", rounds: rounds)
        for index in run.samples.indices where run.samples[index].cell.parser == lost {
            run.samples[index].preempted = true
        }
        run.cells = run.cells.map { cell in
            var summary = CellSummary.summarise(
                cell.cell, samples: run.samples.filter { $0.cell == cell.cell }, peakResidentBytes: 40_357_888,
                baselinePeakBytes: nil, outcome: nil)
            summary.kind = kinds[cell.cell.parser]
            return summary
        }
        RelativeSpeed.rank(&run.cells, samples: run.samples, reference: nil, baseline: "null")
        run.noise = noise
        return run
    }

    static let quick = [
        "c-libxml2": [4e6, 4.1e6, 3.9e6, 4e6, 4.2e6, 4e6], "libxml2": [4.4e6, 4.5e6, 4.3e6, 4.4e6, 4.6e6, 4.4e6],
        "expat": [6e6, 6.1e6, 5.9e6, 6e6, 6.2e6, 6e6], "foundation": [9e6, 9.2e6, 8.8e6, 9e6, 9.3e6, 9e6],
        "null": [2e3, 2e3, 2e3, 2e3, 2e3, 2e3],
    ]

    /// With Foundation's parses all lost to the CPU, JMH made its primary metric peak memory
    /// ("score": 40357888, "scoreUnit": "B/op"): a cell with no time has no JMH element.
    @Test func noFigureTakesTheTimesPlace() throws {
        let run = Self.run(rounds: Self.quick, lost: "foundation")
        #expect(run.cells.first { $0.cell.parser == "foundation" }?.time == nil)
        let jmh = try #require(
            try JSONSerialization.jsonObject(with: Data(ExportFormat.jmh.write(ExportPoint.points(run)).utf8))
                as? [[String: Any]])
        for element in jmh {
            let primary = element["primaryMetric"] as? [String: Any]
            #expect(primary?["scoreUnit"] as? String == "ms/op", "\(element["benchmark"] ?? "?"): \(primary ?? [:])")
        }
        #expect(!jmh.contains { $0["benchmark"] as? String == "xmlbench.parse.foundation" })
        #expect(jmh.contains { $0["benchmark"] as? String == "xmlbench.parse.libxml2" })
    }

    /// A run on a noisy machine is marked so in every format (JSON, JMH, BMF, github-action-benchmark
    /// and influx carried nothing), and a quiet one as quiet where the format keeps a series.
    @Test func aNoisyRunIsMarkedInEveryFormat() throws {
        let noisy = NoiseReport(
            noisy: true, warnings: ["Other tasks were waiting for a CPU 40% of the time."], unranked: [],
            preemptedShare: 0.3, largestSpread: 0.1, load: nil)
        let run = Self.run(rounds: Self.quick, noise: noisy)
        let points = ExportPoint.points(run)
        #expect(try RunReport.json(run).contains("\"noisy\" : true"))

        let jmh = try #require(
            try JSONSerialization.jsonObject(with: Data(ExportFormat.jmh.write(points).utf8)) as? [[String: Any]])
        #expect(!jmh.isEmpty)
        for element in jmh {
            let machine = (element["params"] as? [String: String])?["machine"]
            #expect(machine?.hasPrefix("noisy: Other tasks were waiting") == true, "\(element)")
        }
        let bmf = try #require(
            try JSONSerialization.jsonObject(with: Data(ExportFormat.bmf.write(points).utf8))
                as? [String: [String: [String: Double]]])
        #expect(!bmf.isEmpty && bmf.values.allSatisfy { $0["noisy-machine"]?["value"] == 1 }, "\(bmf)")
        let custom = try #require(
            try JSONSerialization.jsonObject(with: Data(ExportFormat.githubActionBenchmark.write(points).utf8))
                as? [[String: Any]])
        #expect(!custom.isEmpty && custom.allSatisfy { ($0["extra"] as? String)?.contains("machine: noisy") == true })
        let lines = try LineProtocol.parse(try ExportFormat.influx.write(points))
        #expect(
            !lines.isEmpty && lines.allSatisfy { $0.fields["noisy"] == "true" }, "\(lines.first.map { "\($0)" } ?? "")")

        let quiet = Self.run(
            rounds: Self.quick,
            noise: NoiseReport(
                noisy: false, warnings: [], unranked: [], preemptedShare: 0, largestSpread: 0.05, load: nil))
        let quietBMF = try #require(
            try JSONSerialization.jsonObject(with: Data(ExportFormat.bmf.write(ExportPoint.points(quiet)).utf8))
                as? [String: [String: [String: Double]]])
        #expect(quietBMF.values.allSatisfy { $0["noisy-machine"]?["value"] == 0 })
    }

    /// github-action-benchmark's x-fastest was divided by whichever parser was fastest in that run:
    /// the exported ratio is against a fixed reference, named in the measure, in every run.
    @Test func anExportedRatioKeepsOneNamedReference() throws {
        var faster = Self.quick
        // This time libxml2 beats its C reference: the run's own "fastest" moves, the export's does not.
        faster["libxml2"] = [3.5e6, 3.6e6, 3.4e6, 3.5e6, 3.7e6, 3.5e6]
        for rounds in [Self.quick, faster] {
            let run = Self.run(rounds: rounds)
            let points = ExportPoint.points(run)
            #expect(!points.contains { $0.measure == "x-fastest" })
            let ratios = points.filter { $0.measure == "x-c-libxml2" }
            #expect(Set(ratios.compactMap { $0.tag("parser") }) == ["c-libxml2", "libxml2", "expat", "foundation"])
            #expect(ratios.first { $0.tag("parser") == "c-libxml2" }?.value == 1)
            let libxml2 = try #require(ratios.first { $0.tag("parser") == "libxml2" })
            #expect(rounds == faster ? libxml2.value < 1 : libxml2.value > 1, "\(libxml2.value)")
            let custom = try ExportFormat.githubActionBenchmark.write(points)
            #expect(custom.contains("parse/libxml2/top300.rss.xml/chunk-16384 x-c-libxml2"))
        }
    }

    /// The reference of "× fastest" is the fastest by the paired ratios every column shows: the
    /// Markdown gave c-libxml2 0.81 with libxml2 at 1.00 (reference picked by median, ratios by round).
    @Test func theFastestIsAtOneAndNobodyBelow() throws {
        // libxml2 has the lower median of the medians (2.0 against 2.1 ms), c-libxml2 the lower time
        // in the rounds that count for a paired ratio.
        let run = Self.run(rounds: [
            "libxml2": [1, 1, 1, 2, 2, 2, 2].map { $0 * 1e6 },
            "c-libxml2": [0.9, 0.9, 0.9, 2.1, 2.1, 2.1, 2.1].map { $0 * 1e6 },
            "null": Array(repeating: 2e3, count: 7),
        ])
        let ratios = Dictionary(
            uniqueKeysWithValues: run.cells.compactMap { cell in cell.relative.map { (cell.cell.parser, $0) } })
        #expect(ratios.values.allSatisfy { $0.ratio >= 1 }, "\(ratios.mapValues(\.ratio))")
        #expect(ratios["c-libxml2"]?.ratio == 1 && ratios["libxml2"]?.reference == "c-libxml2")
        let markdown = RunReport.markdown(run)
        let row = try #require(markdown.split(separator: "\n").first { $0.hasPrefix("| c-libxml2 |") })
        #expect(row.contains("| 1.00 |"), "\(row)")
    }

    /// The answer rests on the intervals the table shows: widened by the noise between runs, an
    /// order they do not support is "not told apart" (it said "1.41× ahead of expat" beside a table
    /// that gave libxml2 0.66–1.67 and expat 0.51–4.29), and the sentence says which intervals.
    @Test func theAnswerRestsOnTheShownIntervals() throws {
        var run = Self.run(rounds: Self.quick)
        let quietAnswer = try #require(RunReport.answer(run).first)
        #expect(quietAnswer.contains("libxml2 (push/event) is the fastest of the Swift choices"), "\(quietAnswer)")
        #expect(quietAnswer.contains("ahead of expat"), "\(quietAnswer)")
        #expect(quietAnswer.contains("from this run's rounds"), "\(quietAnswer)")
        // The host's earlier runs widen every ratio's interval past the others'.
        let level = RunToRun(earlierRuns: 8, differenceSpread: 0.5, degrees: 7, level: 0.95, halfWidth: 1.2)
        for index in run.cells.indices { run.cells[index].relative?.include(level) }
        let libxml2 = try #require(run.cells.first { $0.cell.parser == "libxml2" }?.relative)
        let expat = try #require(run.cells.first { $0.cell.parser == "expat" }?.relative)
        #expect((expat.low ?? 9) < (libxml2.high ?? 0), "the shown intervals overlap")
        let said = try #require(RunReport.answer(run).first)
        #expect(!said.contains("ahead of expat"), "\(said)")
        #expect(!said.contains("is the fastest"), "\(said)")
        #expect(said.contains("not told apart from expat"), "\(said)")
        #expect(said.contains("widened by the noise between the host's runs"), "\(said)")
    }

    /// An interval from too few pairs of workers orders nothing.
    ///
    /// On a busy machine lost parses left two parsers 2 pairs of workers: a narrow interval
    /// (1.27–1.29) but a 50% one. The noise lines said "Too noisy to rank expat and libxml2" while
    /// the answer said "1.28× ahead of expat (by the × fastest 95% intervals shown)".
    @Test func anIntervalFromTooFewPairsOrdersNothing() throws {
        var run = Self.run(rounds: Self.quick)
        let index = try #require(run.cells.firstIndex { $0.cell.parser == "expat" && $0.relative != nil })
        run.cells[index].relative?.coverage = 0.5
        run.cells[index].relative?.rounds = 2
        let said = try #require(RunReport.answer(run).first)
        #expect(!said.contains("ahead of expat"), "\(said)")
        #expect(said.contains("not told apart from expat"), "\(said)")
        // Nor does the answer call it a 95% one, and the table's "95% CI" column says its level.
        #expect(!said.contains("95% intervals shown"), "\(said)")
        #expect(said.contains("intervals shown (too few pairs of workers for 95% ones: more --rounds)"), "\(said)")
        func row(_ parser: String, _ run: RunResult) throws -> Substring {
            try #require(RunReport.table(run).split(separator: "\n").first { $0.hasPrefix("  \(parser) ") })
        }
        let few = try row("expat", run)
        let enough = try row("expat", Self.run(rounds: Self.quick))
        #expect(few.contains("(50%)"), "\(few)")
        #expect(!enough.contains("(50%)"), "\(enough)")
        // The page's chart of the ratios too: its title claims no 95%, its bar says the level.
        let page = HTMLReport.run(run, history: [])
        #expect(page.contains(", 50%]") && page.contains("fewer pairs: a lower level, marked"))
        #expect(!page.contains("with its 95% interval"))
        #expect(HTMLReport.run(Self.run(rounds: Self.quick), history: []).contains("with its 95% interval"))
    }
}
