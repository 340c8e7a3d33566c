import ArgumentParser
import BenchEngine
import BenchReports
import BenchResults
import FeedParsers
import Foundation
import StatsStore

/// `bench report`: averages per parser from the stats store.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the stored runs' averages per parser, for each scenario, feed and network profile.",
        discussion: """
            Like the original study's statistics screen: one row per parser for each scenario, feed, chunk size \
            and network profile (samples that differ in any of these are never pooled). It reads the summaries \
            stored with each run, not the raw samples: each time is over the runs, one figure a run, the run's \
            own (time: the median of its workers' medians, as the run's table gives it; the others: the median \
            of the cell's clean parses); samples counts the parses behind those figures. Failed samples, parses \
            that lost the CPU, debug builds and runs with an injected slowdown (gate tests) are left out; the \
            noisy column counts the runs the harness flagged noisy. The finished cells of runs that did not \
            finish (interrupted) are included, and counted in the notes and the CSV's incomplete_runs, unless \
            --exclude-incomplete. A store shared by several machines (--store postgres://…) has rows per machine: \
            host, CPU model and library versions; samples of unlike machines are never averaged together. \
            --host and --cpu choose machines.
            """)

    @OptionGroup var parserOptions: ParserOptions

    @OptionGroup var cells: CellSelection

    @Option(
        name: .customLong("cpu"), parsing: .singleValue,
        help: "Only runs on a CPU whose model contains this text, in any case (comma-separated or repeated; e.g. xeon)."
    )
    var cpus: [String] = []

    @Option(help: "Only runs started at or after this time (ISO 8601, e.g. 2026-11-22 or 2026-11-22T10:00:00Z).")
    var since: String?

    @Option(help: "Only the newest N runs.")
    var last: Int?

    @Flag(name: .customLong("include-debug"), help: "Include samples of debug builds.")
    var includeDebug = false

    @OptionGroup var inclusion: RunInclusion

    @Option(
        help: ArgumentHelp(
            "table, csv, json, markdown, html (a self-contained page with charts, history included), or for other tools "
                + "\(ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    )
    var format: ReportFormat = .table

    @OptionGroup var storeOptions: StoreOptions

    var store: String { storeOptions.store }

    func validate() throws {
        if let last, last < 1 { throw ValidationError("--last must be at least 1") }
        try SinceOption.validate(since)
    }

    func run() throws {
        let database = try storeOptions.open(mustExist: true, readOnly: true)
        let filter = SampleFilter(
            parsers: parserOptions.names, scenarios: cells.scenarioNames, feed: cells.feed, since: since,
            lastRuns: last, includeDebug: includeDebug, includeGateTests: inclusion.includeGateTests,
            excludeIncomplete: inclusion.excludeIncomplete, hosts: cells.hostNames, cpus: ListArgument.split(cpus))
        // The runs' stored summaries, not their samples, read a page of runs at a time: what the
        // report holds is its rows' figures, a value a run.
        var aggregator = HistoryRow.Aggregator()
        try database.forEachRunFigures(
            matching: filter, metrics: HistoryRow.summarisedMetrics, workerMedians: HistoryRow.workerMetrics
        ) { aggregator.add($0) }
        var rows = aggregator.rows()
        for index in rows.indices { rows[index].kind = ParserRegistry.kind(of: rows[index].parser)?.rawValue }
        if rows.contains(where: { $0.scenario.workload == .document }) {
            let shapes = try database.documentShapes()
            for index in rows.indices where rows[index].scenario.workload == .document {
                rows[index].document = shapes[rows[index].feedSHA256]
            }
        }
        if rows.isEmpty && !includeDebug {
            var withDebug = filter
            withDebug.includeDebug = true
            let hidden = Set(
                try database.metricSummaries(matching: withDebug, metrics: [.wallNs, .instructions]).map(\.runID)
            ).count
            if hidden > 0 {
                printError("\(hidden) run(s) of debug builds match but are left out; --include-debug shows them.")
            }
        }
        if rows.isEmpty && !(cells.hosts.isEmpty && cpus.isEmpty) {
            // Say which machines there are, so that a misspelt host is not taken for an empty history.
            let machines = Set(try database.runs().map { "\($0.host) (\($0.cpuModel))" }).sorted()
            printError(
                "no runs of that host or CPU; the store has runs of: "
                    + (machines.isEmpty ? "none" : machines.joined(separator: ", ")))
        }
        switch format {
        case .table: print(HistoryReport.table(rows, width: Terminal(quiet: true).width), terminator: "")
        case .csv: print(HistoryReport.csv(rows), terminator: "")
        case .json: print(try HistoryReport.json(rows), terminator: "")
        case .markdown: print(HistoryReport.markdown(rows), terminator: "")
        case .html:
            // The charts draw the stored figures of the newest runs only: what the page reads is bounded.
            let window = HTMLReport.runHistoryWindow
            var newest = filter
            newest.lastRuns = min(last ?? window, window)
            var history: [RunFigures] = []
            try database.forEachRunFigures(
                matching: newest, metrics: HTMLReport.storeHistoryMetrics,
                workerMedians: HTMLReport.storeHistoryWorkerMedians
            ) { history.append($0) }
            print(HTMLReport.store(rows, history: history, historyWindow: window), terminator: "")
        case .export(let export): print(try export.write(ExportPoint.points(rows)), terminator: "")
        }
    }
}
