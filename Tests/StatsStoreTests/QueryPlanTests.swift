import BenchResults
import Foundation
import GRDB
@testable import StatsStore
import Testing

/// What a run, a report and a history read of the store is bounded by the runs they use (issue 44).
///
/// SQLite's plan of each query finds the host's runs through the index on runs and their samples
/// through the index on `samples.run_id`, never through the index on the cells (every run's
/// samples of a cell) nor by scanning the samples; summaries are read a page of runs at a time.
/// The plan depends on the schema, not on the rows (the store keeps no statistics), so an empty
/// store shows the plan of a big one.
@Suite("Stats store: the query plans of a run's history")
struct QueryPlanTests {
    /// The details of SQLite's plan of `sql`, one a step.
    static func plan(_ sql: String, _ arguments: [DatabaseValue]) throws -> [String] {
        let database = try StatsDatabase(writer: DatabaseQueue())
        return try database.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: StatementArguments(arguments)).map {
                $0["detail"]
            }
        }
    }

    /// Whether `plan` reads samples by run only.
    static func readsSamplesByRun(_ plan: [String]) -> Bool {
        plan.contains { $0.contains("samples_on_run_id") }
            && !plan.contains {
                $0.contains("samples_on_cell") || $0.hasPrefix("SCAN s") || $0.hasPrefix("SCAN samples")
            }
    }

    @Test func aHostsCalibrationsAreReadByRun() throws {
        let query = CalibrationQuery(host: "alpha", excluding: "a5", lastRuns: 30, placeholder: { _ in "?" })
        let plan = try Self.plan(query.sql, query.arguments)
        #expect(Self.readsSamplesByRun(plan), "\(plan)")
        #expect(plan.contains { $0.contains("runs_on_host") }, "\(plan)")
    }

    @Test func aHostsParseHistoryIsReadByRunWhateverTheDocuments() throws {
        for feeds in [["sha"], ["sha", "other", "third"], []] {
            let query = SampleQuery(
                parseHistoryOf: "alpha", excluding: "a5", lastRuns: 30, feeds: feeds, placeholder: { _ in "?" })
            let plan = try Self.plan(query.sql, query.arguments)
            #expect(Self.readsSamplesByRun(plan), "\(feeds): \(plan)")
            #expect(plan.contains { $0.contains("runs_on_host") }, "\(plan)")
        }
    }

    /// The HTML page's history of a run: the newest runs' samples of its parsers and scenarios.
    @Test func theNewestRunsSamplesAreReadByRun() throws {
        let query = SampleQuery(
            SampleFilter(parsers: ["libxml2"], scenarios: ["parse"], lastRuns: 30),
            placeholder: { _ in "?" })
        let plan = try Self.plan(query.sql, query.arguments)
        #expect(Self.readsSamplesByRun(plan), "\(plan)")
    }

    /// Report and history: the runs first (the runs table alone), then a page of runs' summaries
    /// through the index on `metric_summaries.run_id`, never every run's rows of a metric.
    @Test func summariesAreReadAPageOfRunsAtATime() throws {
        let filter = SampleFilter(parsers: ["libxml2"], scenarios: ["parse"], feed: "top300", hosts: ["alpha"])
        let runs = MetricSummaryQuery.runs(filter, placeholder: { _ in "?" })
        let runsPlan = try Self.plan(runs.sql, runs.arguments)
        #expect(!runsPlan.contains { $0.contains("summaries") || $0.contains("samples") }, "\(runsPlan)")
        let page = MetricSummaryQuery(
            filter, metrics: [.wallNs, .cpuNs, .peakResidentBytes], runs: ["a", "b", "c"], placeholder: { _ in "?" })
        let plan = try Self.plan(page.sql, page.arguments)
        #expect(plan.contains { $0.contains("metric_summaries_on_run_id") }, "\(plan)")
        #expect(!plan.contains { $0.contains("metric_summaries_on_metric") || $0.hasPrefix("SCAN") }, "\(plan)")
    }

    /// The report's figures: the runs with their facts (the runs table alone), then a page of
    /// runs' cells through the index on `cell_summaries.run_id`, then each cell's figures through
    /// the index on `metric_summaries.run_id` (its run and position), both in the order they are
    /// read in, with nothing sorted.
    @Test func aReportsFiguresAreReadAPageOfRunsAtATime() throws {
        let filter = SampleFilter(parsers: ["libxml2"], scenarios: ["parse"], feed: "top300", hosts: ["alpha"])
        let runs = RunFigureQuery.runs(filter, placeholder: { _ in "?" })
        let runsPlan = try Self.plan(runs.sql, runs.arguments)
        #expect(!runsPlan.contains { $0.contains("summaries") || $0.contains("samples") }, "\(runsPlan)")
        for filter in [filter, SampleFilter()] {
            let cells = RunFigureQuery.cells(filter, runs: ["a", "b", "c"], placeholder: { _ in "?" })
            let cellsPlan = try Self.plan(cells.sql, cells.arguments)
            #expect(cellsPlan.contains { $0.contains("cell_summaries_on_run_id (run_id=?)") }, "\(cellsPlan)")
            #expect(!cellsPlan.contains { $0.hasPrefix("SCAN") || $0.contains("TEMP B-TREE") }, "\(cellsPlan)")
            let page = RunFigureQuery.figures(
                filter, metrics: HistoryRow.summarisedMetrics, runs: ["a", "b", "c"], placeholder: { _ in "?" })
            let plan = try Self.plan(page.sql, page.arguments)
            #expect(plan.first?.contains("COVERING INDEX cell_summaries_on_run_id (run_id=?)") == true, "\(plan)")
            #expect(plan.contains { $0.contains("metric_summaries_on_run_id (run_id=? AND position=?)") }, "\(plan)")
            #expect(
                !plan.contains {
                    $0.contains("metric_summaries_on_metric") || $0.hasPrefix("SCAN") || $0.contains("TEMP B-TREE")
                }, "\(plan)")
        }
    }

    /// Pages of any size read the same summaries in the same order: the runs' order, oldest first.
    @Test func pagesOfAnySizeReadTheSameSummaries() throws {
        let store = try StatsDatabase(writer: DatabaseQueue())
        for minute in 0..<5 {
            let id = String(format: "20261122T10%02d00Z-a%03d", minute, minute)
            try RetentionContract.record(RetentionContract.run(id, host: "alpha", minute: minute), in: store)
        }
        func read(page: Int, _ filter: SampleFilter = SampleFilter()) throws -> [StoredMetricSummary] {
            var items: [StoredMetricSummary] = []
            try store.read { db in
                try MetricSummaryQuery.forEach(
                    filter, metrics: [.wallNs, .cpuNs], placeholder: { _ in "?" }, page: page,
                    fetch: { try Row.fetchAll(db, sql: $0, arguments: StatementArguments($1)) }, { items.append($0) })
            }
            return items
        }
        let whole = try read(page: 250)
        #expect(whole.count == 5 * 2 * 2)
        #expect(whole.map(\.runStartedAt) == whole.map(\.runStartedAt).sorted())
        for page in [1, 2, 3] { #expect(try read(page: page) == whole) }
        // --last 2: the newest two runs.
        #expect(Set(try read(page: 1, SampleFilter(lastRuns: 2)).map(\.runID)).count == 2)
        #expect(try store.metricSummaries(matching: SampleFilter(), metrics: [.wallNs, .cpuNs]) == whole)
    }

}

/// Worker medians as the stores keep them: "round=median" text, and the JSON object by round that
/// the bench wrote for a few hours before (stores written then are read, not refused).
@Suite("Stats store: worker medians as stored")
struct WorkerMedianTextTests {
    @Test func theTextAndTheEarlierJSONReadTheSame() throws {
        let medians: [Int: Double] = [1: 3_951.5, 2: 1_498.5, 10: 1_936]
        #expect(try SummaryRows.workers(SummaryRows.workerText(medians)) == medians)
        #expect(try SummaryRows.workers(#"{"1":3951.5,"10":1936,"2":1498.5}"#) == medians)
        #expect(try SummaryRows.workers("") == [:])
        for unreadable in ["1=x", #"{"one":1}"#, "{", "1:2"] {
            #expect(throws: StatsStoreError.self) { try SummaryRows.workers(unreadable) }
        }
    }
}

/// Rows read by name with the positions of their columns found once per query: a row whose columns
/// come in another order (every row of the PostgreSQL store has an order of its own) is read by
/// its own.
@Suite("Stats store: rows read by column name")
struct NamedRowTests {
    @Test func rowsOfAnyColumnOrderAreReadByName() throws {
        let rows = try DatabaseQueue().read { db in
            try Row.fetchAll(db, sql: "SELECT 1 AS a, 'x' AS b, 2.5 AS c")
                + Row.fetchAll(db, sql: "SELECT 'y' AS b, 2 AS a, NULL AS c")
                + Row.fetchAll(db, sql: "SELECT 3 AS a, 'z' AS b, 4.5 AS c")
        }
        let named = NamedRow.rows(rows)
        #expect(named.map { $0["a"] as Int } == [1, 2, 3])
        #expect(named.map { $0["b"] as String } == ["x", "y", "z"])
        #expect(named.map { $0["c"] as Double? } == [2.5, nil, 4.5])
        #expect(named.map { $0["missing"] as Int? } == [nil, nil, nil])
    }
}
