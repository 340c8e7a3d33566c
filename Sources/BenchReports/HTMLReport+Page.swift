import BenchResults
import Foundation

extension HTMLReport {
    /// How to read a run's page: what is measured and what each figure means.
    static let introduction = """
        <section class="intro"><h2>How to read this</h2>
        <p>Each parser (libxml2's SAX push parser, expat, Foundation's XMLParser, and with \
        <code>--parsers all</code> libxml2's reader and tree, XMLCoder and SWXMLHash) builds the same songs from \
        the same iTunes Store RSS feed, checked to be identical before anything is timed. A parse is one fresh \
        parser fed the feed's bytes in chunks, as they would arrive from the network. Each parser runs in \
        several worker processes, one per round, side by side with the other parsers' workers. \
        <strong>Shorter bars are better</strong>, except for throughput. The first figure gives each parser's \
        time as a multiple of the fastest one's, estimated from workers that ran in the same round: it holds \
        when the whole machine speeds up or slows down. The black whiskers are 95% intervals taken over the \
        worker processes (from too few workers for 95%, a lower level, which the caption says): on the \
        parse-time figure, the interval the next run's figure should fall in (it \
        includes the noise between processes); on the relative-speed figure, the interval of the ratio — when \
        it stays clear of 1, the order of the two parsers is not noise. A yellow box means the harness found the machine too busy for the figures to hold. \
        <code>null</code> is a baseline that parses nothing: the harness's own cost. Each parser has a \
        <em>kind</em> (in the table and the bar labels): push/event (SAX-style callbacks), pull (a reader asked \
        for the next node), tree (the whole document, then lookups), Codable (decoded into types), reference \
        (the Swift adapters' extraction written in plain C: <code>c-libxml2</code>, <code>c-expat</code>) and \
        floor (<code>memchr</code> over the bytes, no parsing: the lower bound). The <em>binding tax</em> is a \
        Swift adapter's time (or instruction count) over its C reference's; <em>× floor</em> is every \
        parser's over the floor's. In a document run (<code>--workload document</code>) each parser reports \
        every event of any XML document (tags, attributes, text, processing instructions) into one shared \
        sink instead of building songs, the parsers agree on every document's events before it is timed, \
        and the first figure is an overview of every document; <code>sink</code> is a second baseline, the \
        sink alone (the document's recorded events replayed into it), which every parser's time includes.</p></section>

        """

    /// How to read a document run's page (`--workload document`): any XML, events, no songs.
    static let documentIntroduction = """
        <section class="intro"><h2>How to read this</h2>
        <p>Each parser that can walk any XML document reports every event of it (start and end tags with \
        their namespace URI and attributes, character data, processing instructions) into one shared sink, \
        fed the document's bytes in chunks as they would arrive from the network; before anything is timed, \
        the parsers must report the same events on every document (the canonical sink: attributes sorted, \
        text merged, every event hashed). The timed walks report to a checksum sink that only reads each \
        event's bytes (the page's heading says which sink the times include), and each worker walks the \
        document once more, untimed, into the canonical sink. Each parser runs in several worker \
        processes, one per round, side by side with the other parsers' workers. <strong>Shorter bars are \
        better</strong>, except for throughput. When the run has several documents, the first figure is an \
        overview: each parser's time over <code>c-libxml2</code>'s (the C reference walk) on every document, on \
        one scale, so a longer bar is a larger ratio; then, for each document, its figures: time relative to \
        the fastest, parse time, throughput and memory. The black whiskers are 95% intervals over the worker \
        processes (from too few workers for 95%, a lower level, which the caption says): on the ratios, when an interval stays clear of 1, the order is not noise; on the parse \
        time, the interval the next run's figure should fall in. <code>null</code> is a baseline that parses \
        nothing; <code>sink</code> is the timed sink alone (the document's recorded events replayed into it), \
        which every parser's time includes. A parser's <em>kind</em>: push/event (SAX-style callbacks), pull (a \
        reader), tree (the whole document, then a walk), reference (the same walk in plain C: \
        <code>c-libxml2</code>, <code>c-expat</code>). The <em>binding tax</em> is a Swift adapter's time over its \
        C reference's. A yellow box means the harness found the machine too busy for the figures to hold; \
        the shape of each document (elements, attributes, text, depth, namespaces, references) is in the \
        table at the end, as rankings change with the shape.</p></section>

        """

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
        .answer { font-size: 1.1em; font-weight: 600; margin: 0.4em 0; }
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

    static func empty(_ id: String, _ message: String) -> String {
        SVGChart.svg(
            id: id, title: message, height: 60,
            body: SVGChart.text(x: 20, y: 35, message, attributes: ##"fill="#666""##))
    }

    static func e(_ text: String) -> String { SVGChart.escape(text) }
}
