import BenchResults
import Foundation

extension HTMLReport {
    /// The figures of one feed's `parse` cells: relative speed, binding tax, distance to the floor,
    /// parse time, throughput, memory and allocations.
    ///
    /// - Parameters:
    ///   - figures: each parser's figures on the feed.
    ///   - feed: the feed's path.
    ///   - suffix: what makes the charts' ids unique on a page of several feeds ("" for one).
    ///   - list: where the figures go.
    static func parseFigures(_ figures: [Figure], feed: String, suffix: String, into list: FigureList) {
        let name = Format.feedName(feed)
        let timed = figures.filter { $0.parser != "null" && $0.median != nil }
        relativeFigure(timed, name: name, suffix: suffix, into: list)
        ratioFigures(figures, name: name, suffix: suffix, into: list)
        timeFigures(timed, name: name, bytes: figures.first?.feedBytes ?? 0, suffix: suffix, into: list)
        memoryFigures(figures, name: name, suffix: suffix, into: list)
    }

    /// The overview of a run over several documents (or feeds): per parser, its time relative to the
    /// reference on each document, so that a distance that depends on the document's shape shows.
    static func documentOverview(_ figures: [Figure], into list: FigureList) {
        let ranked = figures.compactMap { f in f.relative.map { (figure: f, relative: $0) } }
            .filter { $0.figure.parser != $0.relative.reference }
        guard Set(ranked.map(\.figure.feed)).count > 1 else { return }
        var parsers: [String] = []
        for entry in ranked where !parsers.contains(entry.figure.parser) { parsers.append(entry.figure.parser) }
        let references = Set(ranked.map(\.relative.reference)).sorted().joined(separator: ", ")
        let groups = parsers.map { parser in
            SVGChart.Group(
                title: parser,
                bars: ranked.filter { $0.figure.parser == parser }.sorted { $0.figure.feed < $1.figure.feed }.map {
                    let r = $0.relative
                    let interval =
                        r.low.flatMap { low in r.high.map { " [\(RunReport.ratio(low))–\(RunReport.ratio($0))]" } }
                        ?? ""
                    return .init(
                        label: Format.feedName($0.figure.feed), value: r.ratio, low: r.low, high: r.high,
                        text: "\(RunReport.ratio(r.ratio))×\(interval)", key: parser)
                })
        }
        list.add(
            SVGChart.bars(
                id: "overview", title: "Overview: each parser's time relative to \(references) on every document",
                groups: groups, axisLabel: "time ÷ \(references)'s time on the same document (shorter is better)",
                sharedScale: true),
            caption:
                "Overview of the documents: each parser's time over \(references)'s on every document of the run, paired round by round, with the 95% interval (one scale for every parser: a longer bar is a larger ratio). "
                + "Where one parser's intervals on two documents do not overlap, its distance to \(references) depends on the document (the table's 'Between documents' names them)."
        )
    }

    /// Each parser's time over the fastest's, paired round by round, with its interval.
    static func relativeFigure(_ timed: [Figure], name: String, suffix: String, into figures: FigureList) {
        let ranked = timed.filter { $0.relative != nil }.sorted {
            ($0.relative?.ratio ?? 0) < ($1.relative?.ratio ?? 0)
        }
        if let reference = ranked.first?.relative?.reference {
            // An interval from fewer than 6 pairs of workers is no 95% one: the chart says so.
            let at95 = ranked.allSatisfy { $0.relative?.isAt95 ?? true }
            let level = at95 ? "95%" : "95% (fewer pairs: a lower level, marked)"
            figures.add(
                SVGChart.bars(
                    id: "relative\(suffix)",
                    title: "Time relative to \(reference) on \(name), with its \(at95 ? "95% " : "")interval",
                    bars: ranked.map { f in
                        let r = f.relative
                        let interval =
                            r.flatMap(RunReport.interval).map { " [\($0.range)\($0.level.map { ", \($0)" } ?? "")]" }
                            ?? ""
                        return .init(
                            label: label(f), value: r?.ratio ?? 1, low: r?.low, high: r?.high,
                            text: "\(RunReport.ratio(r?.ratio ?? 1))×\(interval)", key: f.parser)
                    },
                    axisLabel: "time ÷ \(reference)'s time, from workers side by side (shorter is better)"),
                caption:
                    "Relative speed on \(name): each parser's time over \(reference)'s, paired round by round (Hodges–Lehmann), with the \(level) Wilcoxon interval over the rounds."
            )
        }
    }

    /// The binding tax and the distance to the floor.
    static func ratioFigures(_ figures: [Figure], name: String, suffix: String, into list: FigureList) {
        ratioFigure(
            figures.filter { $0.bindingTax != nil }, \.bindingTax, id: "binding-tax\(suffix)",
            title: "Binding tax on \(name): each Swift adapter over the same extraction in C",
            axis: "adapter ÷ its C reference (1 = no cost; shorter is better)",
            caption:
                "Binding tax on \(name): the Swift adapter's time (or instructions, in a counted run) over its C reference's, the same extraction in plain C over the same library, paired round by round, with the 95% interval.",
            into: list)
        ratioFigure(
            figures.filter { $0.floorMultiple != nil }, \.floorMultiple, id: "floor\(suffix)",
            title: "Distance to the floor on \(name): each parser over memchr",
            axis: "parser ÷ the memchr floor (one pass over the bytes, no parsing)",
            caption:
                "Distance to the floor on \(name): each parser's time (or instructions) as a multiple of one memchr pass over the same bytes finding every '<', paired round by round, with the 95% interval.",
            into: list)
    }

    /// Parse time with the next run's interval, and throughput.
    static func timeFigures(_ timed: [Figure], name: String, bytes: Int, suffix: String, into figures: FigureList) {
        // A 95% interval only from 10 workers on: with fewer the caption claims no level (the table
        // under the charts says what theirs covers).
        let shortCoverage = timed.contains { $0.shortCoverage != nil }
        figures.add(
            barsOrNote(
                timed, id: "parse-time\(suffix)", none: "No times (an instruction-count run?)",
                title: "Parse time on \(name), with the next run's \(shortCoverage ? "" : "95% ")interval",
                axis: "milliseconds per parse (shorter is better)"
            ) { f in
                .init(
                    label: label(f), value: (f.median ?? 0) / 1e6, low: f.low.map { $0 / 1e6 },
                    high: f.high.map { $0 / 1e6 },
                    text: "\(Format.ms(f.median)) ms [\(Format.ms(f.low))–\(Format.ms(f.high))]", key: f.parser)
            },
            caption:
                "Parse time on \(name) (\(bytes) bytes): the median of the worker processes' median times; the whiskers are the \(shortCoverage ? "" : "95% ")interval the next run's figure should fall in (distribution-free, from the workers\(shortCoverage ? HTMLReport.shortOf95 : "")), unless a yellow box says the machine changed speed."
        )
        figures.add(
            timed.isEmpty
                ? empty("throughput\(suffix)", "No times")
                : SVGChart.bars(
                    id: "throughput\(suffix)", title: "Throughput on \(name)",
                    bars: timed.filter { $0.kind != "floor" }.map { f in
                        let mbps = Double(f.feedBytes) / ((f.median ?? 1) / 1e9) / 1e6
                        return .init(
                            label: label(f), value: mbps, text: "\(Format.number(mbps)) MB/s", key: f.parser
                        )
                    },
                    axisLabel: "megabytes (10⁶ bytes) per second (longer is better)"),
            caption:
                "Throughput on \(name): feed bytes divided by the median parse time (the memchr floor, an order of magnitude above any parser, is left out: see the distance to the floor)."
        )
    }

    /// A bar chart of `figures`, a bar each, or a note saying `none` when there are none.
    static func barsOrNote(
        _ figures: [Figure], id: String, none: String, title: String, axis: String,
        bar: (Figure) -> SVGChart.Bar
    ) -> String {
        figures.isEmpty ? empty(id, none) : SVGChart.bars(id: id, title: title, bars: figures.map(bar), axisLabel: axis)
    }

    /// The parse's own memory, and allocations when they were counted.
    static func memoryFigures(_ figures: [Figure], name: String, suffix: String, into list: FigureList) {
        let withPeak = figures.filter { $0.parsePeak != nil || $0.peak != nil }
        list.add(
            barsOrNote(
                withPeak, id: "peak-memory\(suffix)", none: "No peak memory (an instruction-count run?)",
                title: "Memory of the parse on \(name)", axis: "MiB the parse itself needed (shorter is better)"
            ) { f in
                var text = "\(Format.mib(f.parsePeak, decimals: 2)) MiB"
                if let peak = f.peak { text += " (worker: \(Format.mib(peak)) MiB)" }
                return .init(label: label(f), value: (f.parsePeak ?? 0) / 1_048_576, text: text, key: f.parser)
            },
            caption:
                "Memory on \(name): the parse's own peak, how far the worker's resident set rose above its level just before its first parse (the feed already loaded); in brackets, the worker process's whole-life peak, loading the feed included."
        )
        let counted = figures.filter { $0.allocations != nil }
        if !counted.isEmpty {
            list.add(
                SVGChart.bars(
                    id: "allocations\(suffix)", title: "Allocations per parse on \(name)",
                    bars: counted.map { f in
                        .init(
                            label: label(f), value: f.allocations ?? 0,
                            text:
                                "\(Format.number(f.allocations, decimals: 0)) (\(Format.mib(f.allocatedBytes, decimals: 2)) MiB asked)",
                            key: f.parser)
                    },
                    axisLabel: "malloc-family calls in one parse (shorter is better)"),
                caption:
                    "Allocations on \(name): malloc-family calls of one parse, Swift's and the C library's alike, and the bytes they asked for, counted in a worker with the allocation interposer loaded (exact: the same binary and feed count the same)."
            )
        }

    }

    /// A bar chart of one ratio per parser (binding tax, multiple of the floor), with its interval;
    /// nothing when no parser has it.
    static func ratioFigure(
        _ figures: [Figure], _ field: KeyPath<Figure, RelativeSpeed?>, id: String, title: String, axis: String,
        caption: String, into list: FigureList
    ) {
        let sorted = figures.sorted { ($0[keyPath: field]?.ratio ?? 0) < ($1[keyPath: field]?.ratio ?? 0) }
        guard !sorted.isEmpty else { return }
        list.add(
            SVGChart.bars(
                id: id, title: title,
                bars: sorted.map { f in
                    let r = f[keyPath: field]
                    let interval = RunReport.ratioWithInterval(r)
                    return .init(
                        label: label(f), value: r?.ratio ?? 1, low: r?.low, high: r?.high,
                        text: "\(interval)×", key: f.parser)
                },
                axisLabel: axis),
            caption: caption)
    }

    /// A bar's label: the parser and its kind.
    static func label(_ figure: Figure) -> String {
        figure.kind.map { "\(figure.parser) (\($0))" } ?? figure.parser
    }
}
