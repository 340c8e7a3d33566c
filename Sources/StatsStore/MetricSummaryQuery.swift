import BenchResults
import GRDB

/// The queries behind ``StatsStoring/forEachMetricSummary(matching:metrics:_:)``, in the SQL that
/// SQLite and PostgreSQL share: the rows of `metric_summaries` of some metrics, with their run and
/// its machine, chosen as ``SampleQuery`` chooses samples, read a page of runs at a time.
///
/// First the runs the filter chooses (``runs(_:placeholder:)``: the runs table alone, oldest
/// first), then their summaries a page of runs at a time, each run found by its key and its rows
/// through the index on `metric_summaries.run_id`: what a read holds at once, and what each query
/// goes through, is a page of runs, however many the store holds.
struct MetricSummaryQuery {
    var sql: String
    var arguments: [DatabaseValue]

    /// The runs a query reads at once: a few MB of rows.
    static let page = 250

    /// The summaries of `runs` (one page, not empty) of `metrics`, in the cells `filter` chooses
    /// (its run conditions are the run query's, ``runs(_:placeholder:)``), oldest run first.
    ///
    /// Written as a `CROSS JOIN` from the runs, which SQLite never reorders (it might otherwise go
    /// through every run's rows of a metric by the index on metrics).
    init(
        _ filter: SampleFilter, metrics: [Metric], runs: [String], columns: String = Self.columns,
        placeholder: @escaping (Int) -> String
    ) {
        var selection = SampleQuery.Conditions(placeholder: placeholder)
        selection.addIn("r.run_id", runs)
        selection.addIn("s.metric", metrics.map(\.column))
        selection.addSampleConditions(filter)
        sql = """
            SELECT \(columns)
            FROM runs r CROSS JOIN metric_summaries s
                LEFT JOIN cell_summaries c ON c.run_id = s.run_id AND c.position = s.position
            WHERE \((["s.run_id = r.run_id"] + selection.conditions).joined(separator: " AND "))
            ORDER BY r.started_at, s.run_id, s.position, s.metric
            """
        arguments = selection.arguments
    }

    /// A row's columns: the summary's, its cell's failures, its run's.
    static let columns = "s.*, c.failed AS cell_failed, " + SampleQuery.runColumns

    /// The runs whose summaries `filter` may choose (by its run conditions), oldest first: `columns`
    /// of `runs r`.
    static func runs(
        _ filter: SampleFilter, columns: String = "r.run_id", placeholder: @escaping (Int) -> String
    ) -> SummaryRows.Statement {
        var selection = SampleQuery.Conditions(placeholder: placeholder)
        selection.notDebug = "r.build_configuration <> 'debug'"
        selection.runID = "r.run_id"
        selection.addRunConditions(filter)
        let conditions = selection.conditions
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return SummaryRows.Statement(
            sql: "SELECT \(columns) FROM runs r \(whereClause) ORDER BY r.started_at, r.run_id",
            arguments: selection.arguments)
    }

    /// Reads the summaries `page` runs at a time, through `fetch` (a store's query: SQL, arguments).
    static func forEach(
        _ filter: SampleFilter, metrics: [Metric], placeholder: @escaping (Int) -> String, page: Int = Self.page,
        fetch: (String, [DatabaseValue]) throws -> [Row], _ body: (StoredMetricSummary) throws -> Void
    ) throws {
        let page = max(1, page)
        let runs = Self.runs(filter, placeholder: placeholder)
        let ids: [String] = try fetch(runs.sql, runs.arguments).compactMap { $0["run_id"] }
        for start in stride(from: 0, to: ids.count, by: page) {
            let query = MetricSummaryQuery(
                filter, metrics: metrics, runs: Array(ids[start..<min(start + page, ids.count)]),
                placeholder: placeholder)
            for row in NamedRow.rows(try fetch(query.sql, query.arguments)) {
                if let item = try stored(row) { try body(item) }
            }
        }
    }

    /// A row of the query (`nil`: a metric this bench does not know).
    static func stored(_ row: NamedRow) throws -> StoredMetricSummary? {
        guard let summary = try SummaryRows.metric(row) else { return nil }
        var stored = StoredMetricSummary(
            runID: row["run_id"], runStartedAt: row["run_started_at"], cell: SummaryRows.cell(row), summary: summary)
        stored.runNoisy = row["run_noisy"]
        stored.runComplete = row["run_complete"]
        stored.runGitCommit = row["run_git_commit"]
        stored.runRetriesPreempted = row["run_retry_preempted"]
        stored.machine = SampleQuery.machine(row)
        stored.cellFailed = row["cell_failed"]
        return stored
    }
}
