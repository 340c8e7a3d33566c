import BenchResults
import Foundation

/// `bench report`: the stored runs' averages per parser, for each scenario, feed and network profile.
public enum HistoryReport {
    static let header =
        [
            "scenario", "feed", "network", "parser", "runs", "samples", "failed", "mean_ms", "median_ms", "cpu_mean_ms",
            "cpu_median_ms", "first_song_mean_ms", "first_song_median_ms", "download_mean_ms", "download_median_ms",
            "total_mean_ms", "total_median_ms", "peak_rss_mb", "chunk_size", "noisy_runs", "incomplete_runs",
            "parse_peak_mb",
            "instructions_median", "kind", "host", "cpu_model", "cores", "swift_version", "libxml2_version",
            "expat_version", "commits", "runs_before_preemption_rule", "document_bytes", "document_elements",
            "document_attributes", "document_text_bytes", "document_max_depth", "document_namespaces",
            "document_references",
        ] + Metric.keptByMetric.map { $0.column + "_median" }

    static func row(_ row: HistoryRow) -> [String] {
        let figures: [String] = [
            row.scenario.name, row.feedPath, row.network, row.parser, String(row.runs), String(row.samples),
            String(row.failed),
            Format.ms(row.wall?.mean), Format.ms(row.wall?.median), Format.ms(row.cpu?.mean),
            Format.ms(row.cpu?.median),
            Format.ms(row.firstSong?.mean), Format.ms(row.firstSong?.median), Format.ms(row.download?.mean),
            Format.ms(row.download?.median), Format.ms(row.total?.mean), Format.ms(row.total?.median),
            Format.mib(row.peakResidentMedianBytes, decimals: 2), row.chunkSize.map(String.init) ?? "",
            row.noisyRuns.map(String.init) ?? "", row.incompleteRuns.map(String.init) ?? "",
            Format.mib(row.parsePeakMedianBytes, decimals: 2), Format.number(row.instructions?.median, decimals: 0),
            row.kind ?? "", row.machine?.host ?? "", row.machine?.cpuModel ?? "",
            row.machine.map { String($0.cores) } ?? "",
            row.machine?.swiftVersion ?? "", row.machine?.libxml2Version ?? "", row.machine?.expatVersion ?? "",
            row.commits.map(String.init) ?? "", row.runsBeforePreemptionRule.map(String.init) ?? "",
        ]
        let shape: [Int]? = row.document.map { shape in
            [
                shape.bytes, shape.elements, shape.attributes, shape.textBytes, shape.maximumDepth, shape.namespaces,
                shape.references,
            ]
        }
        return figures + (shape?.map { String($0) } ?? Array(repeating: "", count: 7))
            + Metric.keptByMetric.map { Format.number(row.figures[$0]?.median, decimals: 0) }
    }

    public static func csv(_ rows: [HistoryRow]) -> String {
        CSV.document(header: header, rows: rows.map(row))
    }

    public static func json(_ rows: [HistoryRow]) throws -> String {
        try JSONDocument.text(rows)
    }

    static let tableHeader = [
        "parser", "kind", "runs", "noisy", "samples", "failed", "mean", "median", "CPU median", "1st song", "download",
        "total",
        "parse MiB", "worker MiB",
    ]

    static func tableRow(_ row: HistoryRow) -> [String] {
        [
            row.parser, row.kind ?? "", String(row.runs), row.noisyRuns.map(String.init) ?? "", String(row.samples),
            String(row.failed),
            Format.ms(row.wall?.mean), Format.ms(row.wall?.median), Format.ms(row.cpu?.median),
            Format.ms(row.firstSong?.median), Format.ms(row.download?.median), Format.ms(row.total?.median),
            Format.mib(row.parsePeakMedianBytes), Format.mib(row.peakResidentMedianBytes),
        ]
    }

    /// The tables: one per machine (when there are several), scenario, feed, chunk size, counter and
    /// network profile.
    static func groups(_ rows: [HistoryRow]) -> [(title: String, rows: [HistoryRow])] {
        let severalMachines = Set(rows.map(\.machine)).count > 1
        let rows =
            severalMachines
            ? rows.enumerated().sorted { a, b in
                // Machine by machine, each in the order the rows came.
                (a.element.machine?.label ?? "", a.offset) < (b.element.machine?.label ?? "", b.offset)
            }.map(\.element) : rows
        var order: [String] = []
        var groups: [String: [HistoryRow]] = [:]
        for row in rows {
            var title = "\(row.scenario): \(row.feedPath) (sha256 \(row.feedSHA256.prefix(12))…)"
            if severalMachines { title = "On \(row.machine?.label ?? "an unknown machine"): " + title }
            if row.scenario.isParseFromMemory, let chunk = row.chunkSize {
                title += chunk == 0 ? ", the whole feed at once" : ", chunks of \(chunk) bytes"
            }
            if row.instructions != nil { title += ", instructions counted" }
            if !row.network.isEmpty { title += ", network \(row.network)" }
            if groups[title] == nil { order.append(title) }
            groups[title, default: []].append(row)
        }
        return order.map { ($0, groups[$0] ?? []) }
    }

    /// The columns a terminal too narrow for all of them goes without, first to last (the CSV and
    /// JSON have every one).
    static let narrowDropOrder = ["worker MiB", "CPU median", "samples", "kind", "mean", "failed", "noisy"]

    /// The terminal's tables.
    ///
    /// - Parameters:
    ///   - rows: the rows, one per parser and cell.
    ///   - width: the terminal's width: each table goes without its empty columns and, when it is
    ///     still wider, without the columns of `narrowDropOrder` until it fits (a line under it
    ///     names them), and every line of text is wrapped; `nil`: every column, one line each.
    /// - Returns: the tables and their notes.
    public static func table(_ rows: [HistoryRow], width: Int? = nil) -> String {
        guard !rows.isEmpty else { return "No samples match.\n" }
        // The columns each table went without: one a narrower table kept is "in some tables" only.
        var hiddenByTable: [[String]] = []
        let blocks = groups(rows).map { group in
            var table = TextTable(header: tableHeader, rows: group.rows.map(tableRow))
            if let width {
                let fitted = table.fitted(width: width, indent: "  ", dropOrder: narrowDropOrder)
                table = fitted.table
                hiddenByTable.append(fitted.dropped)
            }
            return group.title + "\n" + (shapeLine(group.rows).map { "  \($0)\n" } ?? "") + table.render(indent: "  ")
        }
        let machines = Set(rows.compactMap(\.machine)).sorted()
        var notes =
            "Times in ms: one figure a run, the run's own (time, and a practice's total: the median of its workers' "
            + "medians, as its tables give them; CPU, 1st song, download and a download's total: the median of its "
            + "parses that succeeded and kept the CPU), "
            + "then the mean and median of those over the runs (no interval: runs of different moments are not one "
            + "sample); samples: the parses behind them; parse MiB: the median of the workers' parse's own peaks; worker MiB: of the workers' whole-life "
            + "peaks. noisy: runs the harness flagged noisy (their figures may be off)."
        if machines.count > 1 {
            notes +=
                " \(machines.count) machines (host, CPU, cores, library versions), each in its own tables: samples of "
                + "unlike machines are never averaged together; --host and --cpu choose."
        }
        let incomplete = rows.compactMap(\.incompleteRuns).reduce(0, +)
        if incomplete > 0 {
            notes +=
                " Includes the finished cells of \(incomplete) run-cell(s) of runs that did not finish (interrupted); "
                + "--exclude-incomplete leaves them out."
        }
        notes += pooledNotes(rows).map { " " + $0 }.joined()
        if let hidden = TextTable.hiddenColumns(hiddenByTable, order: narrowDropOrder) {
            notes += " Not shown at this width: \(hidden) (--format csv or json has every figure)."
        }
        let machine = machines.count == 1 ? machines.first.map { "On \($0.label).\n\n" } ?? "" : ""
        let text = machine + blocks.joined(separator: "\n\n") + "\n\n" + notes + "\n"
        return width.map { Format.wrap(text, width: $0) } ?? text
    }

    /// The measured shape of a group's document, in one line (`nil`: not a document cell, or no
    /// shape stored).
    static func shapeLine(_ rows: [HistoryRow]) -> String? {
        guard let shape = rows.first?.document else { return nil }
        // The figures as the run's own documents table writes them.
        let cells = RunReport.documentRow(shape)
        let namespaces = shape.namespaces == 1 ? "namespace" : "namespaces"
        return "Shape: \(cells[1]) bytes, \(cells[2]) elements, \(cells[3]) attributes per element, \(cells[4]) text, "
            + "depth \(cells[5]), \(cells[6]) \(namespaces), \(cells[7]) references per KB."
    }

    /// What the rows pool that a reader may not expect: builds of several commits, and runs stored
    /// before parses that lost the CPU were flagged (such parses are in their figures).
    static func pooledNotes(_ rows: [HistoryRow]) -> [String] {
        var notes: [String] = []
        if let commits = rows.compactMap(\.commits).max(), commits > 1 {
            notes.append(
                "Pooled: a row holds the builds of up to \(commits) commits (runs, not one build: a change of code is "
                    + "in the figures; bench compare judges one build against another; --since or --last-runs narrow the rows)."
            )
        }
        let before = rows.compactMap(\.runsBeforePreemptionRule).max() ?? 0
        if before > 0 {
            notes.append(
                "Pooled: up to \(before) run\(before == 1 ? "" : "s") a row stored before parses that lost the CPU were "
                    + "flagged: their such parses are in the figures (--since a later date leaves them out).")
        }
        return notes
    }

    public static func markdown(_ rows: [HistoryRow]) -> String {
        guard !rows.isEmpty else { return "No samples match.\n" }
        return groups(rows).map { group in
            "**\(group.title)**\n\n" + (shapeLine(group.rows).map { "\($0)\n\n" } ?? "")
                + MarkdownTable.render(
                    header: tableHeader, rows: group.rows.map(tableRow), rightAligned: Set(1..<tableHeader.count))
        }.joined(separator: "\n\n") + "\n"
            + pooledNotes(rows).map { "\n> \($0)\n" }.joined()
    }
}
