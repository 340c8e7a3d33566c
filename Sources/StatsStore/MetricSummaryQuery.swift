import BenchResults
import GRDB

/// The query behind ``StatsStoring/metricSummaries(matching:metrics:)``, in the SQL that SQLite and
/// PostgreSQL share: the rows of `metric_summaries` of some metrics, with their run and its machine,
/// chosen as ``SampleQuery`` chooses samples.
struct MetricSummaryQuery {
    var sql: String
    var arguments: [DatabaseValue]

    init(_ filter: SampleFilter, metrics: [Metric], placeholder: @escaping (Int) -> String) {
        var selection = SampleQuery.Conditions(placeholder: placeholder)
        selection.notDebug = "r.build_configuration <> 'debug'"
        selection.addIn("s.metric", metrics.map(\.column))
        selection.addSampleConditions(filter)
        selection.addRunConditions(filter)
        let conditions = selection.conditions
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        sql = """
            SELECT s.*, c.failed AS cell_failed, \(SampleQuery.runColumns)
            FROM metric_summaries s JOIN runs r ON r.run_id = s.run_id
                LEFT JOIN cell_summaries c ON c.run_id = s.run_id AND c.position = s.position
            \(whereClause) ORDER BY r.started_at, s.run_id, s.position
            """
        arguments = selection.arguments
    }

    /// A row of the query (`nil`: a metric this bench does not know).
    static func stored(_ row: Row) throws -> StoredMetricSummary? {
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
