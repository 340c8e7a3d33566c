import BenchResults
import Foundation

/// The HTML report: one self-contained file (inline CSS and SVG; no scripts, fonts or links to
/// fetch), well-formed XML, with a chart per figure: parse time with its interval, throughput, peak
/// memory, time to the first song per network profile, and each parser's history across runs.
public enum HTMLReport {
    /// One parser's figures in one group (scenario, feed).
    struct Figure {
        var parser: String
        var feed: String
        var feedBytes: Int
        var songs: Int
        var median: Double?
        var low: Double?
        var high: Double?
        var peak: Double?
        var peakOverBaseline: Double?
        var firstSong: Double?
        /// The parse's own peak, bytes.
        var parsePeak: Double? = nil
        var relative: RelativeSpeed? = nil
        /// malloc-family calls per parse, and the bytes they asked for.
        var allocations: Double? = nil
        var allocatedBytes: Double? = nil
        /// The parser's kind, its binding tax (÷ its C reference) and its multiple of the floor.
        var kind: String? = nil
        var bindingTax: RelativeSpeed? = nil
        var floorMultiple: RelativeSpeed? = nil
        /// Whether it is a document cell (`--workload document`: events, no songs).
        var document = false
        /// What the next-run interval (`low` … `high`) covers when it is short of 95%.
        var shortCoverage: ShortCoverage? = nil
    }

    /// What a chart's caption says of whiskers from fewer than 10 workers, whose next-run interval
    /// is no 95% one (the table's note says how much it covers: ``RunReport/nextRunCoverage(_:)``).
    static let shortOf95 = "; short of 95% with fewer than 10 workers, as the table says"

    /// How many stored runs a page draws its history from: the newest ones, whatever the store
    /// holds, so that what a page reads from the store does not grow with the store (a run's page
    /// the newest of the host's runs; the store's, of the runs its filter selects, whose tables are
    /// over them all).
    public static let runHistoryWindow = 30

    /// The metrics the store's page reads of its newest runs (``store(_:history:historyWindow:)``):
    /// a run's page's (`RunFigures.pageMetrics`) and the practices' (`PracticeFigures.storedMetrics`).
    public static let storeHistoryMetrics: [Metric] =
        RunFigures.pageMetrics + PracticeFigures.storedMetrics.filter { !RunFigures.pageMetrics.contains($0) }
    /// The metrics of ``storeHistoryMetrics`` whose workers' medians the store's page reads.
    public static let storeHistoryWorkerMedians: Set<Metric> = RunFigures.pageWorkerMedians.union(
        PracticeFigures.storedWorkerMedians)

    /// The report of one run.
    ///
    /// `history` holds the stored figures of the runs it draws (`RunFigures`, of
    /// `RunFigures.pageMetrics`: this one included, when it was recorded), for the history and the
    /// network profiles measured by other runs, a value a run and cell; `historyWindow`, the most
    /// runs it was read with (``runHistoryWindow``), named in the captions when the store held more.
    /// The practices drawn are the run's own.
    public static func run(_ result: RunResult, history: [RunFigures], historyWindow: Int? = nil) -> String {
        let environment = result.environment
        let parse = result.cells.filter { $0.cell.scenario.isParseFromMemory }.map { cell in
            Figure(
                parser: cell.cell.parser, feed: cell.cell.feedPath, feedBytes: cell.cell.feedBytes, songs: cell.songs,
                median: cell.time, low: cell.estimate?.low, high: cell.estimate?.high,
                peak: cell.peakResidentBytes.map(Double.init),
                peakOverBaseline: cell.peakOverBaselineBytes.map(Double.init),
                firstSong: cell.firstSongMedianNs, parsePeak: cell.parsePeakBytes.map(Double.init),
                relative: cell.relative,
                allocations: cell.allocations?.median, allocatedBytes: cell.allocatedBytes, kind: cell.kind,
                bindingTax: cell.bindingTax, floorMultiple: cell.floorMultiple,
                document: cell.cell.scenario.workload == .document, shortCoverage: ShortCoverage(cell.estimate))
        }
        var runs = history
        if !history.contains(where: { $0.runID == environment.runID }) {
            runs.append(
                RunFigures(result, metrics: RunFigures.pageMetrics, workerMedians: RunFigures.pageWorkerMedians))
        }
        var about = "Run \(environment.runID), \(environment.startedAt): \(environment.buildConfiguration) build"
        if let commit = environment.gitCommit { about += " of commit \(commit)" }
        about +=
            "; \(environment.swiftVersion); libxml2 \(environment.libxml2Version), expat \(environment.expatVersion); "
        about += "\(environment.cpuModel), \(environment.coresText); \(environment.os). "
        let settings = result.settings
        if result.cells.contains(where: { $0.cell.scenario.isParseFromMemory }) {
            let rounds = result.stopped?.rounds ?? settings.rounds
            about += "\(result.interrupted?.duringRounds == true ? "up to " : "")\(rounds) worker process"
            about += "\(rounds == 1 ? "" : "es") per parser"
            about += result.interrupted.map { " (\($0.phrase))" } ?? ""
            about += ", run side by side in rounds, "
            about +=
                "\(settings.iterations) timed parse\(settings.iterations == 1 ? "" : "s") each after \(settings.warmup) warm-up\(settings.warmup == 1 ? "" : "s"), "
                + "chunks of \(settings.chunkSize) bytes."
        } else {
            about +=
                "\(result.interrupted == nil ? "" : "up to ")\(settings.downloadWorkers) worker process"
                + "\(settings.downloadWorkers == 1 ? "" : "es") per cell, spread over "
                + "\(settings.rounds) rounds\(result.interrupted.map { " (\($0.phrase))" } ?? ""), "
                + "\(settings.downloadIterationsPerWorker) timed iterations each after "
                + "\(settings.downloadWarmupPerWorker) warm-up\(settings.downloadWarmupPerWorker == 1 ? "" : "s")."
        }
        if let sink = settings.timedSinkDescription {
            about += " " + sink.prefix(1).uppercased() + sink.dropFirst() + "."
        }
        if let stopped = result.stopped { about += " " + stopped.message }
        var warnings: [String] = []
        if let noise = result.noise {
            if noise.noisy {
                warnings += noise.warnings.map { "Noisy machine: \($0)" }
            } else {
                about += " " + RunReport.noiseLines(noise).joined(separator: " ")
            }
        }
        if let host = result.hostState {
            if host.moved {
                warnings.append(String(host.message.dropFirst(host.message.hasPrefix("HOST STATE: ") ? 12 : 0)))
            } else {
                about += " " + host.message
            }
        }
        if let runToRun = result.runToRun { about += " " + runToRun.message }
        if environment.isDebug { warnings.append("This is a debug build: its times are not representative.") }
        if let percent = result.settings.slowdownPercent, percent > 0 {
            warnings.append(
                "This run has an injected slowdown of \(percent)% (a test of the regression gate, not a measurement).")
        }
        if result.settings.counter == RunSettings.instructionCounter {
            warnings.append(
                "This run counted instructions and estimated cycles under valgrind: it has no times. See its table.")
        }
        let wrong = result.cells.filter { $0.cell.scenario == RunReport.notTimed }
            .map { "\($0.cell.parser) was not timed on \($0.cell.feedPath): \($0.outcome ?? "")" }
        return document(
            title: "XML parser benchmark — run \(environment.runID)", answer: RunReport.answer(result), about: about,
            warnings: warnings + wrong, parse: parse,
            history: .run(runs, practices: PracticeFigures.of(result.cells)),
            historyWindow: historyWindow,
            table: RunReport.table(result), sections: noiseLevels(result.cells))
    }

    /// The report of the stats store (`bench report --format html`): averages across the stored runs.
    ///
    /// `rows` are over every run the report chose; `history`, the stored figures its charts draw (the
    /// first song, the history, the practices), over the newest `historyWindow` of them at most
    /// (named in the charts' captions), read with ``storeHistoryMetrics`` and the workers' medians of
    /// ``storeHistoryWorkerMedians``.
    public static func store(_ rows: [HistoryRow], history: [RunFigures], historyWindow: Int? = nil) -> String {
        let severalMachines = Set(rows.map(\.machine)).count > 1
        let parse = rows.filter { $0.scenario.isParseFromMemory }.map { row in
            Figure(
                parser: severalMachines ? "\(row.parser) on \(row.machine?.host ?? "?")" : row.parser,
                feed: row.feedPath, feedBytes: row.feedBytes ?? 0, songs: 0, median: row.wall?.median,
                low: row.wall?.medianLow, high: row.wall?.medianHigh, peak: row.peakResidentMedianBytes,
                peakOverBaseline: nil, firstSong: row.firstSong?.median, parsePeak: row.parsePeakMedianBytes)
        }
        let runs = rows.map(\.runs).max() ?? 0
        let noisy = rows.compactMap(\.noisyRuns).max() ?? 0
        let about =
            "Averages over up to \(runs) stored run\(runs == 1 ? "" : "s") a row"
            + (noisy > 0 ? " (up to \(noisy) of them flagged noisy)" : "") + "; "
            + "each figure is over the runs of a parser on a feed and chunk size, one figure a run, the run's own (its "
            + "time, and a practice's total: the median of its workers' medians, as its tables give them; the others: "
            + "its median of the parses that succeeded and kept the CPU). "
            + "The whiskers are the interval of the median run's figure: they describe the stored runs."
        return document(
            title: "XML parser benchmark — stored runs", about: about, warnings: [], parse: parse,
            history: .store(history), historyWindow: historyWindow, table: HistoryReport.table(rows))
    }

    // MARK: - The page

    /// The figures of a page as they are added, numbered in order.
    final class FigureList {
        var body: String
        var number = 0

        init(body: String) {
            self.body = body
        }

        /// Adds a numbered figure: its chart and its caption.
        func add(_ svg: String, caption: String) {
            number += 1
            body += "<figure>\(svg)<figcaption>Figure \(number). \(e(caption))</figcaption></figure>\n"
        }

        /// Adds text (a heading, a paragraph) between the figures.
        func text(_ html: String) { body += html }
    }

    /// A report page: the heading, how to read it, the parse figures of each feed, the practices,
    /// the first song and the history, then the figures as text.
    static func document(
        title: String, answer: [String] = [], about: String, warnings: [String], parse: [Figure],
        history: HistoryFigures, historyWindow: Int? = nil, table: String, sections: String = ""
    ) -> String {
        var heading = "<h1>\(e(title))</h1>\n"
        for sentence in answer { heading += "<p class=\"answer\">\(e(sentence))</p>\n" }
        heading += "<p class=\"about\">\(e(about))</p>\n"
        for warning in warnings { heading += "<p class=\"warning\">\(e(warning))</p>\n" }
        let documents = parse.contains { $0.document }
        let figures = FigureList(body: heading + (documents ? documentIntroduction : introduction))
        let groups = Dictionary(grouping: parse, by: \.feed).sorted { $0.key < $1.key }
        if groups.isEmpty {
            figures.add(
                empty("parse-time", "No parse figures yet: run swift run -c release bench"), caption: "Parse time.")
        }
        documentOverview(parse, into: figures)
        for (index, (feed, feedFigures)) in groups.enumerated() {
            parseFigures(feedFigures, feed: feed, suffix: groups.count > 1 ? "-\(index + 1)" : "", into: figures)
        }
        historyFigures(history, window: historyWindow, into: figures)
        figures.text(sections)
        // The prose under the tables wrapped (the tables' rows, indented, scroll whole).
        let text = table.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(" ") ? String(line) : Format.wrap(String(line), width: 110)
        }.joined(separator: "\n")
        figures.text("<h2>Figures as text</h2>\n<pre>\(e(text))</pre>\n")
        return page(title: title, body: figures.body)
    }

    /// The practices (per machine when the history holds several: never one figure over unlike
    /// machines), the first song per network profile, and each parser's history.
    ///
    /// `window`: the most runs `history` was read with; when it holds that many, the store may hold
    /// more, and the captions say which runs it draws.
    static func historyFigures(_ history: HistoryFigures, window: Int? = nil, into figures: FigureList) {
        for (machine, practices) in history.practices where !practices.isEmpty {
            if let machine { figures.text("<h3>On \(e(machine.label))</h3>\n") }
            practiceSections(
                practices, ofStore: history.ofStore, figure: { figures.add($0, caption: $1) }, text: figures.text)
        }
        // The window, when the history filled it: there may be more runs than it drew.
        let full = window.flatMap { history.runs >= $0 ? $0 : nil }
        let which =
            switch (full, history.ofStore) {
            case (let window?, false):
                "in the newest \(window) stored runs (the store may hold more: bench report's tables are over them all)"
            case (let window?, true):
                "in the newest \(window) of the runs the report chose (its tables are over them all)"
            case (nil, false): "in every stored run"
            case (nil, true): "in every run the report chose"
            }
        if let chart = history.firstSong {
            figures.add(
                chart,
                caption:
                    "Time to the first song, per network profile: how long a user waits before the first song can be shown. "
                    + "Download profiles measure from the request; in memory, from the start of the parse. Each profile has its own scale."
                    + " Each bar is the median of the runs' medians (a run one value) \(which), of any host."
            )
        }
        guard let chart = history.history else { return }
        figures.add(
            chart,
            caption:
                "History: each parser's median parse time \(which), oldest first (parse scenario, the most measured feed). "
                + "A jump shared by every parser is the machine; one parser's own jump is a change. A dashed line in a parser's colour "
                + "marks where bench history finds its calibrated time shifted (hover it for the run, commit and interval). "
                + "Runs of several machines "
                + "(host, CPU, library versions): a chart per parser with one line per machine.")
    }
}
