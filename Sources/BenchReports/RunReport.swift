import BenchResults
import Foundation

/// The reports of one run: a table per scenario and feed, the summary and samples CSV, JSON, Markdown.
public enum RunReport {
    /// The columns of `<run-id>-summary.csv`, in order.
    public static let summaryColumns = [
        "parser", "scenario", "feed", "feed_bytes", "songs", "chunk_size", "network", "n", "mean_ms", "median_ms",
        "sd_ms", "min_ms", "max_ms", "p90_ms", "ci95_low_ms", "ci95_high_ms", "mbps", "cpu_median_ms", "first_song_ms",
        "peak_rss_mb", "peak_over_baseline_mb", "failed", "feed_sha256", "ci95_coverage", "outcome", "download_ms",
        "total_ms", "overlap", "bytes", "http_status", "instructions_median", "instructions_min", "instructions_max",
    ]

    /// The columns of `<run-id>-samples.csv`, in order.
    public static let sampleColumns = [
        "run_id", "parser", "scenario", "feed", "feed_sha256", "feed_bytes", "songs", "chunk_size", "network", "round",
        "iteration", "wall_ns", "cpu_ns", "first_song_ns", "download_ns", "total_ns", "peak_rss_bytes", "error", "debug",
        "bytes", "http_status", "instructions",
    ]

    /// One row per cell.
    public static func summaryCSV(_ cells: [CellSummary]) -> String {
        CSV.document(header: summaryColumns, rows: cells.map { cell in
            let wall = cell.wall
            return [
                cell.cell.parser, cell.cell.scenario, cell.cell.feedPath, String(cell.cell.feedBytes), String(cell.songs),
                String(cell.cell.chunkSize), cell.cell.network, String(wall?.count ?? 0), Format.ms(wall?.mean),
                Format.ms(wall?.median), Format.ms(wall?.standardDeviation), Format.ms(wall?.min), Format.ms(wall?.max),
                Format.ms(wall?.p90), Format.ms(wall?.medianLow), Format.ms(wall?.medianHigh),
                Format.number(cell.megabytesPerSecond, decimals: 2), Format.ms(cell.cpuMedianNs),
                Format.ms(cell.firstSongMedianNs), Format.mib(cell.peakResidentBytes.map(Double.init), decimals: 2),
                Format.mib(cell.peakOverBaselineBytes.map(Double.init), decimals: 2), String(cell.failed),
                cell.cell.feedSHA256, Format.number(wall?.medianCoverage, decimals: 4), cell.outcome ?? "",
                Format.ms(cell.downloadMedianNs), Format.ms(cell.totalMedianNs), Format.number(cell.overlap, decimals: 3),
                Format.number(cell.bytesMedian, decimals: 0), cell.httpStatus.map(String.init) ?? "",
                Format.number(cell.instructions?.median, decimals: 0), Format.number(cell.instructions?.min, decimals: 0),
                Format.number(cell.instructions?.max, decimals: 0),
            ]
        })
    }

    /// One row per measured iteration.
    public static func samplesCSV(_ samples: [Sample], runID: String) -> String {
        func value(_ number: Int?) -> String { number.map(String.init) ?? "" }
        return CSV.document(header: sampleColumns, rows: samples.map { sample in
            [
                runID, sample.cell.parser, sample.cell.scenario, sample.cell.feedPath, sample.cell.feedSHA256,
                String(sample.cell.feedBytes), String(sample.songs), String(sample.cell.chunkSize), sample.cell.network,
                String(sample.round), String(sample.iteration), value(sample.wallNs), value(sample.cpuNs),
                value(sample.firstSongNs), value(sample.downloadNs), value(sample.totalNs), value(sample.peakResidentBytes),
                sample.error ?? "", sample.debug ? "1" : "0", value(sample.bytes), value(sample.httpStatus),
                value(sample.instructions),
            ]
        })
    }

    /// The whole run as JSON (the input of `bench compare`).
    public static func json(_ result: RunResult) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(result), as: UTF8.self) + "\n"
    }

    static let tableHeader = [
        "parser", "n", "mean", "median", "sd", "min", "max", "p90", "median 95% CI", "MB/s", "CPU", "1st song",
        "peak MiB", "+baseline", "failed",
    ]

    static func tableRow(_ cell: CellSummary) -> [String] {
        let wall = cell.wall
        let interval = wall.map { "\(Format.ms($0.medianLow))–\(Format.ms($0.medianHigh))" } ?? ""
        return [
            cell.cell.parser, String(wall?.count ?? 0), Format.ms(wall?.mean), Format.ms(wall?.median),
            Format.ms(wall?.standardDeviation), Format.ms(wall?.min), Format.ms(wall?.max), Format.ms(wall?.p90), interval,
            Format.number(cell.megabytesPerSecond), Format.ms(cell.cpuMedianNs), Format.ms(cell.firstSongMedianNs),
            Format.mib(cell.peakResidentBytes.map(Double.init)), Format.mib(cell.peakOverBaselineBytes.map(Double.init)),
            String(cell.failed),
        ]
    }

    static let instructionsHeader = ["parser", "n", "instructions (median)", "min", "max", "per byte", "songs", "failed"]

    static func instructionsRow(_ cell: CellSummary) -> [String] {
        let counts = cell.instructions
        return [
            cell.cell.parser, String(counts?.count ?? 0), Format.number(counts?.median, decimals: 0),
            Format.number(counts?.min, decimals: 0), Format.number(counts?.max, decimals: 0),
            Format.number(counts.map { $0.median / Double(max(1, cell.cell.feedBytes)) }, decimals: 1), String(cell.songs),
            String(cell.failed),
        ]
    }

    static let instructionsLegend = """
        Instructions of one parse (fresh parser, chunks pushed, finish), counted by valgrind's callgrind with \
        hashing made deterministic; the harness is not counted. No times: under valgrind they mean nothing. \
        per byte: median / feed bytes. Failed iterations are left out of every figure.
        """

    /// Groups cells by scenario, feed and chunk size, in first-seen order.
    static func groups(_ cells: [CellSummary]) -> [[CellSummary]] {
        var order: [String] = []
        var groups: [String: [CellSummary]] = [:]
        for cell in cells {
            let key = "\(cell.cell.scenario)|\(cell.cell.feedSHA256)|\(cell.cell.feedPath)|\(cell.cell.chunkSize)|\(cell.cell.network)"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(cell)
        }
        return order.compactMap { groups[$0] }
    }

    static func title(_ group: [CellSummary]) -> String {
        guard let cell = group.first?.cell else { return "" }
        let songs = group.map(\.songs).max() ?? 0
        let scenario = cell.scenario.hasPrefix("conditional") ? "conditional" : cell.scenario
        var title = "\(scenario): \(cell.feedPath) (\(cell.feedBytes) bytes, \(songs) songs)"
        if cell.scenario == "parse" {
            title += ", chunks of " + (cell.chunkSize == 0 ? "the whole feed" : "\(cell.chunkSize) bytes")
        } else if !cell.network.isEmpty {
            title += ", network \(cell.network), chunks as they arrive"
        }
        return title
    }

    static let legend = """
        Times in ms (wall clock, monotonic). median 95% CI: distribution-free interval of the median (order \
        statistics). MB/s: feed bytes / median (10^6 bytes). CPU: median thread CPU time. 1st song: median time \
        to the first song. peak MiB: the worker's own peak resident set (VmHWM); +baseline: above the \
        null cell's. Failed iterations are left out of every figure.
        """

    /// The terminal table: one block per scenario and feed, one row per parser.
    public static func table(_ cells: [CellSummary]) -> String {
        var blocks: [String] = []
        let all = groups(cells.filter { $0.cell.scenario != notTimed })
        for group in all {
            guard let content = tableContent(group, all: all) else { continue }
            var text = title(group) + "\n" + TextTable(header: content.header, rows: content.rows).render(indent: "  ")
            let notes = group.compactMap { cell in cell.outcome.map { "  \(cell.cell.parser): \($0)" } }
            if !notes.isEmpty { text += "\n" + notes.joined(separator: "\n") }
            blocks.append(text)
        }
        let wrong = cells.filter { $0.cell.scenario == notTimed }
        if !wrong.isEmpty {
            blocks.append(
                "Not timed (wrong or failed on the feed):\n"
                    + wrong.map { "  \($0.cell.parser) on \($0.cell.feedPath): \($0.outcome ?? "")" }.joined(separator: "\n"))
        }
        let counted = cells.contains { $0.instructions != nil }
        var legends = counted ? [instructionsLegend] : [legend]
        if cells.contains(where: { $0.cell.scenario != "parse" && $0.cell.scenario != notTimed }) { legends.append(downloadLegend) }
        return blocks.joined(separator: "\n\n") + "\n\n" + legends.joined(separator: "\n") + "\n"
    }

    /// The scenario of a summary for a parser that was not timed (it disagreed or failed).
    public static let notTimed = "not timed"

    /// The same tables in Markdown, ready to paste into a pull request.
    public static func markdown(_ cells: [CellSummary], environment: RunEnvironment) -> String {
        var text = "### XML parser benchmark — run \(environment.runID)\n\n"
        text += "\(environment.buildConfiguration) build, \(environment.swiftVersion), libxml2 \(environment.libxml2Version), "
        text += "expat \(environment.expatVersion), \(environment.cpuModel) (\(environment.cores) cores), \(environment.os)"
        if let commit = environment.gitCommit { text += ", commit `\(commit)`" }
        text += "\n"
        let all = groups(cells.filter { $0.cell.scenario != notTimed })
        for group in all {
            guard let content = tableContent(group, all: all) else { continue }
            text += "\n**\(title(group))**\n\n"
            text += MarkdownTable.render(header: content.header, rows: content.rows, rightAligned: Set(1..<content.header.count))
            text += "\n"
            for cell in group { if let outcome = cell.outcome { text += "\n- `\(cell.cell.parser)`: \(outcome)" } }
        }
        for cell in cells where cell.cell.scenario == notTimed {
            text += "\n- not timed: `\(cell.cell.parser)` on `\(cell.cell.feedPath)`: \(cell.outcome ?? "")"
        }
        return text + "\n\n" + (cells.contains { $0.instructions != nil } ? instructionsLegend : legend) + "\n"
    }
}
