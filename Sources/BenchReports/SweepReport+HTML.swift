import BenchResults

extension SweepReport {
    /// The sweep as one self-contained HTML page: time, memory and allocations against the
    /// document's size, time against the chunk size, the slopes, and every figure as text.
    public static func html(_ result: SweepResult) -> String {
        var page = SweepPage(result)
        page.about()
        let scale = result.points.filter { $0.sweep == "scale" }
        if !scale.isEmpty {
            let timed = scale.filter { $0.parser != "null" }
            page.timeAgainstSize(timed)
            page.memoryAgainstSize(timed)
            page.allocationsAgainstSize(scale)
        }
        if !result.slopes.isEmpty {
            page.body +=
                "<h2>Growth with the \(result.plan.workload == .songs ? "feed" : "document")</h2>\n"
                + HTMLReport.htmlTable(header: slopeHeader(result.plan), rows: result.slopes.map(slopeRow))
        }
        page.timeAgainstChunkSize(result.points.filter { $0.sweep == "chunk" })
        page.body += "<h2>Figures as text</h2>\n<pre>\(e(header(result) + "\n" + table(result)))</pre>\n"
        return HTMLReport.page(
            title: "XML parser benchmark — sweep \(result.environment.runID)", body: page.body, wide: true)
    }
}

/// The sweep's page as it is built: its body so far, and the figures numbered in order.
struct SweepPage {
    let result: SweepResult
    /// The parsers in the report's order.
    let parsers: [String]
    var body = ""
    private var number = 0

    init(_ result: SweepResult) {
        self.result = result
        parsers = SweepReport.ordered(result.points).reduce(into: [String]()) {
            if !$0.contains($1.parser) { $0.append($1.parser) }
        }
    }

    private static func e(_ text: String) -> String { SweepReport.e(text) }

    private var songs: Bool { result.plan.workload == .songs }
    /// What the x axes measure: "feed" or "document".
    private var document: String { songs ? "feed" : "document" }

    /// A point's size in words: "300 songs", "1000000 bytes".
    private func size(_ point: SweepPoint) -> String { result.plan.describe(point.size) }

    /// The failures of `points` for a caption.
    private func failures(_ points: [SweepPoint]) -> String { SweepReport.failures(points, unit: result.plan.unit) }

    /// The title, the machine and the settings, the noise, and how to read the page.
    mutating func about() {
        let environment = result.environment
        let e = Self.e
        body = "<h1>XML parser benchmark — how cost grows (sweep \(e(environment.runID)))</h1>\n"
        body += "<p class=\"about\">\(e(environment.startedAt)): \(e(environment.buildConfiguration)) build"
        if let commit = environment.gitCommit { body += " of commit \(e(commit))" }
        body +=
            "; \(e(environment.swiftVersion)); <strong>libxml2 \(e(environment.libxml2Version)), expat \(e(environment.expatVersion))</strong>; "
        body += "\(e(environment.cpuModel)), \(environment.coresText); \(e(environment.os)). "
        body +=
            "\(result.settings.rounds) worker process\(result.settings.rounds == 1 ? "" : "es") per cell, "
            + "\(result.settings.iterations) timed parse\(result.settings.iterations == 1 ? "" : "s") each.</p>\n"
        for line in SweepReport.noiseLines(result.noise) {
            body +=
                line.hasPrefix("NOISY MACHINE: ")
                ? "<p class=\"warning\">Noisy machine: \(e(String(line.dropFirst("NOISY MACHINE: ".count))))</p>\n"
                : "<p class=\"about\">\(e(line))</p>\n"
        }
        let what =
            songs
            ? """
            Every parser builds the same songs from generated feeds of growing size (checked identical before \
            anything is timed). On log–log axes a straight line of slope 1 is a cost in proportion to the feed. A \
            streaming parser's memory stays near the songs' own (the dashed line); a parser that holds the document \
            grows with the document.
            """
            : """
            Every parser walks generated \(e(result.plan.shape ?? "")) documents of growing size into the same \
            event sink (their events checked identical before anything is timed); the sink keeps nothing, so a \
            streaming parser's memory stays flat while a tree parser's grows with the document. On log–log axes a \
            straight line of slope 1 is a cost in proportion to the document.
            """
        body += """
            <section class="intro"><h2>How to read this</h2><p>\(what) A cross on the top edge marks a size where \
            a parser has no figure because it failed there; the table beside says why.</p></section>

            """
    }

    /// A numbered figure: the chart, its table beside, the caption.
    private mutating func figure(_ svg: String, caption: String, table: [[String]], header: [String]) {
        number += 1
        body += "<figure class=\"pair\">\(svg)" + HTMLReport.htmlTable(header: header, rows: table)
        body += "<figcaption>Figure \(number). \(Self.e(caption))</figcaption></figure>\n"
    }

    /// A line per parser; a point without a figure (it failed there) becomes a cross on the top edge.
    private func series(
        _ points: [SweepPoint], x: (SweepPoint) -> Double, y: (SweepPoint) -> Double?, tip: (SweepPoint) -> String
    ) -> [SVGChart.XYSeries] {
        parsers.compactMap { parser in
            let mine = points.filter { $0.parser == parser }
            guard !mine.isEmpty else { return nil }
            return SVGChart.XYSeries(
                name: parser,
                points: mine.compactMap { p in y(p).map { (x(p), $0, "\(parser): \(tip(p))") } },
                failures: mine.filter { !$0.measured }.map {
                    (x($0), "\(parser) at \(size($0)): \($0.outcome ?? "no figure")")
                })
        }
    }

    mutating func timeAgainstSize(_ timed: [SweepPoint]) {
        figure(
            SVGChart.logLog(
                id: "time-vs-size", title: "Parse time against \(document) size (log–log)",
                series: series(
                    timed, x: { Double($0.feedBytes) }, y: { $0.timeNs.map { $0 / 1e6 } },
                    tip: { "\(Format.ms($0.timeNs)) ms at \(size($0))" }),
                xLabel: "\(document) size", yLabel: "ms per parse", xTick: SVGChart.byteTick),
            caption:
                "Parse time against the \(document)'s size, chunks of \(SweepReport.chunkName(result.plan.chunkSize)): the median of the workers' medians at each size."
                + failures(timed),
            table: SweepReport.ordered(timed).map {
                [
                    $0.parser, String($0.size), Format.ms($0.timeNs), SweepReport.interval($0),
                    Format.number($0.megabytesPerSecond), SweepReport.short($0.outcome),
                ]
            },
            header: ["parser", result.plan.unit, "ms", "next run 95%", "MB/s", "outcome"])
    }

    /// The parse's own peak, with the songs' own memory as a dashed line beneath.
    mutating func memoryAgainstSize(_ timed: [SweepPoint]) {
        var memory = series(
            timed, x: { Double($0.feedBytes) }, y: { $0.parsePeakBytes.map { Double($0) / 1_048_576 } },
            tip: {
                "parse peak \(Format.mib($0.parsePeakBytes.map(Double.init), decimals: 2)) MiB at \(size($0))"
            })
        var byFeed: [Int: SweepPoint] = [:]
        for point in timed where songs && point.keptBytes != nil && byFeed[point.feedBytes] == nil {
            byFeed[point.feedBytes] = point
        }
        if !byFeed.isEmpty {
            memory.append(
                SVGChart.XYSeries(
                    name: "the songs",
                    points: byFeed.values.sorted { $0.feedBytes < $1.feedBytes }.compactMap { p in
                        p.keptBytes.map {
                            (Double(p.feedBytes), $0 / 1_048_576, "the songs: \(Format.mib($0, decimals: 2)) MiB")
                        }
                    }, dashed: true, key: "null"))
        }
        figure(
            SVGChart.logLog(
                id: "memory-vs-size", title: "Peak memory of the parse against \(document) size (log–log)",
                series: memory, xLabel: "\(document) size", yLabel: "MiB", xTick: SVGChart.byteTick),
            caption: "The parse's own peak memory against the \(document)'s size"
                + (songs ? "; dashed: the memory of the songs themselves (bytes the parse left allocated)." : ".")
                + failures(timed),
            table: SweepReport.ordered(timed).map {
                [$0.parser, String($0.size), Format.mib($0.parsePeakBytes.map(Double.init), decimals: 2)]
                    + (songs
                        ? [Format.mib($0.keptBytes, decimals: 2), Format.number($0.peakOverSongs, decimals: 2)] : [])
                    + [SweepReport.short($0.outcome)]
            },
            header: ["parser", result.plan.unit, "parse MiB"] + (songs ? ["songs MiB", "peak÷songs"] : []) + ["outcome"]
        )
    }

    mutating func allocationsAgainstSize(_ scale: [SweepPoint]) {
        figure(
            SVGChart.logLog(
                id: "allocations-vs-size", title: "Allocations per parse against \(document) size (log–log)",
                series: series(
                    scale.filter { $0.parser != "null" }, x: { Double($0.feedBytes) }, y: { $0.allocations },
                    tip: { "\(Format.number($0.allocations, decimals: 0)) allocations at \(size($0))" }),
                xLabel: "\(document) size", yLabel: "malloc-family calls", xTick: SVGChart.byteTick,
                yTick: SVGChart.countTick),
            caption: "malloc-family calls of one parse against the \(document)'s size (exact counts).",
            table: SweepReport.ordered(scale).map {
                [
                    $0.parser, String($0.size), Format.number($0.allocations, decimals: 0),
                    Format.mib($0.allocatedBytes, decimals: 2),
                ]
            },
            header: ["parser", result.plan.unit, "allocations", "MiB asked"])
    }

    /// The chunk sweep; the whole document in one call sits at x = the document's size.
    mutating func timeAgainstChunkSize(_ chunk: [SweepPoint]) {
        guard let feedBytes = chunk.first?.feedBytes else { return }
        let x: (SweepPoint) -> Double = { Double($0.chunkSize == 0 ? feedBytes : $0.chunkSize) }
        let timed = chunk.filter { $0.parser != "null" }
        figure(
            SVGChart.logLog(
                id: "time-vs-chunk", title: "Parse time against chunk size (log–log)",
                series: series(
                    timed, x: x, y: { $0.timeNs.map { $0 / 1e6 } },
                    tip: { "\(Format.ms($0.timeNs)) ms with chunks of \(SweepReport.chunkName($0.chunkSize))" }),
                xLabel: "bytes per call (the last point: the whole \(document) in one call)", yLabel: "ms per parse",
                xTick: SVGChart.byteTick),
            caption:
                "Parse time against the chunk size on \(songs ? "\(result.plan.chunkDocumentSize) songs" : "the \(result.plan.shape ?? "") document") (\(feedBytes) bytes), libxml2 \(result.environment.libxml2Version), expat \(result.environment.expatVersion)."
                + failures(timed),
            table: SweepReport.ordered(timed).map {
                [
                    $0.parser, SweepReport.chunkName($0.chunkSize), Format.ms($0.timeNs), SweepReport.interval($0),
                    SweepReport.short($0.outcome),
                ]
            },
            header: ["parser", "chunk", "ms", "next run 95%", "outcome"])
    }
}
