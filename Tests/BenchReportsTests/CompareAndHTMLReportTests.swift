@testable import BenchReports
import BenchResults
import BenchTestSupport
import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Checks that a Markdown table is well-formed: a header, a rule with one cell per column, and
/// rows with as many cells (escaped pipes do not count).
func checkMarkdownTables(_ markdown: String) -> Int {
    let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    func cells(_ line: String) -> Int {
        line.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count - 1
    }
    var tables = 0
    var index = 0
    while index < lines.count {
        guard lines[index].hasPrefix("|"), index + 1 < lines.count,
            lines[index + 1].hasPrefix("|--") || lines[index + 1].hasPrefix("|---")
        else {
            index += 1
            continue
        }
        tables += 1
        let columns = cells(lines[index])
        #expect(columns >= 2)
        let rule = lines[index + 1]
        #expect(cells(rule) == columns, "rule: \(rule)")
        #expect(rule.split(separator: "|").allSatisfy { $0.allSatisfy { "-:".contains($0) } })
        index += 2
        while index < lines.count, lines[index].hasPrefix("|") {
            #expect(cells(lines[index]) == columns, "row: \(lines[index])")
            #expect(lines[index].hasSuffix("|"))
            index += 1
        }
    }
    return tables
}

/// Elements of an XML document, in order, with the elements that enclose them.
final class ElementCollector: NSObject, XMLParserDelegate {
    var stack: [String] = []
    var elements: [(name: String, ancestors: [String], attributes: [String: String])] = []

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        elements.append((elementName, stack, attributes))
        stack.append(elementName)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        stack.removeLast()
    }
}

@Suite("Compare, Markdown and HTML reports")
struct CompareAndHTMLReportTests {
    static func comparison() -> RunComparison {
        let a = SyntheticRuns.run(
            id: "20261122T100000Z-aaaa", started: "2026-11-22T10:00:00Z",
            rounds: [
                "expat": Array(repeating: 1e7, count: 6), "libxml2": Array(repeating: 6e6, count: 6), "null": [400],
            ],
            iterations: 9)
        var b = SyntheticRuns.run(
            id: "20261122T100100Z-bbbb", started: "2026-11-22T10:01:00Z",
            rounds: [
                "expat": Array(repeating: 1.3e7, count: 6), "foundation": Array(repeating: 1.5e7, count: 6),
                "null": [400],
            ],
            iterations: 9)
        b.settings.slowdownPercent = 10
        return RunComparison.compare(baseline: [a], current: [b], metric: .wall, threshold: 0.05)
    }

    @Test func compareMarkdownIsAWellFormedTableWithEveryCell() {
        let comparison = Self.comparison()
        let markdown = CompareReport.markdown(comparison)
        #expect(checkMarkdownTables(markdown) == 1)
        #expect(markdown.contains("❌"))
        #expect(markdown.contains("**slower**"))
        for parser in ["expat", "libxml2", "foundation", "null"] { #expect(markdown.contains("| \(parser) |")) }
        #expect(markdown.contains("only in the baseline"))
        #expect(markdown.contains("injected slowdown"))
        let table = CompareReport.table(comparison)
        #expect(table.contains("SLOWER"))
        #expect(table.hasPrefix("1 regression in 1 compared cell"))
    }

    @Test func compareJSONRoundTrips() throws {
        let comparison = Self.comparison()
        let decoded = try JSONDecoder().decode(RunComparison.self, from: Data(CompareReport.json(comparison).utf8))
        #expect(decoded == comparison)
    }

    @Test func runMarkdownTablesAreWellFormed() {
        let run = SyntheticRuns.run(
            id: "r", started: "2026-11-22T10:00:00Z", rounds: ["expat": [1e7], "libxml2": [6e6], "null": [400]],
            iterations: 5)
        let markdown = RunReport.markdown(run)
        #expect(checkMarkdownTables(markdown) == 1)
        let counted = SyntheticRuns.run(
            id: "c", started: "2026-11-22T10:00:00Z", rounds: ["expat": [4e7]], iterations: 4, instructions: true,
            cyclesPerInstruction: 1.5)
        let countedMarkdown = RunReport.markdown(counted)
        #expect(checkMarkdownTables(countedMarkdown) == 1)
        #expect(countedMarkdown.contains("instructions (median)"))
        // The estimated cycles beside them: 1.5 × the median count, in the table, the CSV and the JSON.
        let cycles = counted.cells.first?.statistics(.estimatedCycles)?.median ?? 0
        #expect(abs(cycles - 60_000_000) <= 1)
        #expect(countedMarkdown.contains("est. cycles") && countedMarkdown.contains(Format.number(cycles, decimals: 0)))
        let csv = RunReport.summaryCSV(counted.cells).split(whereSeparator: \.isNewline)
        #expect(
            csv.first?.contains(",estimated_cycles_median,estimated_cycles_min,estimated_cycles_max,") == true,
            "\(csv.first ?? "")")
        #expect(csv.dropFirst().first?.contains(Format.number(cycles, decimals: 0)) == true)
        #expect((try? RunReport.json(counted))?.contains("\"estimatedCycles\" : {") == true)
    }

    static func parse(_ html: String) throws -> ElementCollector {
        let collector = ElementCollector()
        let parser = XMLParser(data: Data(html.utf8))
        parser.delegate = collector
        let ok = parser.parse()
        #expect(ok, "not well-formed: \(String(describing: parser.parserError))")
        #expect(collector.stack.isEmpty)
        return collector
    }

    static func checkSelfContained(_ html: String, _ elements: ElementCollector) {
        #expect(!elements.elements.contains { ["script", "link", "img", "iframe", "object"].contains($0.name) })
        #expect(!html.contains("@import") && !html.contains("url("))
        // The only URLs are namespace names.
        let urls = html.components(separatedBy: "http").count - 1
        #expect(urls == html.components(separatedBy: "xmlns=\"http").count - 1)
    }

    static func figures(_ elements: ElementCollector) -> [String: Int] {
        var charts: [String: Int] = [:]
        var figureCount = 0
        for element in elements.elements {
            if element.name == "figure" { figureCount += 1 }
            if element.name == "svg" {
                #expect(element.ancestors.last == "figure", "every chart sits in a figure")
                charts[element.attributes["id"] ?? "", default: 0] += 1
            }
        }
        #expect(figureCount == charts.values.reduce(0, +), "one chart per figure")
        return charts
    }

    @Test func runHTMLIsWellFormedSelfContainedWithOneChartPerFigure() throws {
        let run = SyntheticRuns.run(
            id: "20261122T100000Z-aaaa", started: "2026-11-22T10:00:00Z",
            rounds: [
                "expat": [1e7, 1.1e7], "libxml2": [6e6, 6.2e6], "foundation": [1.5e7, 1.4e7], "null": [400, 500],
            ],
            iterations: 6)
        let older = SyntheticRuns.run(
            id: "20261121T100000Z-cccc", started: "2026-11-21T10:00:00Z", rounds: ["expat": [1.2e7], "libxml2": [7e6]],
            iterations: 6)
        // A download on a 3G profile, with first songs.
        var download = run.samples[0]
        download.cell.scenario = .download
        download.cell.network = "3g"
        download.firstSongNs = 322_000_000
        let downloadRun = RunFigures(
            runID: "20261120T100000Z-dddd", startedAt: "2026-11-20T10:00:00Z",
            cells: [
                .init(
                    cell: download.cell, failed: 0,
                    figures: [.init(metric: .firstSongNs, count: 1, median: 322_000_000, workerMedians: [])])
            ])
        let history = [downloadRun] + [older, run].map(Self.figures)

        var noisy = run
        noisy.noise = NoiseReport(
            noisy: true, warnings: ["Other tasks were waiting for a CPU 40% of the time"], unranked: [],
            preemptedShare: 0.01,
            largestSpread: 0.1, load: nil)
        let html = HTMLReport.run(noisy, history: history)
        let elements = try Self.parse(html)
        Self.checkSelfContained(html, elements)
        let charts = Self.figures(elements)
        #expect(
            charts == [
                "relative": 1, "parse-time": 1, "throughput": 1, "peak-memory": 1, "first-song": 1, "history": 1,
            ])
        #expect(html.contains("Noisy machine: Other tasks were waiting for a CPU 40% of the time"))
        #expect(html.contains("Time relative to libxml2"))
        // The same warning heads the terminal table and the Markdown.
        #expect(RunReport.header(noisy).contains("NOISY MACHINE: Other tasks were waiting"))
        #expect(RunReport.markdown(noisy).contains("⚠️ NOISY MACHINE"))
        #expect(RunReport.header(run).contains("NOISY") == false)
        // History: a line per parser that has two runs, a point per run.
        #expect(html.contains("<polyline"))
        #expect(html.contains("network profile: 3g"))
        #expect(html.contains("How to read this"))
    }

    /// A run's page draws the history it was given, read with a window of the newest runs
    /// (`bench run` reads ``HTMLReport/runHistoryWindow`` runs, however many the store holds): the
    /// caption says which runs those are when the window was full, "every stored run" otherwise.
    @Test func aRunsHistoryNamesTheWindowItWasReadWith() throws {
        let runs = (0..<3).map { day in
            SyntheticRuns.run(
                id: "2026112\(day)T100000Z-aaa\(day)", started: "2026-11-2\(day)T10:00:00Z",
                rounds: ["expat": [1e7, 1.1e7], "libxml2": [6e6, 6.2e6]], iterations: 4)
        }
        let history = runs.map(Self.figures)
        let full = HTMLReport.run(runs[2], history: history, historyWindow: 3)
        #expect(full.contains("in the newest 3 stored runs (the store may hold more"))
        #expect(!full.contains("in every stored run"))
        let roomy = HTMLReport.run(runs[2], history: history, historyWindow: HTMLReport.runHistoryWindow)
        #expect(roomy.contains("in every stored run"))
        #expect(!roomy.contains("the store may hold more"))
    }

    /// A run's page draws the stored figures of its runs, not their samples: the first song per
    /// profile is the median of the runs' medians (a run one value, "median of N runs"); the
    /// history, a point a run at its time as its table gave it (a parse that lost the CPU counts
    /// in none).
    @Test func aRunsPageDrawsTheRunsFigures() throws {
        var runs = (0..<3).map { day in
            SyntheticRuns.run(
                id: "2026112\(day)T100000Z-aaa\(day)", started: "2026-11-2\(day)T10:00:00Z",
                rounds: ["expat": [1e7 + Double(day) * 1e5, 1.1e7], "libxml2": [6e6, 6.2e6 - Double(day) * 1e4]],
                iterations: 4)
        }
        var lost = runs[1].samples[0]
        lost.wallNs = 90_000_000
        lost.preempted = true
        runs[1].samples.append(lost)
        let figures = runs.map(Self.figures)
        let fromFigures = try #require(HTMLReport.historyChart(runs: figures))
        // Each run's expat point: the median of its workers' medians (1e7 + day × 1e5 and 1.1e7 ns),
        // 10.50, 10.55 and 10.60 ms; the parse that lost the CPU (90 ms) moves none.
        for (day, run) in runs.enumerated() {
            let tip = "expat, run \(run.environment.runID): \(Format.ms(1.05e7 + Double(day) * 5e4)) ms"
            #expect(fromFigures.contains(tip), "no point \(tip)")
        }
        #expect(fromFigures.components(separatedBy: "<title>expat, run ").count == 4)

        // First songs on 3G: the runs' medians 2, 10 and 4.5 ms, their median 4.5 ms (the six samples' median: 3.5 ms).
        let firstSongs: [[Int]] = [[1, 2, 3], [10], [4, 5]]
        var download = runs[0].samples[0]
        download.cell.scenario = .download
        download.cell.network = "3g"
        let withSongs = zip(runs, firstSongs).map { run, songs in
            songs.map { milliseconds in
                var sample = download
                sample.firstSongNs = milliseconds * 1_000_000
                return StoredSample(
                    runID: run.environment.runID, runStartedAt: run.environment.startedAt, sample: sample)
            }
        }
        let songRuns = zip(runs, withSongs).map { run, stored in
            RunFigures(
                runID: run.environment.runID, startedAt: run.environment.startedAt,
                cells: [
                    .init(
                        cell: download.cell, failed: 0,
                        figures: MetricSummary.of(stored.map(\.sample)).filter { $0.metric == .firstSongNs }.map {
                            RunFigures.Figure($0)
                        })
                ])
        }
        let ofRuns = try #require(HTMLReport.firstSongChart(runs: songRuns))
        #expect(ofRuns.contains("4.50 ms (median of 3 runs)") && !ofRuns.contains("n = "))
        let page = HTMLReport.run(runs[2], history: songRuns + figures, historyWindow: 3)
        #expect(page.contains("(median of 3 runs)"))
        #expect(page.contains("medians (a run one value) in the newest 3 stored runs (the store may hold more"))
    }

    /// A run's figures as a store keeps them for its page (``RunFigures/pageMetrics``).
    static func figures(_ run: RunResult) -> RunFigures {
        RunFigures(run, metrics: RunFigures.pageMetrics, workerMedians: RunFigures.pageWorkerMedians)
    }

    /// A run's figures as a store keeps them for the store's page (``HTMLReport/storeHistoryMetrics``).
    static func storeFigures(_ run: RunResult) -> RunFigures {
        RunFigures(
            run, metrics: HTMLReport.storeHistoryMetrics, workerMedians: HTMLReport.storeHistoryWorkerMedians)
    }

    /// The store's page draws the stored figures of the runs it was given (a store pruned of its
    /// samples draws the same), and its captions name them as the report's: its tables are over
    /// every run the report chose, its charts over the newest of them.
    @Test func theStoresPageDrawsTheRunsFigures() throws {
        let runs = (0..<3).map { day in
            SyntheticRuns.run(
                id: "2026112\(day)T100000Z-aaa\(day)", started: "2026-11-2\(day)T10:00:00Z",
                rounds: ["expat": [1e7 + Double(day) * 1e5, 1.1e7], "libxml2": [6e6, 6.2e6]], iterations: 4)
        }
        let figures = runs.map(Self.storeFigures)
        var aggregator = HistoryRow.Aggregator()
        figures.forEach { aggregator.add($0) }
        let full = HTMLReport.store(aggregator.rows(), history: figures, historyWindow: 3)
        let charts = Self.figures(try Self.parse(full))
        #expect(charts["history"] != nil, "\(charts.keys)")
        #expect(try #require(HTMLReport.historyChart(runs: figures)).contains("expat, run 20261121T100000Z-aaa1"))
        #expect(full.contains("in the newest 3 of the runs the report chose (its tables are over them all)"))
        #expect(!full.contains("the store may hold more"))
        let roomy = HTMLReport.store(aggregator.rows(), history: figures, historyWindow: HTMLReport.runHistoryWindow)
        #expect(roomy.contains("in every run the report chose"))
    }

    @Test func storeHTMLAndAnEmptyStoreStayWellFormed() throws {
        let run = SyntheticRuns.run(
            id: "20261122T100000Z-aaaa", started: "2026-11-22T10:00:00Z", rounds: ["expat": [1e7], "libxml2": [6e6]],
            iterations: 6)
        let history = run.samples.map {
            StoredSample(runID: run.environment.runID, runStartedAt: run.environment.startedAt, sample: $0)
        }
        let html = HTMLReport.store(HistoryRow.aggregate(history), history: [Self.storeFigures(run)])
        let charts = Self.figures(try Self.parse(html))
        // No first-song figure without first songs, no history chart of one run (one dot a parser).
        #expect(charts.count == 3 && charts["history"] == nil && charts["first-song"] == nil, "\(charts.keys)")
        let empty = HTMLReport.store([], history: [])
        let emptyCharts = Self.figures(try Self.parse(empty))
        #expect(emptyCharts.keys.sorted() == ["parse-time"])
        // Text from the runs is escaped.
        var odd = run
        odd.environment.gitCommit = "<script>&\"'"
        let escaped = HTMLReport.run(odd, history: [])
        _ = try Self.parse(escaped)
        #expect(!escaped.contains("<script>"))
    }
}
