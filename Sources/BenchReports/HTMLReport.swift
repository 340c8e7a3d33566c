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
    }

    /// The report of one run.
    ///
    /// `history` holds the stored samples of every run (this one included,
    /// when it was recorded), for the history and the network profiles measured by other runs.
    public static func run(_ result: RunResult, history: [StoredSample]) -> String {
        let environment = result.environment
        let parse = result.cells.filter { $0.cell.scenario == .parse }.map { cell in
            Figure(
                parser: cell.cell.parser, feed: cell.cell.feedPath, feedBytes: cell.cell.feedBytes, songs: cell.songs,
                median: cell.time, low: cell.estimate?.low, high: cell.estimate?.high,
                peak: cell.peakResidentBytes.map(Double.init),
                peakOverBaseline: cell.peakOverBaselineBytes.map(Double.init),
                firstSong: cell.firstSongMedianNs, parsePeak: cell.parsePeakBytes.map(Double.init),
                relative: cell.relative,
                allocations: cell.allocations?.median, allocatedBytes: cell.allocatedBytes, kind: cell.kind,
                bindingTax: cell.bindingTax, floorMultiple: cell.floorMultiple)
        }
        var samples = history
        if !history.contains(where: { $0.runID == environment.runID }) {
            samples += result.samples.map {
                StoredSample(runID: environment.runID, runStartedAt: environment.startedAt, sample: $0)
            }
        }
        var about = "Run \(environment.runID), \(environment.startedAt): \(environment.buildConfiguration) build"
        if let commit = environment.gitCommit { about += " of commit \(commit)" }
        about +=
            "; \(environment.swiftVersion); libxml2 \(environment.libxml2Version), expat \(environment.expatVersion); "
        about += "\(environment.cpuModel), \(environment.cores) cores; \(environment.os). "
        about +=
            "\(result.settings.rounds) worker process\(result.settings.rounds == 1 ? "" : "es") per parser, run side by side in rounds, "
        about +=
            "\(result.settings.iterations) timed parses each after \(result.settings.warmup) warm-up, chunks of \(result.settings.chunkSize) bytes."
        var warnings: [String] = []
        if let noise = result.noise {
            if noise.noisy {
                warnings += noise.warnings.map { "Noisy machine: \($0)" }
            } else {
                about += " " + RunReport.noiseLines(noise).joined(separator: " ")
            }
        }
        if environment.isDebug { warnings.append("This is a debug build: its times are not representative.") }
        if let percent = result.settings.slowdownPercent, percent > 0 {
            warnings.append(
                "This run has an injected slowdown of \(percent)% (a test of the regression gate, not a measurement).")
        }
        if result.settings.counter == RunSettings.instructionCounter {
            warnings.append("This run counted instructions under valgrind: it has no times. See its table.")
        }
        let wrong = result.cells.filter { $0.cell.scenario == RunReport.notTimed }
            .map { "\($0.cell.parser) was not timed on \($0.cell.feedPath): \($0.outcome ?? "")" }
        return document(
            title: "XML parser benchmark — run \(environment.runID)", about: about, warnings: warnings + wrong,
            parse: parse, history: samples, table: RunReport.table(result))
    }

    /// The report of the stats store (`bench report --format html`): averages across the stored runs.
    public static func store(_ rows: [HistoryRow], history: [StoredSample]) -> String {
        let severalMachines = Set(rows.map(\.machine)).count > 1
        let parse = rows.filter { $0.scenario == .parse }.map { row in
            Figure(
                parser: severalMachines ? "\(row.parser) on \(row.machine?.host ?? "?")" : row.parser,
                feed: row.feedPath, feedBytes: row.feedBytes ?? 0, songs: 0, median: row.wall?.median,
                low: row.wall?.medianLow, high: row.wall?.medianHigh, peak: row.peakResidentMedianBytes,
                peakOverBaseline: nil, firstSong: row.firstSong?.median, parsePeak: row.parsePeakMedianBytes)
        }
        let runs = Set(history.map(\.runID)).count
        let noisy = Set(history.filter { $0.runNoisy == true }.map(\.runID)).count
        let about =
            "Averages over \(runs) stored run\(runs == 1 ? "" : "s") (\(history.count) samples"
            + (noisy > 0 ? ", \(noisy) of the runs flagged noisy" : "") + "); "
            + "each figure pools every stored parse of a parser on a feed and chunk size that succeeded and kept the CPU. "
            + "The whiskers are the interval of those pooled parses: they describe the stored parses, not the next run."
        return document(
            title: "XML parser benchmark — stored runs", about: about, warnings: [], parse: parse, history: history,
            table: HistoryReport.table(rows))
    }

    // MARK: - The page

    /// A bar chart of one ratio per parser (binding tax, multiple of the floor), with its interval;
    /// nothing when no parser has it.
    static func ratioFigure(
        _ figures: [Figure], _ field: KeyPath<Figure, RelativeSpeed?>, id: String, title: String, axis: String,
        caption: String, into figure: (String, String) -> Void
    ) {
        let sorted = figures.sorted { ($0[keyPath: field]?.ratio ?? 0) < ($1[keyPath: field]?.ratio ?? 0) }
        guard !sorted.isEmpty else { return }
        figure(
            SVGChart.bars(
                id: id, title: title,
                groups: [
                    .init(
                        title: nil,
                        bars: sorted.map { f in
                            let r = f[keyPath: field]
                            let interval = RunReport.ratioWithInterval(r)
                            return .init(
                                label: label(f), value: r?.ratio ?? 1, low: r?.low, high: r?.high,
                                text: "\(interval)×", key: f.parser)
                        })
                ],
                axisLabel: axis),
            caption)
    }

    /// A bar's label: the parser and its kind.
    static func label(_ figure: Figure) -> String {
        figure.kind.map { "\(figure.parser) (\($0))" } ?? figure.parser
    }

    static func document(
        title: String, about: String, warnings: [String], parse: [Figure], history: [StoredSample], table: String
    ) -> String {
        var body = "<h1>\(e(title))</h1>\n<p class=\"about\">\(e(about))</p>\n"
        for warning in warnings { body += "<p class=\"warning\">\(e(warning))</p>\n" }
        body += """
            <section class="intro"><h2>How to read this</h2>
            <p>Each parser (libxml2's SAX push parser, expat, Foundation's XMLParser, and with \
            <code>--parsers all</code> libxml2's reader and tree, XMLCoder and SWXMLHash) builds the same songs from \
            the same iTunes Store RSS feed, checked to be identical before anything is timed. A parse is one fresh \
            parser fed the feed's bytes in chunks, as they would arrive from the network. Each parser runs in \
            several worker processes, one per round, side by side with the other parsers' workers. \
            <strong>Shorter bars are better</strong>, except for throughput. The first figure gives each parser's \
            time as a multiple of the fastest one's, estimated from workers that ran in the same round: it holds \
            when the whole machine speeds up or slows down. The black whiskers are 95% intervals taken over the \
            worker processes: on the parse-time figure, the interval the next run's figure should fall in (it \
            includes the noise between processes); on the relative-speed figure, the interval of the ratio — when \
            it stays clear of 1, the order of the two parsers is not noise. A yellow box means the harness found the machine too busy for the figures to hold. \
            <code>null</code> is a baseline that parses nothing: the harness's own cost. Each parser has a \
            <em>kind</em> (in the table and the bar labels): push/event (SAX-style callbacks), pull (a reader asked \
            for the next node), tree (the whole document, then lookups), Codable (decoded into types), reference \
            (the Swift adapters' extraction written in plain C: <code>c-libxml2</code>, <code>c-expat</code>) and \
            floor (<code>memchr</code> over the bytes, no parsing: the lower bound). The <em>binding tax</em> is a \
            Swift adapter's time (or instruction count) over its C reference's; <em>× floor</em> is every \
            parser's over the floor's.</p></section>

            """
        var number = 0
        func figure(_ svg: String, caption: String) {
            number += 1
            body += "<figure>\(svg)<figcaption>Figure \(number). \(e(caption))</figcaption></figure>\n"
        }
        let groups = Dictionary(grouping: parse, by: \.feed).sorted { $0.key < $1.key }
        if groups.isEmpty {
            figure(empty("parse-time", "No parse figures yet: run swift run -c release bench"), caption: "Parse time.")
        }
        for (index, (feed, figures)) in groups.enumerated() {
            let suffix = groups.count > 1 ? "-\(index + 1)" : ""
            let name = Format.feedName(feed)
            let bytes = figures.first?.feedBytes ?? 0
            let timed = figures.filter { $0.parser != "null" && $0.median != nil }
            let ranked = timed.filter { $0.relative != nil }.sorted {
                ($0.relative?.ratio ?? 0) < ($1.relative?.ratio ?? 0)
            }
            if let reference = ranked.first?.relative?.reference {
                figure(
                    SVGChart.bars(
                        id: "relative\(suffix)",
                        title: "Time relative to \(reference) on \(name), with its 95% interval",
                        groups: [
                            .init(
                                title: nil,
                                bars: ranked.map { f in
                                    let r = f.relative
                                    let interval =
                                        r?.low.flatMap { low in
                                            r?.high.map { " [\(RunReport.ratio(low))–\(RunReport.ratio($0))]" }
                                        } ?? ""
                                    return .init(
                                        label: label(f), value: r?.ratio ?? 1, low: r?.low, high: r?.high,
                                        text: "\(RunReport.ratio(r?.ratio ?? 1))×\(interval)", key: f.parser)
                                })
                        ],
                        axisLabel: "time ÷ \(reference)'s time, from workers side by side (shorter is better)"),
                    caption:
                        "Relative speed on \(name): each parser's time over \(reference)'s, paired round by round (Hodges–Lehmann), with the 95% Wilcoxon interval over the rounds."
                )
            }
            ratioFigure(
                figures.filter { $0.bindingTax != nil }, \.bindingTax, id: "binding-tax\(suffix)",
                title: "Binding tax on \(name): each Swift adapter over the same extraction in C",
                axis: "adapter ÷ its C reference (1 = no cost; shorter is better)",
                caption:
                    "Binding tax on \(name): the Swift adapter's time (or instructions, in a counted run) over its C reference's, the same extraction in plain C over the same library, paired round by round, with the 95% interval.",
                into: figure)
            ratioFigure(
                figures.filter { $0.floorMultiple != nil }, \.floorMultiple, id: "floor\(suffix)",
                title: "Distance to the floor on \(name): each parser over memchr",
                axis: "parser ÷ the memchr floor (one pass over the bytes, no parsing)",
                caption:
                    "Distance to the floor on \(name): each parser's time (or instructions) as a multiple of one memchr pass over the same bytes finding every '<', paired round by round, with the 95% interval.",
                into: figure)
            figure(
                timed.isEmpty
                    ? empty("parse-time\(suffix)", "No times (an instruction-count run?)")
                    : SVGChart.bars(
                        id: "parse-time\(suffix)", title: "Parse time on \(name), with the next run's 95% interval",
                        groups: [
                            .init(
                                title: nil,
                                bars: timed.map { f in
                                    .init(
                                        label: label(f), value: (f.median ?? 0) / 1e6, low: f.low.map { $0 / 1e6 },
                                        high: f.high.map { $0 / 1e6 },
                                        text: "\(Format.ms(f.median)) ms [\(Format.ms(f.low))–\(Format.ms(f.high))]",
                                        key: f.parser)
                                })
                        ],
                        axisLabel: "milliseconds per parse (shorter is better)"),
                caption:
                    "Parse time on \(name) (\(bytes) bytes): the median of the worker processes' median times; the whiskers are the 95% interval the next run's figure should fall in (distribution-free, from the workers), unless a yellow box says the machine changed speed."
            )
            figure(
                timed.isEmpty
                    ? empty("throughput\(suffix)", "No times")
                    : SVGChart.bars(
                        id: "throughput\(suffix)", title: "Throughput on \(name)",
                        groups: [
                            .init(
                                title: nil,
                                bars: timed.filter { $0.kind != "floor" }.map { f in
                                    let mbps = Double(f.feedBytes) / ((f.median ?? 1) / 1e9) / 1e6
                                    return .init(
                                        label: label(f), value: mbps, text: "\(Format.number(mbps)) MB/s", key: f.parser
                                    )
                                })
                        ],
                        axisLabel: "megabytes (10⁶ bytes) per second (longer is better)"),
                caption:
                    "Throughput on \(name): feed bytes divided by the median parse time (the memchr floor, an order of magnitude above any parser, is left out: see the distance to the floor)."
            )
            let withPeak = figures.filter { $0.parsePeak != nil || $0.peak != nil }
            figure(
                withPeak.isEmpty
                    ? empty("peak-memory\(suffix)", "No peak memory (an instruction-count run?)")
                    : SVGChart.bars(
                        id: "peak-memory\(suffix)", title: "Memory of the parse on \(name)",
                        groups: [
                            .init(
                                title: nil,
                                bars: withPeak.map { f in
                                    var text = "\(Format.mib(f.parsePeak, decimals: 2)) MiB"
                                    if let peak = f.peak { text += " (worker: \(Format.mib(peak)) MiB)" }
                                    return .init(
                                        label: label(f), value: (f.parsePeak ?? 0) / 1_048_576, text: text,
                                        key: f.parser)
                                })
                        ],
                        axisLabel: "MiB the parse itself needed (shorter is better)"),
                caption:
                    "Memory on \(name): the parse's own peak, how far the worker's resident set rose above its level just before its first parse (the feed already loaded); in brackets, the worker process's whole-life peak, loading the feed included."
            )
            let counted = figures.filter { $0.allocations != nil }
            if !counted.isEmpty {
                figure(
                    SVGChart.bars(
                        id: "allocations\(suffix)", title: "Allocations per parse on \(name)",
                        groups: [
                            .init(
                                title: nil,
                                bars: counted.map { f in
                                    .init(
                                        label: label(f), value: f.allocations ?? 0,
                                        text:
                                            "\(Format.number(f.allocations, decimals: 0)) (\(Format.mib(f.allocatedBytes, decimals: 2)) MiB asked)",
                                        key: f.parser)
                                })
                        ],
                        axisLabel: "malloc-family calls in one parse (shorter is better)"),
                    caption:
                        "Allocations on \(name): malloc-family calls of one parse, Swift's and the C library's alike, and the bytes they asked for, counted in a worker with the allocation interposer loaded (exact: the same binary and feed count the same)."
                )
            }
        }
        // The practices per machine when the history holds several: never one figure over unlike machines.
        let machines = Set(history.compactMap(\.machine)).sorted()
        if machines.count > 1 {
            for machine in machines {
                let figures = PracticeFigures.of(samples: history.filter { $0.machine == machine }.map(\.sample))
                guard !figures.isEmpty else { continue }
                body += "<h3>On \(e(machine.label))</h3>\n"
                practiceSections(figures, figure: figure) { body += $0 }
            }
        } else {
            practiceSections(PracticeFigures.of(samples: history.map(\.sample)), figure: figure) { body += $0 }
        }
        figure(
            firstSongChart(history),
            caption:
                "Time to the first song, per network profile: how long a user waits before the first song can be shown. "
                + "Download profiles measure from the request; in memory, from the start of the parse. Each profile has its own scale."
        )
        figure(
            historyChart(history),
            caption:
                "History: each parser's median parse time in every stored run, oldest first (parse scenario, the most measured feed). "
                + "A jump shared by every parser is the machine; one parser's own jump is a change. Runs of several machines "
                + "(host, CPU, library versions): a chart per parser with one line per machine.")
        body += "<h2>Figures as text</h2>\n<pre>\(e(table))</pre>\n"
        return page(title: title, body: body)
    }

    /// A self-contained page around `body` (inline CSS; no scripts, fonts or links).
    static func page(title: String, body: String, wide: Bool = false) -> String {
        """
        <!DOCTYPE html>
        <html xmlns="http://www.w3.org/1999/xhtml" lang="en">
        <head>
        <meta charset="utf-8"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <title>\(e(title))</title>
        <style>
        body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 820px; padding: 0 1em; color: #222; line-height: 1.45; }
        h1 { font-size: 1.5em; margin-bottom: 0.2em; }
        h2 { font-size: 1.15em; margin-top: 1.6em; }
        .about { color: #555; font-size: 0.9em; }
        .warning { background: #fff3cd; border: 1px solid #e0c36c; padding: 0.5em 0.8em; border-radius: 4px; }
        .intro { background: #f5f7fa; padding: 0.2em 1em 0.6em; border-radius: 6px; }
        figure { margin: 1.8em 0; }
        figcaption { color: #444; font-size: 0.9em; margin-top: 0.3em; }
        svg.chart { max-width: 100%; height: auto; background: #fff; }
        pre { font-size: 0.75em; overflow-x: auto; background: #f7f7f7; padding: 0.8em; }
        code { background: #eef; padding: 0 0.2em; }
        body.wide { max-width: 1400px; }
        figure.pair { display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-start; max-width: 100%; }
        figure.pair > svg { flex: 0 1 760px; min-width: 0; }
        figure.pair > figcaption { flex: 1 1 100%; }
        table { border-collapse: collapse; font-size: 0.8em; }
        th, td { border-bottom: 1px solid #e3e3e3; padding: 0.15em 0.5em; text-align: right; }
        th:first-child, td:first-child { text-align: left; }
        </style>
        </head>
        <body\(wide ? " class=\"wide\"" : "")>
        \(body)</body>
        </html>

        """
    }

    static let practiceTitles: [String: (heading: String, question: String)] = [
        "paging": (
            "Paging",
            "Which page size? Each page costs a round trip; a parser that waits for the whole body shows its first song sooner with small pages, a push parser already streams it."
        ),
        "fields": ("Partial response", "Ask only for the song fields (?fields=)? Fewer bytes to send and to parse."),
        "compression": ("Compression", "Ask for gzip? Fewer bytes on the wire, some CPU to inflate them."),
        "queue": (
            "A bounded fetch queue",
            "How many requests at once? The link's bandwidth is shared; only the round trips overlap."
        ),
        "cancel": (
            "Cancel when the user leaves",
            "What still happens after cancel-all, once the first page is in: requests started, bytes delivered, parser time (the goal is none beyond what was in flight)."
        ),
        "store": (
            "Storing the songs",
            "One transaction per song or one for the batch; in the index's order or shuffled (SQLite through GRDB, an app's defaults)."
        ),
    ]

    /// One section per practice: the choices against the total time (with the next run's interval),
    /// the first song, the bytes on the wire and the requests, a group per network profile.
    static func practiceSections(_ figures: [PracticeFigures], figure: (String, String) -> Void, text: (String) -> Void)
    {
        let order = ["", "loopback", "wifi", "lte", "3g", "edge", "custom"]
        for practice in PracticeFigures.practiceOrder {
            let mine = figures.filter { $0.practice == practice && $0.parser != "null" && $0.totalNs != nil }
            guard !mine.isEmpty, let title = practiceTitles[practice] else { continue }
            text("<h2>\(e(title.heading))</h2>\n<p>\(e(title.question))</p>\n")
            let networks = Set(mine.map(\.network)).sorted {
                (order.firstIndex(of: $0) ?? order.count, $0) < (order.firstIndex(of: $1) ?? order.count, $1)
            }
            func groups(_ value: (PracticeFigures) -> Double?, _ text: (PracticeFigures) -> String, interval: Bool)
                -> [SVGChart.Group]
            {
                networks.map { network in
                    let rows = mine.filter { $0.network == network }.sorted {
                        ($0.order, $0.parser) < ($1.order, $1.parser)
                    }
                    return .init(
                        title: network.isEmpty ? "on this machine's disk" : "network profile: \(network)",
                        bars: rows.compactMap { f in
                            guard let v = value(f) else { return nil }
                            return .init(
                                label: "\(f.choice) · \(f.parser)", value: v / 1e6,
                                low: interval ? f.totalLowNs.map { $0 / 1e6 } : nil,
                                high: interval ? f.totalHighNs.map { $0 / 1e6 } : nil,
                                text: text(f), key: f.parser)
                        })
                }
            }
            func kb(_ bytes: Double?) -> String { bytes.map { Format.number($0 / 1_000, decimals: 0) + " KB" } ?? "" }
            if practice == "store" {
                figure(
                    SVGChart.bars(
                        id: "practice-store", title: "Storing the songs: parse + store time",
                        groups: groups(
                            \.totalNs,
                            { "\(Format.ms($0.totalNs)) ms (store \(Format.ms($0.storeNs)) ms, \($0.songs) songs)" },
                            interval: true),
                        axisLabel: "milliseconds, parse then store (shorter is better)"),
                    "Storing the songs: each way of writing them against the time to parse the feed and write every song (store time in brackets); whiskers: the next run's 95% interval."
                )
                continue
            }
            figure(
                SVGChart.bars(
                    id: "practice-\(practice)-total", title: "\(title.heading): total time, bytes and requests",
                    groups: groups(
                        \.totalNs,
                        { f in
                            var text =
                                "\(Format.ms(f.totalNs)) ms · \(kb(f.wireBytes)) · \(Format.number(f.requests, decimals: 0)) req"
                            if practice == "cancel" { text += " · \(f.afterCancelBytes ?? 0) B after" }
                            return text
                        }, interval: true),
                    axisLabel: "milliseconds until every kept song is ready (shorter is better)"),
                "\(title.heading): each choice's total time (start to every kept song ready; whiskers: the next run's 95% interval), with the bytes on the wire and the requests; medians over the stored runs, per network profile."
            )
            figure(
                SVGChart.bars(
                    id: "practice-\(practice)-first-song", title: "\(title.heading): time to the first song",
                    groups: groups(\.firstSongNs, { "\(Format.ms($0.firstSongNs)) ms" }, interval: false),
                    axisLabel: "milliseconds to the first song of the first page (shorter is better)"),
                "\(title.heading): time from the first request to the first song the user can see.")
        }
    }

    /// Time to the first song per network profile, from the samples (each profile its own group).
    static func firstSongChart(_ samples: [StoredSample]) -> String {
        let good = samples.filter {
            $0.sample.isClean && $0.sample.firstSongNs != nil && $0.sample.cell.parser != "null"
        }
        let relevant = good.filter { $0.sample.cell.scenario == .parse || $0.sample.cell.scenario == .download }
        let order = ["", "loopback", "wifi", "lte", "3g", "edge", "custom", "remote"]
        let networks = Set(relevant.map(\.sample.cell.network)).sorted {
            (order.firstIndex(of: $0) ?? order.count, $0) < (order.firstIndex(of: $1) ?? order.count, $1)
        }
        // Several machines: a group per profile and machine, never one bar over unlike machines.
        let present = Set(relevant.map(\.machine))
        let machines: [Machine?] = present.count > 1 ? present.sorted { ($0?.label ?? "") < ($1?.label ?? "") } : [nil]
        let groups: [SVGChart.Group] = networks.flatMap { network in machines.map { machine in (network, machine) } }
            .compactMap { network, machine in
                let inGroup = relevant.filter {
                    $0.sample.cell.network == network && (machine == nil || $0.machine == machine)
                }
                guard !inGroup.isEmpty else { return nil }
                let parsers = Array(Set(inGroup.map(\.sample.cell.parser))).sorted()
                let bars: [SVGChart.Bar] = parsers.compactMap { parser in
                    let values = inGroup.filter { $0.sample.cell.parser == parser }.compactMap {
                        $0.sample.firstSongNs.map(Double.init)
                    }
                    guard let stats = Statistics(values) else { return nil }
                    return .init(
                        label: parser, value: stats.median / 1e6, low: nil, high: nil,
                        text:
                            "\(Format.ms(stats.median, decimals: stats.median >= 1e8 ? 0 : 2)) ms (n = \(stats.count))",
                        key: parser)
                }
                let title = network.isEmpty ? "in memory (parse scenario)" : "network profile: \(network)"
                return .init(title: title + (machine.map { " — on \($0.host)" } ?? ""), bars: bars)
            }
        guard !groups.isEmpty else {
            return empty(
                "first-song", "No download runs yet: swift run -c release bench run --scenario download --network 3g")
        }
        return SVGChart.bars(
            id: "first-song", title: "Time to the first song per network profile", groups: groups,
            axisLabel: "milliseconds to the first song, median (shorter is better)")
    }

    /// Each parser's median parse time per stored run, on the most measured feed.
    static func historyChart(_ samples: [StoredSample]) -> String {
        let parse = samples.filter {
            $0.sample.cell.scenario == .parse && $0.sample.isClean && $0.sample.wallNs != nil
                && $0.sample.cell.parser != "null"
        }
        let feeds = Dictionary(grouping: parse, by: \.sample.cell.feedSHA256)
        guard let feed = feeds.max(by: { ($0.value.count, $1.key) < ($1.value.count, $0.key) }) else {
            return empty("history", "No stored parse runs yet")
        }
        let runs = Array(Set(feed.value.map { RunKey(id: $0.runID, started: $0.runStartedAt) })).sorted {
            ($0.started, $0.id) < ($1.started, $1.id)
        }
        let index = Dictionary(uniqueKeysWithValues: runs.enumerated().map { ($1.id, $0) })
        let parsers = Array(Set(feed.value.map(\.sample.cell.parser))).sorted()
        let labels = runs.map { run -> String in
            // "2026-11-22T05:31:21Z" → "11-22 05:31"
            let text = run.started
            guard text.count >= 16 else { return text }
            let month = text.dropFirst(5).prefix(5)
            let time = text.dropFirst(11).prefix(5)
            return "\(month) \(time)"
        }
        /// One point per run: the median of its samples.
        func points(_ items: [StoredSample], name: String) -> [(x: Int, y: Double, tip: String)] {
            Dictionary(grouping: items, by: \.runID).compactMap { run, items -> (x: Int, y: Double, tip: String)? in
                guard let position = index[run],
                    let stats = Statistics(items.compactMap { $0.sample.wallNs.map(Double.init) })
                else { return nil }
                return (position, stats.median / 1e6, "\(name), run \(run): \(Format.ms(stats.median)) ms")
            }.sorted { $0.x < $1.x }
        }
        let axis = "stored runs, oldest first (UTC); milliseconds per parse"
        let machines = Set(feed.value.compactMap(\.machine)).sorted()
        guard machines.count > 1 else {
            let series: [SVGChart.Series] = parsers.map { parser in
                .init(name: parser, points: points(feed.value.filter { $0.sample.cell.parser == parser }, name: parser))
            }
            return SVGChart.lines(
                id: "history", title: "Median parse time per run", labels: labels, series: series, axisLabel: axis)
        }
        // Several machines: a chart per parser, one line per machine (never one line through unlike machines).
        let hosts = Dictionary(grouping: machines, by: \.host)
        func name(_ machine: Machine) -> String {
            (hosts[machine.host]?.count ?? 0) > 1 ? machine.label : machine.host
        }
        return parsers.enumerated().map { number, parser in
            let series: [SVGChart.Series] = machines.map { machine in
                .init(
                    name: name(machine),
                    points: points(
                        feed.value.filter { $0.sample.cell.parser == parser && $0.machine == machine },
                        name: "\(parser) on \(name(machine))"))
            }
            return SVGChart.lines(
                id: "history-\(number)", title: "\(parser): median parse time per run, one line per machine",
                labels: labels,
                series: series, axisLabel: axis)
        }.joined(separator: "\n")
    }

    struct RunKey: Hashable {
        var id: String
        var started: String
    }

    static func empty(_ id: String, _ message: String) -> String {
        SVGChart.svg(
            id: id, title: message, height: 60,
            body: SVGChart.text(x: 20, y: 35, message, attributes: ##"fill="#666""##))
    }

    static func e(_ text: String) -> String { SVGChart.escape(text) }
}
