import BenchResults
import Foundation

/// The reports of a sweep (`bench sweep`): a table per sweep, the fitted slopes, CSV for reviewers
/// (one row per parser and size or chunk size; the slopes apart), JSON, and an HTML page with
/// log–log charts of time and memory against the feed's size and of time against the chunk size,
/// each with its figures as a table beside it.
public enum SweepReport {
    /// The columns of `<run-id>-sweep.csv`, in order.
    public static let pointColumns = [
        "sweep", "parser", "size", "size_unit", "songs", "elements", "feed_bytes", "chunk_size", "median_ms",
        "ci95_low_ms", "ci95_high_ms", "workers",
        "mbps", "ns_per_byte", "instructions", "instructions_per_byte", "parse_peak_bytes", "worker_peak_bytes",
        "kept_bytes", "peak_over_songs", "allocations", "allocated_bytes", "failed", "outcome", "kind",
    ]

    /// The columns of `<run-id>-slopes.csv`, in order.
    public static let slopeColumns = [
        "parser", "figure", "per", "unit", "slope", "intercept", "r_squared", "exponent", "points", "from_size",
        "to_size", "size_unit",
    ]

    public static func pointsCSV(_ result: SweepResult) -> String {
        CSV.document(
            header: pointColumns,
            rows: result.points.map { p in
                [
                    p.sweep, p.parser, String(p.size), result.plan.unit, String(p.songs),
                    p.elements.map(String.init) ?? "", String(p.feedBytes), String(p.chunkSize), Format.ms(p.timeNs),
                    Format.ms(p.timeLowNs), Format.ms(p.timeHighNs), p.workers.map(String.init) ?? "",
                    Format.number(p.megabytesPerSecond, decimals: 2), Format.number(perByte(p.timeNs, p), decimals: 3),
                    Format.number(p.instructions, decimals: 0), Format.number(perByte(p.instructions, p), decimals: 2),
                    p.parsePeakBytes.map(String.init) ?? "", p.workerPeakBytes.map(String.init) ?? "",
                    Format.number(p.keptBytes, decimals: 0), Format.number(p.peakOverSongs, decimals: 2),
                    Format.number(p.allocations, decimals: 0), Format.number(p.allocatedBytes, decimals: 0),
                    String(p.failed),
                    p.outcome ?? "", p.kind ?? "",
                ]
            })
    }

    public static func slopesCSV(_ result: SweepResult) -> String {
        CSV.document(
            header: slopeColumns,
            rows: result.slopes.map { s in
                [
                    s.parser, s.figure, s.per, s.unit, Format.number(s.fit.slope, decimals: 4),
                    Format.number(s.fit.intercept, decimals: 1), Format.number(s.fit.rSquared, decimals: 5),
                    Format.number(s.exponent, decimals: 3), String(s.fit.points), String(s.fromSize),
                    String(s.toSize), result.plan.unit,
                ]
            })
    }

    public static func json(_ result: SweepResult) throws -> String {
        try JSONDocument.text(result)
    }

    static func perByte(_ value: Double?, _ point: SweepPoint) -> Double? {
        guard let value, point.feedBytes > 0 else { return nil }
        return value / Double(point.feedBytes)
    }

    static func chunkName(_ size: Int) -> String {
        size == 0 ? "whole" : size >= 1024 && size % 1024 == 0 ? "\(size / 1024) KiB" : "\(size) B"
    }

    // MARK: - Text

    /// The scale table's columns: with songs, what the parse kept; with a shaped document, its elements.
    static func scaleHeader(_ plan: SweepPlan) -> [String] {
        let size = plan.workload == .songs ? ["songs", "feed MB"] : ["MB", "elements"]
        let kept = plan.workload == .songs ? ["kept MiB", "peak÷songs"] : []
        return ["parser", "kind"] + size + ["time ms", "next run 95%", "MB/s", "ns/byte", "instr/byte", "parse MiB"]
            + kept + ["allocs", "alloc MiB", "outcome"]
    }

    static let chunkHeader = [
        "parser", "kind", "chunk", "time ms", "next run 95%", "MB/s", "instr/byte", "parse MiB", "allocs", "alloc MiB",
        "outcome",
    ]

    static func scaleRow(_ p: SweepPoint, _ plan: SweepPlan) -> [String] {
        let megabytes = Format.number(Double(p.feedBytes) / 1e6, decimals: plan.workload == .songs ? 1 : 2)
        let size =
            plan.workload == .songs ? [String(p.songs), megabytes] : [megabytes, p.elements.map(String.init) ?? ""]
        let kept =
            plan.workload == .songs
            ? [Format.mib(p.keptBytes, decimals: 2), Format.number(p.peakOverSongs, decimals: 2)] : []
        return [p.parser, p.kind ?? ""] + size + [
            Format.ms(p.timeNs), interval(p), Format.number(p.megabytesPerSecond),
            Format.number(perByte(p.timeNs, p), decimals: 2), Format.number(perByte(p.instructions, p), decimals: 1),
            Format.mib(p.parsePeakBytes.map(Double.init), decimals: 2),
        ] + kept + [
            Format.number(p.allocations, decimals: 0), Format.mib(p.allocatedBytes, decimals: 2), p.outcome ?? "",
        ]
    }

    static func chunkRow(_ p: SweepPoint) -> [String] {
        [
            p.parser, p.kind ?? "", chunkName(p.chunkSize), Format.ms(p.timeNs), interval(p),
            Format.number(p.megabytesPerSecond),
            Format.number(perByte(p.instructions, p), decimals: 1),
            Format.mib(p.parsePeakBytes.map(Double.init), decimals: 2),
            Format.number(p.allocations, decimals: 0), Format.mib(p.allocatedBytes, decimals: 2), p.outcome ?? "",
        ]
    }

    static func interval(_ p: SweepPoint) -> String {
        guard let low = p.timeLowNs, let high = p.timeHighNs else { return "" }
        return "\(Format.ms(low))–\(Format.ms(high))"
    }

    static func slopeHeader(_ plan: SweepPlan) -> [String] {
        ["parser", "figure", "slope", "intercept", "R²", "exponent", plan.unit]
    }

    static func slopeRow(_ s: SweepSlope) -> [String] {
        [
            s.parser, "\(s.figure) per \(s.per)",
            "\(Format.number(s.fit.slope, decimals: slopeDecimals(s.fit.slope))) \(s.unit)",
            interceptText(s), Format.number(s.fit.rSquared, decimals: 4), Format.number(s.exponent, decimals: 3),
            "\(s.fromSize)–\(s.toSize) (\(s.fit.points))",
        ]
    }

    static func slopeDecimals(_ value: Double) -> Int { abs(value) >= 100 ? 0 : abs(value) >= 1 ? 2 : 4 }

    static func interceptText(_ s: SweepSlope) -> String {
        switch s.unit {
        case "ns": return "\(Format.ms(s.fit.intercept)) ms"
        case "bytes": return "\(Format.mib(s.fit.intercept, decimals: 2)) MiB"
        default: return Format.number(s.fit.intercept, decimals: 0)
        }
    }

    /// The header: build, libraries (their versions matter: expat before 2.6.0 reparses large
    /// tokens with small chunks), machine, settings, noise.
    public static func header(_ result: SweepResult) -> String {
        let environment = result.environment
        let settings = result.settings
        var text =
            "Sweep \(environment.runID) · \(environment.buildConfiguration) build · \(environment.swiftVersion) · "
        text += "libxml2 \(environment.libxml2Version) · expat \(environment.expatVersion)\n"
        text += "\(environment.cpuModel), \(environment.coresText) · \(environment.os)\n"
        text +=
            "\(settings.rounds) worker\(settings.rounds == 1 ? "" : "s") per cell, \(settings.iterations) timed "
            + "parse\(settings.iterations == 1 ? "" : "s") each after \(settings.warmup) warm-up; "
        text += "allocations counted in one more worker per cell"
        if result.plan.instructionsUpTo > 0 {
            text += "; instructions counted by callgrind up to \(result.plan.describe(result.plan.instructionsUpTo))"
            if let id = result.instructionRunID { text += " (run \(id))" }
        }
        let host = [result.hostState?.message, result.runToRun?.message].compactMap { $0 }
        text += "\n" + (noiseLines(result.noise) + host).joined(separator: "\n") + "\n"
        return text
    }

    /// The run's noise lines, with the pairs of parsers it could not rank counted rather than
    /// listed: a sweep runs few rounds per cell and many tables; it shows growth, `bench run` ranks.
    static func noiseLines(_ noise: NoiseReport?) -> [String] {
        guard var noise else { return [] }
        let unranked = noise.unranked.count
        noise.unranked = []
        noise.warnings = noise.warnings.map { warning in
            warning.hasPrefix("Too noisy to rank ")
                ? "Too few rounds or too noisy to rank \(unranked) pair\(unranked == 1 ? "" : "s") of parsers by their relative speed "
                    + "(the sweep's JSON names them, in noise.unranked; a sweep shows growth, `bench run` ranks)."
                : warning
        }
        var lines = RunReport.noiseLines(noise)
        if !noise.noisy && unranked > 0 {
            lines.append(
                "\(unranked) pair\(unranked == 1 ? "" : "s") of parsers not told apart by their relative speed (the sweep's JSON names them, in noise.unranked; "
                    + "a sweep shows growth, `bench run` ranks).")
        }
        return lines
    }

    /// The columns a terminal too narrow for all of them goes without, first to last (the CSV and
    /// HTML have every one).
    static let narrowDropOrder = [
        "instr/byte", "kept MiB", "peak÷songs", "alloc MiB", "kind", "feed MB", "elements", "ns/byte", "intercept",
        "R²",
    ]

    /// The terminal's tables.
    ///
    /// - Parameters:
    ///   - result: the sweep.
    ///   - width: the terminal's width: each table goes without its empty columns and then without
    ///     those of `narrowDropOrder` until it fits (a note names them), every line of text
    ///     wrapped; `nil`: every column, one line each.
    /// - Returns: the tables, their notes and the legend.
    public static func table(_ result: SweepResult, width: Int? = nil) -> String {
        var blocks: [String] = []
        // The columns each table went without: one a narrower table kept is "in the wider tables only".
        var hiddenByTable: [[String]] = []
        func render(_ table: TextTable) -> String {
            guard let width else { return table.render(indent: "  ") }
            let fitted = table.fitted(width: width, indent: "  ", dropOrder: narrowDropOrder)
            hiddenByTable.append(fitted.dropped)
            return fitted.table.render(indent: "  ")
        }
        let scale = result.points.filter { $0.sweep == "scale" }
        if !scale.isEmpty {
            let rows = ordered(scale).map { scaleRow($0, result.plan) }
            blocks.append(
                "Scale sweep: \(what(result.plan)) of \(result.plan.sizes.map(String.init).joined(separator: ", ")) \(result.plan.unit), chunks of "
                    + "\(chunkName(result.plan.chunkSize))\n"
                    + render(TextTable(header: scaleHeader(result.plan), rows: rows)))
        }
        if !result.slopes.isEmpty {
            blocks.append(
                "Growth with the \(result.plan.workload == .songs ? "feed" : "document") (least squares over the scale sweep; exponent: the slope on log–log axes, 1 = in proportion)\n"
                    + render(TextTable(header: slopeHeader(result.plan), rows: result.slopes.map(slopeRow))))
        }
        let chunk = result.points.filter { $0.sweep == "chunk" }
        if !chunk.isEmpty {
            blocks.append(
                "Chunk-size sweep: \(result.plan.workload == .songs ? "\(result.plan.chunkDocumentSize) songs" : "the \(result.plan.shape ?? "") document") (\(chunk.first.map { "\($0.feedBytes) bytes" } ?? ""))\n"
                    + render(TextTable(header: chunkHeader, rows: ordered(chunk).map(chunkRow))))
        }
        if let short = result.points.filter({ ($0.timeCoverage ?? 1) < 0.95 }).min(by: {
            ($0.timeCoverage ?? 1) < ($1.timeCoverage ?? 1)
        }),
            let coverage = short.timeCoverage
        {
            blocks.append(
                "Note: with \(short.workers ?? 0) worker\(short.workers == 1 ? "" : "s") a cell, a next-run interval covers \(Format.number(coverage * 100, decimals: 0))%, "
                    + "not 95% (10 or more workers do: --rounds 10). Instruction and allocation counts are exact.")
        }
        if let hidden = TextTable.hiddenColumns(hiddenByTable, order: narrowDropOrder) {
            blocks.append("Not shown at this width: \(hidden) (the sweep's CSV and HTML have every column).")
        }
        let text = blocks.joined(separator: "\n\n") + "\n\n" + legend(result.plan) + "\n"
        return width.map { Format.wrap(text, width: $0) } ?? text
    }

    /// What the scale sweep measures: "feeds", or "<shape> documents".
    static func what(_ plan: SweepPlan) -> String {
        plan.shape.map { "\($0) documents" } ?? "feeds"
    }

    /// Points grouped by parser (the order of first appearance), each by size then chunk size.
    static func ordered(_ points: [SweepPoint]) -> [SweepPoint] {
        var parsers: [String] = []
        for point in points where !parsers.contains(point.parser) { parsers.append(point.parser) }
        return parsers.flatMap { parser in
            points.filter { $0.parser == parser }.sorted {
                ($0.size, $0.chunkSize == 0 ? Int.max : $0.chunkSize) < (
                    $1.size, $1.chunkSize == 0 ? Int.max : $1.chunkSize
                )
            }
        }
    }

    static func legend(_ plan: SweepPlan) -> String {
        let kept =
            plan.workload == .songs
            ? """
            kept MiB: what the parse left allocated when it returned — the songs themselves. peak÷songs: parse MiB \
            over kept MiB: near 1 for a parser that keeps only the songs, growing for one that holds the document. 
            """
            : """
            elements: the document's start tags (its measured shape); every parser walks it into the shared event \
            sink, which keeps nothing; sink: that sink alone, replaying the document's recorded events. 
            """
        return """
            time ms: the median of the workers' median parse times; next run 95%: the interval the next run's figure \
            should fall in (from the workers; wide with few workers). ns/byte and instr/byte: per byte of \
            \(plan.workload == .songs ? "feed" : "document"). parse MiB: the parse's own peak (resident set above its level \
            before the parse). \(kept)allocs, alloc MiB: malloc-family calls of one parse and the bytes asked \
            (exact). A parser with no figure at a size says why in outcome (Foundation's XMLParser(data:) fails on \
            documents over 10,000,000 bytes here).
            """
    }

    /// An outcome short enough for a table cell; the whole text goes into the figure's caption.
    static func short(_ outcome: String?) -> String {
        guard let outcome else { return "" }
        if outcome.contains("not timed: FAILED") { return "failed (see caption)" }
        if outcome.contains("not timed: CRASHED") { return "crashed (see caption)" }
        if outcome.contains("not timed: TIMED OUT") { return "timed out (see caption)" }
        if outcome.contains("not timed: OUT OF MEMORY") { return "out of memory (see caption)" }
        if outcome.contains("lost the CPU") { return "lost the CPU: noisy (see caption)" }
        return outcome.count > 40 ? String(outcome.prefix(39)) + "…" : outcome
    }

    /// The outcomes of the points that have no figure, for a caption.
    static func failures(_ points: [SweepPoint], unit: String) -> String {
        let failed = points.filter { !$0.measured }
        guard !failed.isEmpty else { return "" }
        return " No figure: "
            + failed.map {
                "\($0.parser) at \($0.size) \(unit)\($0.sweep == "chunk" ? ", chunks of \(chunkName($0.chunkSize))" : ""): \($0.outcome ?? "")"
            }.joined(separator: "; ") + "."
    }

    static func e(_ text: String) -> String { SVGChart.escape(text) }
}
