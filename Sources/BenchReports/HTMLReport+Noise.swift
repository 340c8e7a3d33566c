import BenchResults

extension HTMLReport {
    /// A table: a header row, then rows of text.
    static func htmlTable(header: [String], rows: [[String]]) -> String {
        var html = "<table><thead><tr>" + header.map { "<th>\(e($0))</th>" }.joined() + "</tr></thead><tbody>"
        for row in rows { html += "<tr>" + row.map { "<td>\(e($0))</td>" }.joined() + "</tr>" }
        return html + "</tbody></table>"
    }

    /// Where each parse cell's noise lies (``NoiseLevels``) and what its next-run interval holds:
    /// the within-run interval, and the whole one when the run-to-run level was added.
    static func noiseLevels(_ cells: [CellSummary]) -> String {
        let rows: [[String]] = cells.filter { $0.cell.scenario.isParseFromMemory && $0.estimate != nil }.map { cell in
            let shares = cell.noiseLevels?.shares
            func share(_ value: Double?) -> String { value.map { Format.number($0 * 100, decimals: 0) + "%" } ?? "–" }
            let estimate = cell.estimate
            let within = estimate.map {
                "\(Format.ms($0.withinRunLow ?? $0.low))–\(Format.ms($0.withinRunHigh ?? $0.high))"
            }
            let whole = estimate.flatMap { e in e.runToRun.map { _ in "\(Format.ms(e.low))–\(Format.ms(e.high))" } }
            return [
                cell.cell.parser, Format.feedName(cell.cell.feedPath), share(shares?.parse), share(shares?.worker),
                share(shares?.run), cell.noiseLevels.map { String($0.runs) } ?? "–", within ?? "",
                whole ?? "within-run only",
            ]
        }
        guard !rows.isEmpty else { return "" }
        return "<h2>Where the noise is</h2>\n<p>The variance of one parse's time (on the log scale) split over the "
            + "levels at which the suite repeats: parses within a worker process, workers within a run, runs (Kalibera "
            + "&amp; Jones). The run level comes from this host's earlier runs in the store; where it dominates, more "
            + "rounds in one run cannot narrow what the next run reports. The next-run interval (ms) from this run's "
            + "workers alone, and with the run-to-run level added.</p>\n"
            + htmlTable(
                header: ["parser", "document", "parses", "workers", "runs", "runs seen", "within run", "next run"],
                rows: rows) + "\n"
    }
}
