import BenchResults
import Foundation

/// The reports of one run: a table per scenario and feed, the summary and samples CSV, JSON, Markdown.
public enum RunReport {
    /// The columns of `<run-id>-summary.csv`, in order.
    public static let summaryColumns = summaryFields.map(\.name)

    /// What a summary row's columns may read besides the cell: the run's noise verdict and its timed sink.
    struct SummaryContext {
        var noise: NoiseReport?
        var timedSink: String?
    }

    /// A column of the summary CSV and its value: the one list of its columns, each named beside
    /// the code that fills it (a new column goes at the end).
    struct SummaryField: Sendable {
        var name: String
        var value: @Sendable (CellSummary, SummaryContext) -> String
    }

    static let summaryFields: [SummaryField] = {
        func text(_ name: String, _ value: @escaping @Sendable (CellSummary) -> String) -> SummaryField {
            SummaryField(name: name) { cell, _ in value(cell) }
        }
        func ms(_ name: String, _ value: @escaping @Sendable (CellSummary) -> Double?) -> SummaryField {
            text(name) { Format.ms(value($0)) }
        }
        func number(_ name: String, _ decimals: Int, _ value: @escaping @Sendable (CellSummary) -> Double?)
            -> SummaryField
        {
            text(name) { Format.number(value($0), decimals: decimals) }
        }
        func mib(_ name: String, _ value: @escaping @Sendable (CellSummary) -> Int?) -> SummaryField {
            text(name) { Format.mib(value($0).map(Double.init), decimals: 2) }
        }
        /// A count's median, minimum and maximum, under these three names.
        func counts(_ names: [String], _ value: @escaping @Sendable (CellSummary) -> Statistics?) -> [SummaryField] {
            zip(names, [\Statistics.median, \.min, \.max]).map { name, figure in
                number(name, 0) { value($0)?[keyPath: figure] }
            }
        }
        /// A ratio's four columns: against which parser, the estimate, the interval.
        func ratio(_ names: [String], _ value: @escaping @Sendable (CellSummary) -> RelativeSpeed?) -> [SummaryField] {
            [
                text(names[0]) { value($0)?.reference ?? "" }, number(names[1], 4) { value($0)?.ratio },
                number(names[2], 4) { value($0)?.low }, number(names[3], 4) { value($0)?.high },
            ]
        }
        let identity = [
            text("parser") { $0.cell.parser }, text("scenario") { $0.cell.scenario.name },
            text("feed") { $0.cell.feedPath }, text("feed_bytes") { String($0.cell.feedBytes) },
            text("songs") { String($0.songs) }, text("chunk_size") { String($0.cell.chunkSize) },
            text("network") { $0.cell.network },
        ]
        let wall = [
            text("n") { String($0.wall?.count ?? 0) }, ms("mean_ms") { $0.wall?.mean }, ms("median_ms") { $0.time },
            ms("sd_ms") { $0.wall?.standardDeviation }, ms("min_ms") { $0.wall?.min }, ms("max_ms") { $0.wall?.max },
            ms("p90_ms") { $0.wall?.p90 }, ms("ci95_low_ms") { $0.estimate?.low ?? $0.wall?.medianLow },
            ms("ci95_high_ms") { $0.estimate?.high ?? $0.wall?.medianHigh },
            number("mbps", 2) { $0.megabytesPerSecond }, ms("cpu_median_ms") { $0.cpuMedianNs },
            ms("first_song_ms") { $0.firstSongMedianNs }, mib("peak_rss_mb") { $0.peakResidentBytes },
            mib("peak_over_baseline_mb") { $0.peakOverBaselineBytes }, text("failed") { String($0.failed) },
            text("feed_sha256") { $0.cell.feedSHA256 },
            number("ci95_coverage", 4) { $0.estimate?.coverage ?? $0.wall?.medianCoverage },
            text("outcome") { $0.outcome ?? $0.lostTheCPUNote ?? "" },
        ]
        let download = [
            ms("download_ms") { $0.downloadMedianNs }, ms("total_ms") { $0.totalMedianNs },
            number("overlap", 3) { $0.overlap }, number("bytes", 0) { $0.bytesMedian },
            text("http_status") { $0.httpStatus.map(String.init) ?? "" },
        ]
        let workers = [
            text("workers") { $0.estimate.map { String($0.workers) } ?? "" },
            number("worker_spread", 4) { $0.workerSpread },
        ]
        let memory = [
            mib("parse_peak_mb") { $0.parsePeakBytes }, text("preempted") { $0.preempted.map(String.init) ?? "" },
            SummaryField(name: "noisy") { _, context in context.noise.map { $0.noisy ? "1" : "0" } ?? "" },
        ]
        let allocations =
            counts(["allocations", "allocations_min", "allocations_max"]) { $0.allocations }
            + [number("allocated_bytes", 0) { $0.allocatedBytes }, number("kept_bytes", 0) { $0.keptBytes }]
        let sink = SummaryField(name: "timed_sink") { cell, context in
            cell.cell.scenario.workload == .document ? context.timedSink ?? "" : ""
        }
        var fields = identity + wall + download
        fields += counts(["instructions_median", "instructions_min", "instructions_max"]) { $0.instructions }
        fields += workers
        fields += ratio(["relative_to", "relative", "relative_ci95_low", "relative_ci95_high"]) { $0.relative }
        fields += memory + allocations + [text("kind") { $0.kind ?? "" }]
        fields += ratio(["c_reference", "c_tax", "c_tax_ci95_low", "c_tax_ci95_high"]) { $0.bindingTax }
        fields += ratio(["floor", "floor_multiple", "floor_multiple_ci95_low", "floor_multiple_ci95_high"]) {
            $0.floorMultiple
        }
        fields.append(sink)
        for metric in Metric.keptByMetric {
            fields += counts(["median", "min", "max"].map { metric.column + "_" + $0 }) { $0.statistics(metric) }
        }
        return fields
    }()

    /// The columns of `<run-id>-samples.csv`, in order: the cell and the iteration, then every
    /// stored `Metric` in its order, with `error` and `debug` after the peak and `preempted` after
    /// the instructions, where the first versions had them (a new metric is a new last column).
    public static let sampleColumns = ["run_id"] + sampleFields.map(\.name)

    /// A column of the samples CSV and its value.
    struct SampleField: Sendable {
        var name: String
        var value: @Sendable (Sample) -> String
    }

    static let sampleFields: [SampleField] = {
        func text(_ name: String, _ value: @escaping @Sendable (Sample) -> String) -> SampleField {
            SampleField(name: name, value: value)
        }
        var fields = [
            text("parser") { $0.cell.parser }, text("scenario") { $0.cell.scenario.name },
            text("feed") { $0.cell.feedPath }, text("feed_sha256") { $0.cell.feedSHA256 },
            text("feed_bytes") { String($0.cell.feedBytes) }, text("songs") { String($0.songs) },
            text("chunk_size") { String($0.cell.chunkSize) }, text("network") { $0.cell.network },
            text("round") { String($0.round) }, text("iteration") { String($0.iteration) },
        ]
        for metric in Metric.stored {
            fields.append(text(metric.csvColumn) { $0[metric].map(String.init) ?? "" })
            if metric == .peakResidentBytes {
                fields += [text("error") { $0.error ?? "" }, text("debug") { $0.debug ? "1" : "0" }]
            }
            if metric == .instructions {
                fields.append(text("preempted") { $0.preempted.map { $0 ? "1" : "0" } ?? "" })
            }
        }
        return fields
    }()

    /// One row per cell.
    ///
    /// `median_ms` and `ci95_*` are the headline figure and its interval over the
    /// workers (`CellSummary.estimate`: the interval the next run's figure should fall in); `n`, `mean_ms`, `sd_ms`, `min_ms`, `max_ms` and `p90_ms`
    /// describe every clean iteration.
    /// `noise` fills the column `noisy` (the run's verdict, on every row): 1, 0, or empty when
    /// not assessed. `timedSink` (`RunSettings.timedSink`) fills `timed_sink` on document cells: the
    /// event sink their times include.
    public static func summaryCSV(_ cells: [CellSummary], noise: NoiseReport? = nil, timedSink: String? = nil)
        -> String
    {
        let context = SummaryContext(noise: noise, timedSink: timedSink)
        return CSV.document(
            header: summaryColumns, rows: cells.map { cell in summaryFields.map { $0.value(cell, context) } })
    }

    /// A ratio and its interval in one cell of a table: "1.04 (1.02–1.06)", or "1.04" when the
    /// interval is a point (exact counts).
    static func ratioWithInterval(_ value: RelativeSpeed?) -> String {
        guard let value else { return "" }
        guard let (range, level) = interval(value), ratio(value.low ?? 0) != ratio(value.high ?? 0) else {
            return ratio(value.ratio)
        }
        return "\(ratio(value.ratio)) (\(range)\(level.map { ", \($0)" } ?? ""))"
    }

    /// A ratio's interval, "1.02–1.06", and its level where the interval is not a 95% one ("50%"),
    /// which every place that shows the interval says with it; `nil` without an interval.
    static func interval(_ value: RelativeSpeed) -> (range: String, level: String?)? {
        guard let low = value.low, let high = value.high else { return nil }
        return ("\(ratio(low))–\(ratio(high))", value.lowerLevel.map { "\($0)%" })
    }

    /// One row per measured iteration.
    public static func samplesCSV(_ samples: [Sample], runID: String) -> String {
        CSV.document(
            header: sampleColumns,
            rows: samples.map { sample in [runID] + sampleFields.map { $0.value(sample) } })
    }

    /// The whole run as JSON (the input of `bench compare`).
    public static func json(_ result: RunResult) throws -> String {
        try JSONDocument.text(result)
    }

    /// The parse table's header; `reference` names the parser the ratios are against, if one was asked.
    static func tableHeader(reference: String?, columns: [ParseColumn] = ParseColumn.allCases) -> [String] {
        ["parser"] + columns.map { $0.header(reference: reference) }
    }

    static func tableRow(_ cell: CellSummary, columns: [ParseColumn] = ParseColumn.allCases) -> [String] {
        [cell.cell.parser] + columns.map { $0.value(cell) }
    }

    static func ratio(_ value: Double) -> String { String(format: "%.2f", value) }

    /// Allocations per parse; a range when the counted parses did not repeat exactly.
    static func allocationCount(_ counts: Statistics?) -> String {
        guard let counts else { return "" }
        if counts.min == counts.max { return Format.number(counts.median, decimals: 0) }
        return "\(Format.number(counts.min, decimals: 0))–\(Format.number(counts.max, decimals: 0))"
    }

    /// A table's rows, fastest first, then the floor and the `sink` baseline, the `null` baseline last.
    static func ordered(_ group: [CellSummary]) -> [CellSummary] {
        func rank(_ cell: CellSummary) -> Int {
            cell.cell.parser == "null" ? 2 : cell.kind == "floor" || cell.kind == "baseline" ? 1 : 0
        }
        return group.enumerated().sorted { a, b in
            let x = (rank(a.element), a.element.relative?.ratio ?? .infinity, a.offset)
            let y = (rank(b.element), b.element.relative?.ratio ?? .infinity, b.offset)
            return x < y
        }.map(\.element)
    }

    /// The counted table's header: the instructions, then a column per metric kept by metric that
    /// the table's cells have (`kept`: ``countedColumns(_:)``).
    static func instructionsHeader(_ kept: [Metric]) -> [String] {
        ["parser", "kind", "n", "instructions (median)", "min", "max", "per byte"]
            + kept.map { $0.traits.heading ?? $0.name } + ["× floor", "vs C", "songs", "failed"]
    }

    static func instructionsRow(_ cell: CellSummary, kept: [Metric]) -> [String] {
        let counts = cell.instructions
        return [
            cell.cell.parser, cell.kind ?? "", String(counts?.count ?? 0), Format.number(counts?.median, decimals: 0),
            Format.number(counts?.min, decimals: 0), Format.number(counts?.max, decimals: 0),
            Format.number(counts.map { $0.median / Double(max(1, cell.cell.feedBytes)) }, decimals: 1),
        ] + kept.map { Format.number(cell.statistics($0)?.median, decimals: 0) }
            + [
                ratioWithInterval(cell.floorMultiple), ratioWithInterval(cell.bindingTax), String(cell.songs),
                String(cell.failed),
            ]
    }

    /// The metrics kept by metric that any of `cells` has: the counted table's extra columns.
    static func countedColumns(_ cells: [CellSummary]) -> [Metric] {
        Metric.keptByMetric.filter { metric in cells.contains { $0.statistics(metric) != nil } }
    }

    /// The counted tables' legend, with the meaning of each extra column `cells` have.
    static func instructionsLegend(_ cells: [CellSummary]) -> String {
        ([instructionsLegend] + countedColumns(cells).compactMap(\.traits.meaning)).joined(separator: " ")
    }

    static let instructionsLegend = """
        Instructions of one parse (fresh parser, chunks pushed, finish), counted by valgrind's callgrind with \
        hashing made deterministic; the harness is not counted. No times: under valgrind they mean nothing. \
        per byte: median / feed bytes. × floor: instructions ÷ the memchr floor's (one pass over the bytes, no \
        parsing). vs C: the Swift adapter's instructions ÷ its C reference's (the same extraction in plain C over \
        the same library: c-libxml2, c-expat): what the binding costs. Failed iterations are left out of every figure.
        """

    /// Groups cells by scenario, feed and chunk size, in first-seen order.
    static func groups(_ cells: [CellSummary]) -> [[CellSummary]] {
        grouped(cells) {
            "\($0.cell.scenario)|\($0.cell.feedSHA256)|\($0.cell.feedPath)|\($0.cell.chunkSize)|\($0.cell.network)"
        }
    }

    /// `items` grouped by `key`, the groups in the order their first items come, each in its items' order.
    static func grouped<Item>(_ items: [Item], by key: (Item) -> String) -> [[Item]] {
        var order: [String] = []
        var groups: [String: [Item]] = [:]
        for item in items {
            let name = key(item)
            if groups[name] == nil { order.append(name) }
            groups[name, default: []].append(item)
        }
        return order.compactMap { groups[$0] }
    }

    static func title(_ group: [CellSummary], timedSink: String? = nil) -> String {
        guard let cell = group.first?.cell else { return "" }
        let songs = group.map(\.songs).max() ?? 0
        // A download table holds every cell of its scenario (conditional's 200 and 304): titled by the scenario.
        let scenario =
            cell.scenario.table == .download ? cell.scenario.kind?.rawValue ?? cell.scenario.name : cell.scenario.name
        let counted = (cell.scenario.workload ?? .songs).countedNoun
        var title = "\(scenario): \(cell.feedPath) (\(cell.feedBytes) bytes, \(songs) \(counted))"
        if cell.scenario.ranksParsers && cell.scenario.workload == .songs {
            title += ", chunks of " + (cell.chunkSize == 0 ? "the whole feed" : "\(cell.chunkSize) bytes")
        } else if !cell.network.isEmpty {
            title += ", network \(cell.network), chunks as they arrive"
        } else if cell.scenario.workload == .document, let timedSink {
            title += ", timed sink: \(timedSink)"
        }
        return title
    }

    /// The run's header: build, libraries, machine, what was measured, and whether the machine was quiet.
    public static func header(_ result: RunResult) -> String {
        let environment = result.environment
        let settings = result.settings
        var text =
            "\(environment.buildConfiguration) build · \(environment.swiftVersion) · libxml2 \(environment.libxml2Version) · "
        text +=
            "expat \(environment.expatVersion)\n\(environment.cpuModel), \(environment.coresText) · \(environment.os)\n"
        func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
        // Download workers that ran side by side, where the run had any.
        let atOnce =
            settings.downloadWorkersAtOnce > 1
                && result.cells.contains { $0.cell.scenario.traits?.workersSideBySide == true }
            ? " (\(settings.downloadWorkersAtOnce) at once, each on a link of its own)" : ""
        if result.cells.contains(where: { $0.cell.scenario.traits?.runsEveryRound ?? false }) {
            // A run its stopping rule ended says the rounds it ran, not the most it could have; an
            // interrupted one, the rounds it began.
            if let interrupted = result.interrupted {
                text += "\(interrupted.workersPerCell) per cell (\(interrupted.phrase)), "
            } else {
                text += "\(plural(result.stopped?.rounds ?? settings.rounds, "worker")) per cell, "
            }
            text += "run side by side in rounds; "
            text += "\(plural(settings.iterations, "timed parse")) each after \(plural(settings.warmup, "warm-up"))"
            if result.cells.contains(where: {
                !($0.cell.scenario.traits?.runsEveryRound ?? false) && !$0.cell.network.isEmpty
            }) {
                text += ", \(settings.downloadIterationsPerWorker) per download worker"
                if settings.downloadWarmupPerWorker != settings.warmup {
                    text += " after \(plural(settings.downloadWarmupPerWorker, "warm-up"))"
                }
                text += atOnce
            }
        } else {
            // The practices alone: their workers are spread over the rounds.
            text += (result.interrupted == nil ? "" : "up to ")
            text +=
                "\(plural(settings.downloadWorkers, "worker")) per cell, spread over \(plural(settings.rounds, "round"))"
            text += result.interrupted.map { " (\($0.phrase))" } ?? ""
            text += "; "
            text +=
                "\(plural(settings.downloadIterationsPerWorker, "timed iteration")) each after "
                + plural(settings.downloadWarmupPerWorker, "warm-up") + atOnce
        }
        if settings.counter == RunSettings.instructionCounter {
            text += "; instructions counted by callgrind (no times)"
        }
        if let percent = settings.slowdownPercent, percent > 0 { text += "; INJECTED SLOWDOWN \(percent)%" }
        if let sink = settings.timedSinkDescription { text += "; \(sink)" }
        let networks = Set(result.cells.map(\.cell.network).filter { !$0.isEmpty }).sorted()
        if !networks.isEmpty { text += "; network \(networks.joined(separator: ", "))" }
        text +=
            "\n" + (noiseLines(result.noise) + hostLines(result)).joined(separator: "\n")
            + "\n"
        return text
    }

    /// How the rounds stopped (`StoppingOutcome`), for a run that stops on its own; the host's state
    /// against its history (`HostState`), when it was compared; and what the next-run intervals
    /// hold (`RunToRunNote`); what the harness cost each worker (`WorkerHarness`).
    public static func hostLines(_ result: RunResult) -> [String] {
        [result.stopped?.message, result.hostState?.message, result.runToRun?.message, result.workerHarness?.line]
            .compactMap { $0 }
    }

    /// The noise verdict in lines: the warnings of a noisy run, else one line on a quiet one.
    public static func noiseLines(_ noise: NoiseReport?) -> [String] {
        guard let noise else { return [] }
        if noise.noisy { return noise.warnings.map { "NOISY MACHINE: \($0)" } }
        var parts: [String] = []
        if let pressure = noise.load?.cpuPressure { parts.append("CPU pressure \(Format.number(pressure * 100))%") }
        if let share = noise.preemptedShare { parts.append("\(Format.number(share * 100))% of parses lost the CPU") }
        if let spread = noise.largestSpread {
            parts.append("workers agree within \(Format.number(spread * 100, decimals: 0))% (sd)")
        }
        return ["Machine quiet enough: " + parts.joined(separator: ", ") + "."]
            + noise.unranked.map { "Not told apart in this run: \($0)." }
    }

    /// The terminal tables of a run: one block per scenario and feed, one row per parser.
    ///
    /// - Parameters:
    ///   - result: the run.
    ///   - columns: the parse tables' columns after the parser's name (every one unless asked).
    ///   - width: the terminal's width, to wrap the legends at; `nil`: one line each.
    ///   - key: a short key instead of the whole legends (see the cells' `table`).
    /// - Returns: the tables, their notes and their legends.
    public static func table(
        _ result: RunResult, columns: [ParseColumn] = ParseColumn.allCases, width: Int? = nil, key: Bool = false
    ) -> String {
        let tables = table(
            result.cells, reference: result.settings.reference, columns: columns, width: width, key: key,
            timedSink: result.settings.timedSink)
        guard let documents = documentsBlock(result.documents, width: width) else { return tables }
        return documents + "\n\n" + tables
    }

    /// What the notes under a cell's table say of it: its outcome, or why it has no time.
    static func note(_ cell: CellSummary) -> String? { cell.outcome ?? cell.lostTheCPUNote }

    /// The cells that ``table(_:reference:columns:width:key:timedSink:)`` gives a note under their
    /// table (`note(_:)`): what a message after the tables need not say again.
    public static func notedUnderTables(_ cells: [CellSummary], reference: String? = nil) -> Set<CellKey> {
        let all = groups(cells.filter { $0.cell.scenario != notTimed && !hasTableOfItsOwn($0.cell.scenario) })
        var noted: Set<CellKey> = []
        for group in all
        where tableContent(group, all: all, reference: reference, columns: ParseColumn.allCases) != nil {
            for cell in group where note(cell) != nil { noted.insert(cell.cell) }
        }
        return noted
    }

    /// The terminal tables of cells: one block per scenario and feed, one row per parser.
    ///
    /// - Parameters:
    ///   - cells: the cells.
    ///   - reference: the parser the ratios are against, if one was asked.
    ///   - columns: the parse tables' columns after the parser's name (every one unless asked).
    ///   - width: the terminal's width, to wrap the notes and legends at; with the default columns,
    ///     the parse tables go without the columns of ``ParseColumn/narrowDropOrder`` until they fit
    ///     (the legend names them); `nil`: one line each.
    ///   - key: a short key of the parse and download tables instead of their whole legends (the
    ///     terminal's default; the Markdown and HTML always have the legends).
    ///   - timedSink: the event sink the document cells' times include (`RunSettings.timedSink`),
    ///     named in their titles and sink notes; `nil`: not recorded.
    /// - Returns: the tables, their notes and their legends.
    public static func table(
        _ cells: [CellSummary], reference: String? = nil, columns: [ParseColumn] = ParseColumn.allCases,
        width: Int? = nil, key: Bool = false, timedSink: String? = nil
    ) -> String {
        var blocks: [String] = []
        let all = groups(
            cells.filter { $0.cell.scenario != notTimed && !hasTableOfItsOwn($0.cell.scenario) }
        )
        var columns = columns
        // The figures kept by metric that a narrow terminal goes without, last first, after the
        // default columns of ``ParseColumn/narrowDropOrder`` (the key names them).
        var hidden: [Metric] = []
        if let width, columns == ParseColumn.defaults {
            func widest() -> Int {
                all.compactMap { group -> Int? in
                    guard group.first?.cell.scenario.ranksParsers == true,
                        let content = tableContent(
                            group, all: all, reference: reference, columns: columns, hiding: hidden)
                    else { return nil }
                    return TextTable(header: content.header, rows: content.rows).widest(indent: "  ")
                }.max() ?? 0
            }
            for column in ParseColumn.narrowDropOrder where widest() > width {
                columns.removeAll { $0 == column }
            }
            for metric in countedColumns(cells).reversed() where widest() > width {
                hidden.append(metric)
            }
        }
        func wrapped(_ lines: String) -> String { width.map { Format.wrap(lines, width: $0) } ?? lines }
        // What the next-run column's interval covers with this many workers: said once under the
        // tables when every table that needs it says the same (a run of many documents, one table
        // each), else under each table.
        let coverage = all.map(nextRunCoverage)
        let sharedCoverage = Set(coverage.compactMap { $0 }).count == 1 && coverage.count { $0 != nil } > 1
        for (group, coverage) in zip(all, coverage) {
            guard let content = tableContent(group, all: all, reference: reference, columns: columns, hiding: hidden)
            else { continue }
            // The title is wrapped (a document's path can be long); the table is never.
            var text =
                wrapped(title(group, timedSink: timedSink)) + "\n"
                + TextTable(header: content.header, rows: content.rows).render(indent: "  ")
            var notes = group.compactMap { cell in note(cell).map { "  \(cell.cell.parser): \($0)" } }
            if let note = sinkNote(group, timedSink: timedSink) { notes.append("  " + note) }
            if let coverage, !sharedCoverage { notes.append("  next run: " + coverage) }
            if !notes.isEmpty { text += "\n" + wrapped(notes.joined(separator: "\n")) }
            blocks.append(text)
        }
        if sharedCoverage, let coverage = coverage.compactMap({ $0 }).first {
            blocks.append(wrapped("Next run, in every table above: " + coverage))
        }
        for table in practiceTables(cells) + concurrentTables(cells) {
            var body = TextTable(header: table.header, rows: table.rows)
            var notes = table.notes
            if let width {
                let fitted = body.fitted(width: width, indent: "  ", dropOrder: practiceDropOrder)
                body = fitted.table
                if !fitted.dropped.isEmpty {
                    notes.append(
                        "not shown at this width: \(fitted.dropped.joined(separator: ", ")) (the HTML, the Markdown and "
                            + "the summary CSV have them)")
                }
            }
            var text = table.title + "\n" + body.render(indent: "  ")
            if !notes.isEmpty { text += "\n" + wrapped(notes.map { "  " + $0 }.joined(separator: "\n")) }
            blocks.append(text)
        }
        let contrasts = DocumentContrast.find(cells)
        if !contrasts.isEmpty {
            blocks.append(
                "Between documents (the ratio's 95% intervals do not overlap):\n"
                    + contrasts.map { String(wrapped("    " + describe($0)).dropFirst(2)) }.joined(separator: "\n"))
        }
        let wrong = cells.filter { $0.cell.scenario == notTimed }
        if !wrong.isEmpty {
            blocks.append(
                "Not timed (wrong or failed on the feed):\n"
                    + wrong.map { "  \($0.cell.parser) on \($0.cell.feedPath): \($0.outcome ?? "")" }.joined(
                        separator: "\n"))
        }
        let counted = cells.contains { $0.instructions != nil }
        let parses = cells.contains { $0.cell.scenario.ranksParsers }
        let downloads = cells.contains { $0.cell.scenario.table == .download }
        var legends =
            counted
            ? [instructionsLegend(cells)]
            : parses
                ? [
                    key
                        ? ParseColumn.key(
                            columns, download: downloads, reference: reference,
                            metrics: countedColumns(cells).filter { !hidden.contains($0) }, hiddenMetrics: hidden)
                        : ParseColumn.legend(columns, reference: reference)
                            + countedColumns(cells).compactMap { $0.traits.meaning.map { " " + $0 } }.joined()
                ] : []
        if downloads && !(key && parses && !counted) {
            legends.append(
                (key ? downloadKey : downloadLegend)
                    + (columns == ParseColumn.allCases
                        ? "" : " Not shown in the download table: n, worker MiB, failed (--columns all)."))
        }
        if cells.contains(where: { $0.cell.scenario.table == .practice }) { legends.append(practiceLegend) }
        if cells.contains(where: { $0.cell.scenario.table == .concurrent }) { legends.append(concurrentLegend) }
        let legendText = legends.map { legend in width.map { Format.wrap(legend, width: $0) } ?? legend }
        return blocks.joined(separator: "\n\n") + "\n\n" + legendText.joined(separator: "\n") + "\n"
    }

    /// What the next-run interval of `cells` covers, when that is short of 95%.
    ///
    /// "5 workers give that interval 83% coverage, not 95% (10 or more workers do)"; `nil` when it
    /// reaches 95%. Said under the table in every format that shows the interval (the terminal's,
    /// the Markdown; the practice and concurrent tables too), and the HTML charts claim no 95% for it.
    static func nextRunCoverage(_ cells: [CellSummary]) -> String? {
        nextRunCoverage(cells.map { ShortCoverage($0.estimate) })
    }

    /// The same, of the first interval that is short of 95% among `intervals` (`nil`: one that reaches it).
    static func nextRunCoverage(_ intervals: [ShortCoverage?]) -> String? {
        guard let short = intervals.lazy.compactMap({ $0 }).first else { return nil }
        return "\(short.workers) worker\(short.workers == 1 ? " gives" : "s give") that interval "
            + "\(Format.number(short.coverage * 100, decimals: 0))% coverage, not 95% (10 or more workers do)"
    }

    /// "expat ÷ c-libxml2: 1.06 (1.05–1.07) on CRE.xml, 1.56 (1.53–1.57) on mondial.xml".
    static func describe(_ contrast: DocumentContrast) -> String {
        func end(_ end: DocumentContrast.End) -> String {
            "\(Format.number(end.ratio, decimals: 2)) (\(Format.number(end.low, decimals: 2))–"
                + "\(Format.number(end.high, decimals: 2))) on \(Format.feedName(end.document))"
        }
        return "\(contrast.parser) ÷ \(contrast.reference): \(end(contrast.best)), \(end(contrast.worst))"
    }

    /// Whether a cell is shown in a table of its scenario's own (a practice's, the concurrent
    /// scenario's) rather than in a table per scenario and feed.
    static func hasTableOfItsOwn(_ scenario: CellScenario) -> Bool {
        scenario.table == .practice || scenario.table == .concurrent
    }

    /// The scenario of a summary for a parser that was not timed (it disagreed or failed).
    public static let notTimed = BenchResults.CellKey.notTimedScenario

    /// The same tables in Markdown, ready to paste into a pull request.
    public static func markdown(_ result: RunResult) -> String {
        let environment = result.environment
        let cells = result.cells
        var text = "### XML parser benchmark — run \(environment.runID)\n\n"
        text +=
            "\(environment.buildConfiguration) build, \(environment.swiftVersion), libxml2 \(environment.libxml2Version), "
        text +=
            "expat \(environment.expatVersion), \(environment.cpuModel) (\(environment.coresText)), \(environment.os)"
        if let commit = environment.gitCommit { text += ", commit `\(commit)`" }
        if let sink = result.settings.timedSinkDescription { text += "; \(sink)" }
        text += "\n"
        for sentence in answer(result) { text += "\n**\(MarkdownTable.escape(sentence))**\n" }
        for line in noiseLines(result.noise) + hostLines(result) {
            let warning = line.hasPrefix("NOISY") || line.hasPrefix("HOST STATE")
            text += "\n> \(warning ? "⚠️ " : "")\(MarkdownTable.escape(line))\n"
        }
        let all = groups(
            cells.filter { $0.cell.scenario != notTimed && !hasTableOfItsOwn($0.cell.scenario) }
        )
        for table in practiceTables(cells) + concurrentTables(cells) {
            text += "\n**\(table.title)**\n\n"
            text +=
                MarkdownTable.render(header: table.header, rows: table.rows, rightAligned: Set(2..<table.header.count))
                + "\n"
            for note in table.notes { text += "\n- \(MarkdownTable.escape(note))" }
            if !table.notes.isEmpty { text += "\n" }
        }
        for group in all {
            guard let content = tableContent(group, all: all, reference: result.settings.reference) else { continue }
            text += "\n**\(title(group, timedSink: result.settings.timedSink))**\n\n"
            text += MarkdownTable.render(
                header: content.header, rows: content.rows, rightAligned: Set(1..<content.header.count))
            text += "\n"
            for cell in group {
                if let outcome = cell.outcome ?? cell.lostTheCPUNote { text += "\n- `\(cell.cell.parser)`: \(outcome)" }
            }
            if let note = sinkNote(group, timedSink: result.settings.timedSink) {
                text += "\n- \(MarkdownTable.escape(note))\n"
            }
            if let coverage = nextRunCoverage(group) { text += "\n- next run: \(MarkdownTable.escape(coverage))\n" }
        }
        text += documentsMarkdown(result.documents)
        let contrasts = DocumentContrast.find(cells)
        if !contrasts.isEmpty {
            text += "\n**Between documents** (the ratio's 95% intervals do not overlap)\n"
            for contrast in contrasts { text += "\n- \(MarkdownTable.escape(describe(contrast)))" }
            text += "\n"
        }
        for cell in cells where cell.cell.scenario == notTimed {
            text += "\n- not timed: `\(cell.cell.parser)` on `\(cell.cell.feedPath)`: \(cell.outcome ?? "")"
        }
        return text + "\n\n"
            + (cells.contains { $0.instructions != nil }
                ? instructionsLegend(cells)
                : ParseColumn.legend(ParseColumn.allCases, reference: result.settings.reference)
                    + countedColumns(cells).compactMap { $0.traits.meaning.map { " " + $0 } }.joined())
            + "\n"
    }
}
