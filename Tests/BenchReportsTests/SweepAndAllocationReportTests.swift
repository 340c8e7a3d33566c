import BenchReports
import BenchResults
import BenchTestSupport
import Foundation
import Testing

@Suite("Reports: allocations and sweeps")
struct SweepAndAllocationReportTests {
    /// A run whose expat cell has timed samples and two counted ones.
    static func runWithAllocations() -> RunResult {
        var run = SyntheticRuns.run(
            id: "20261122T100000Z-aaaa", started: "2026-11-22T10:00:00Z", rounds: ["expat": [1e7, 1.1e7]], iterations: 3
        )
        let cell = run.samples[0].cell
        for k in 0..<2 {
            var counted = Sample(
                cell: cell, songs: 300, round: 0, iteration: 7 + k, wallNs: nil, cpuNs: nil, firstSongNs: nil,
                peakResidentBytes: nil, error: nil, debug: false)
            counted.allocations = 743
            counted.allocatedBytes = 208_097
            counted.keptBytes = 98_704
            run.samples.append(counted)
        }
        run.cells = [
            CellSummary.summarise(
                cell, samples: run.samples, peakResidentBytes: nil, baselinePeakBytes: nil, outcome: nil)
        ]
        return run
    }

    @Test func allocationsAreInTheSummaryAndLeaveTheTimesAlone() throws {
        let run = Self.runWithAllocations()
        let summary = try #require(run.cells.first)
        #expect(summary.allocations?.median == 743 && summary.allocations?.min == summary.allocations?.max)
        #expect(summary.allocatedBytes == 208_097 && summary.keptBytes == 98_704)
        // The counted samples have no times: the headline comes from the two timed workers only.
        #expect(summary.estimate?.workers == 2)
        #expect(summary.wall?.count == 6)
    }

    @Test func allocationsAreInEveryFormat() throws {
        let run = Self.runWithAllocations()
        let table = RunReport.table(run)
        #expect(table.contains("allocs") && table.contains("743") && table.contains("kept MiB"))
        let summary = try ReportTests.parseCSV(RunReport.summaryCSV(run.cells))
        let row = Dictionary(uniqueKeysWithValues: zip(summary[0], summary[1]))
        #expect(row["allocations"] == "743" && row["allocations_min"] == "743" && row["allocations_max"] == "743")
        #expect(row["allocated_bytes"] == "208097" && row["kept_bytes"] == "98704")
        let samples = try ReportTests.parseCSV(RunReport.samplesCSV(run.samples, runID: "r"))
        let column = try #require(samples[0].firstIndex(of: "allocations"))
        #expect(samples.filter { $0.count > column && $0[column] == "743" }.count == 2)
        let json = try RunReport.json(run)
        #expect(json.contains("\"allocations\" : 743") && json.contains("\"keptBytes\" : 98704"))
        let decoded = try JSONDecoder().decode(RunResult.self, from: Data(json.utf8))
        #expect(decoded.cells.first?.allocations?.median == 743)
        #expect(RunReport.markdown(run).contains("743"))
        #expect(HTMLReport.run(run, history: []).contains("743"))
    }

    @Test func theSweepCSVHasARowPerParserAndSizeAndTheSlopesTheirOwn() throws {
        let result = SyntheticSweep.result(chunks: [512, 0])
        let rows = try ReportTests.parseCSV(SweepReport.pointsCSV(result))
        #expect(rows[0] == SweepReport.pointColumns)
        #expect(rows.count == 1 + result.points.count)
        #expect(result.points.filter { $0.sweep == "chunk" }.count == 4)
        let refused = try #require(rows.first { $0.first == "scale" && $0[1] == "foundation" && $0[2] == "30000" })
        #expect(refused[rows[0].firstIndex(of: "outcome") ?? 0].contains("10,000,000"))
        #expect(refused[rows[0].firstIndex(of: "median_ms") ?? 0] == "")
        let slopes = try ReportTests.parseCSV(SweepReport.slopesCSV(result))
        #expect(slopes[0] == SweepReport.slopeColumns)
        #expect(slopes.count == 1 + result.slopes.count)
        let time = try #require(slopes.first { $0[0] == "libxml2" && $0[1] == "time" })
        #expect(time[4] == "7.0000" && time[6] == "1.00000")
        let text = SweepReport.table(result)
        #expect(
            text.contains("Scale sweep") && text.contains("Chunk-size sweep") && text.contains("Growth with the feed"))
        #expect(text.contains("whole"))
        #expect(SweepReport.header(result).contains("expat 2.5.0"))
        let json = try SweepReport.json(result)
        #expect(try JSONDecoder().decode(SweepResult.self, from: Data(json.utf8)).points == result.points)
    }

    /// One of a thing is said in the singular: "1 core" (a CI container's), "1 timed parse".
    @Test func theHeadersSayOneInTheSingular() {
        var sweep = SyntheticSweep.result()
        #expect(SweepReport.header(sweep).contains("CPU, 2 cores · "))
        #expect(SweepReport.header(sweep).contains("3 workers per cell, 1 timed parse each after 1 warm-up;"))
        sweep.environment.cores = 1
        sweep.settings.rounds = 1
        sweep.settings.iterations = 2
        #expect(SweepReport.header(sweep).contains("CPU, 1 core · "))
        #expect(SweepReport.header(sweep).contains("1 worker per cell, 2 timed parses each after 1 warm-up;"))
        #expect(SweepReport.html(sweep).contains("CPU, 1 core; "))
        #expect(SweepReport.html(sweep).contains("1 worker process per cell, 2 timed parses each."))
        var run = SyntheticRuns.run(id: "one-core", started: "2026-11-22T10:00:00Z", rounds: ["expat": [1_000]])
        run.environment.cores = 1
        run.settings.iterations = 1
        #expect(RunReport.header(run).contains("CPU, 1 core · "))
        #expect(HTMLReport.run(run, history: []).contains("CPU, 1 core; "))
        #expect(HTMLReport.run(run, history: []).contains("1 timed parse each after"))
    }

    @Test func theSweepPageIsSelfContainedWithAChartAndATablePerFigure() throws {
        let result = SyntheticSweep.result(chunks: [512, 0])
        let html = SweepReport.html(result)
        let elements = try CompareAndHTMLReportTests.parse(html)
        CompareAndHTMLReportTests.checkSelfContained(html, elements)
        let charts = CompareAndHTMLReportTests.figures(elements)
        #expect(charts == ["time-vs-size": 1, "memory-vs-size": 1, "allocations-vs-size": 1, "time-vs-chunk": 1])
        // Each figure has its figures as a table beside the chart.
        let tables = elements.elements.filter { $0.name == "table" && $0.ancestors.last == "figure" }
        #expect(tables.count == 4)
        // The refusal is marked on the chart, not left as a gap.
        #expect(html.contains("foundation at 30000 songs: not timed: FAILED"))
        #expect(html.contains("foundation (× failed)"))
        #expect(html.contains("libxml2 2.9.14, expat 2.5.0"))
    }
}
