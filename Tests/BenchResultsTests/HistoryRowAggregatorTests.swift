import BenchResults
import Foundation
import Testing

/// `bench report` over a long history reads the runs' summaries a run at a time
/// (``HistoryRow/Aggregator``): its rows are those of every summary read at once.
@Suite("Report rows from summaries read a run at a time")
struct HistoryRowAggregatorTests {
    static func summary(
        run: Int, parser: String, metric: Metric, median: Double, counted: Bool = false, host: String = "alpha"
    ) -> StoredMetricSummary? {
        let cell = CellKey(
            parser: parser, scenario: .parse, feedPath: "Data/top300.rss.xml", feedSHA256: "sha", feedBytes: 901_440,
            chunkSize: 16_384)
        guard var statistics = Statistics([median, median * 1.1, median * 0.9]) else { return nil }
        statistics.count = counted ? 5 : 12
        var item = StoredMetricSummary(
            runID: String(format: "run-%03d", run), runStartedAt: String(format: "2026-11-22T10:%02d:00Z", run),
            cell: cell,
            summary: MetricSummary(
                metric: metric, statistics: statistics,
                workerMedians: [1: median, 2: median * 1.05]))
        item.runNoisy = run % 3 == 0
        item.runComplete = run != 4
        item.runGitCommit = "commit-\(run / 2)"
        item.runRetriesPreempted = run == 0 ? nil : true
        item.machine = Machine(
            host: host, cpuModel: "CPU", cores: 2, swiftVersion: "6.3.1", libxml2Version: "2.9.14",
            expatVersion: "2.5.0")
        item.cellFailed = run == 2 ? 1 : 0
        return item
    }

    /// Runs oldest first, a run's summaries together, as the stores read them: two parsers timed,
    /// one run that counted instructions, two machines.
    static let stored: [StoredMetricSummary] = (0..<6).flatMap { run -> [StoredMetricSummary] in
        let host = run == 5 ? "beta" : "alpha"
        var items = ["expat", "libxml2"].flatMap { parser in
            [Metric.wallNs, .cpuNs, .peakResidentBytes, .parsePeakBytes].compactMap { metric in
                summary(
                    run: run, parser: parser, metric: metric, median: Double(1_000 * (run + 1) + parser.count),
                    host: host)
            }
        }
        if run == 3 {
            items = [
                summary(run: run, parser: "expat", metric: .instructions, median: 61_000_000, counted: true),
                summary(run: run, parser: "expat", metric: .peakResidentBytes, median: 30_000_000, counted: true),
            ].compactMap { $0 }
        }
        return items
    }

    @Test func aRunAtATimeMakesTheRowsOfEverySummaryAtOnce() {
        #expect(Self.stored.count == 5 * 8 + 2)
        var aggregator = HistoryRow.Aggregator()
        for item in Self.stored { aggregator.add(item) }
        let rows = aggregator.rows()
        #expect(rows == HistoryRow.aggregate(summaries: Self.stored))
        // expat and libxml2 timed on alpha, expat counted on alpha, both timed on beta.
        #expect(rows.count == 5)
        let timed = rows.first { $0.parser == "expat" && $0.machine?.host == "alpha" && $0.wall != nil }
        #expect(timed?.runs == 4 && timed?.incompleteRuns == 1 && timed?.noisyRuns == 1)
        #expect(timed?.samples == 48 && timed?.failed == 1 && timed?.commits == 3)
        #expect(timed?.runsBeforePreemptionRule == 1)
        #expect(rows.contains { $0.parser == "expat" && $0.instructions != nil && $0.runs == 1 && $0.samples == 5 })
    }

    /// A row's figures are one table keyed by metric, a figure's name its metric's: the timed row
    /// has its times, the counted row its count, neither the other's; the peaks stay apart (a
    /// worker's, not a parse's); JSON keys them by the metrics' names.
    @Test func aRowsFiguresAreKeyedByMetric() throws {
        let rows = HistoryRow.aggregate(summaries: Self.stored)
        let timed = try #require(rows.first { $0.parser == "expat" && $0.machine?.host == "alpha" && $0.wall != nil })
        let counted = try #require(rows.first { $0.instructions != nil })
        #expect(Set(timed.figures.keys) == [.wallNs, .cpuNs] && Set(counted.figures.keys) == [.instructions])
        #expect(timed.wall == timed.figures[.wallNs] && timed.cpu == timed.figures[.cpuNs])
        #expect(timed.peakResidentMedianBytes != nil && timed.parsePeakMedianBytes != nil)
        #expect(Set(HistoryRow.figureMetrics).isDisjoint(with: [.peakResidentBytes, .parsePeakBytes]))
        let json = try #require(String(data: try JSONEncoder().encode(timed), encoding: .utf8))
        #expect(json.contains(#""figures":{"#) && json.contains(#""wallNs":{"#) && !json.contains(#""wall":"#))
        #expect(try JSONDecoder().decode(HistoryRow.self, from: Data(json.utf8)) == timed)
    }

    /// A run's time in the report is the run's own, as its table gives it.
    ///
    /// The median of its workers' medians, not the median of its parses pooled over the workers; the other figures
    /// are the run's median of its parses. A worker of many slow parses and two of few fast ones
    /// tell them apart.
    @Test func aRunsTimeIsTheMedianOfItsWorkersMedians() throws {
        let cell = CellKey(
            parser: "expat", scenario: .parse, feedPath: "Data/top300.rss.xml", feedSHA256: "sha", feedBytes: 901_440,
            chunkSize: 16_384)
        func figure(_ metric: Metric) -> RunFigures.Figure {
            RunFigures.Figure(metric: metric, count: 12, median: 9e6, workerMedians: [3e6, 9e6, 4e6])
        }
        let run = RunFigures(
            runID: "run-1", startedAt: "2026-11-22T10:00:00Z",
            cells: [RunFigures.Cell(cell: cell, failed: 0, figures: [figure(.wallNs), figure(.cpuNs)])])
        var aggregator = HistoryRow.Aggregator()
        aggregator.add(run)
        let row = try #require(aggregator.rows().first)
        #expect(row.wall?.median == 4e6)
        #expect(row.cpu?.median == 9e6)
        // Without its workers' medians (not read), a run's time is its pooled median.
        var unread = run
        unread.cells[0].figures[0].workerMedians = []
        #expect(unread.cells[0].figures[0].runFigure(of: cell) == 9e6)
        #expect(HistoryRow.workerMetrics.contains(.wallNs), "the report must read the workers' medians of time")
        // A practice's total is its table's headline, of the workers' medians too; a download's
        // total is its table's median of its parses.
        var paged = cell
        paged.scenario = CellScenario(.paged, choice: "25")
        var download = cell
        download.scenario = .download
        #expect(figure(.totalNs).runFigure(of: paged) == 4e6)
        #expect(figure(.totalNs).runFigure(of: download) == 9e6)
        #expect(HistoryRow.workerMetrics.contains(.totalNs))
    }

    @Test func noSummaryNoRow() {
        var aggregator = HistoryRow.Aggregator()
        #expect(aggregator.rows().isEmpty)
    }
}
