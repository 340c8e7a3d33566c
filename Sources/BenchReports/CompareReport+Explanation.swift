import BenchResults
import Foundation

/// Why the counted cells moved (``CellExplanation``), in each of `bench compare`'s formats: the
/// terminal (the top 5 functions a cell, within the width), Markdown (the top 10: the gate's job
/// summary), CSV and HTML (every cell and function), and the folded stacks.
extension CompareReport {
    /// Functions a cell shows in the terminal.
    public static let terminalRows = 5
    /// Functions a cell shows in Markdown.
    public static let markdownRows = 10
    /// Callers of the allocator shown in the terminal and Markdown.
    static let allocationRows = 5

    /// The explanations and the cells left unexplained, as text for the terminal (`nil` when none).
    static func explanationText(_ comparison: RunComparison, width: Int?) -> String? {
        let explanations = comparison.explanations ?? []
        let gaps = comparison.unexplained ?? []
        guard !explanations.isEmpty || !gaps.isEmpty else { return nil }
        var text = explanations.map { "\n" + explanationBlock($0, width: width) }.joined()
        for gap in gaps {
            text +=
                "\n"
                + wrapped("\(gap.key.parser), \(describe(gap.key)): not explained: \(gap.reason)", indent: "  ", width)
                + "\n"
        }
        return text
    }

    /// One cell's explanation for the terminal: its heading, the top functions (within `width`),
    /// what they explain of the change, and the rest in words.
    public static func explanationBlock(_ explanation: CellExplanation, width: Int?, indent: String = "  ") -> String {
        var text = wrapped(heading(explanation).trimmingCharacters(in: .whitespaces), indent: indent, width) + "\n"
        if let line = allocationLine(explanation) { text += wrapped(line, indent: indent + "  ", width) + "\n" }
        let rows = shownRows(explanation, top: terminalRows).map { row in
            [
                shortened(row.name, to: 30), shortened(row.object, to: 12),
                row.baseline.map(CellExplanation.grouped) ?? "—", row.current.map(CellExplanation.grouped) ?? "—",
                CellExplanation.signed(row.delta), row.share.map(share) ?? "", inclusiveDelta(row),
            ]
        }
        let inner = indent + "  "
        if !rows.isEmpty {
            // Within the width: the inclusive change goes first, then the baseline's own cost.
            let table = TextTable(
                header: ["function (self ranks)", "object", "baseline", "current", "Δ", "share", "incl. Δ"],
                rows: rows, leftAligned: [0, 1])
            let fitted =
                width.map { table.fitted(width: $0, indent: inner, dropOrder: ["incl. Δ", "baseline"]).table } ?? table
            text += fitted.render(indent: inner) + "\n"
        }
        for line in explanationLines(explanation, shown: terminalRows) {
            text += wrapped(line, indent: inner, width) + "\n"
        }
        return text
    }

    private static func wrapped(_ line: String, indent: String, _ width: Int?) -> String {
        width.map { Format.wrap(indent + line, width: $0) } ?? indent + line
    }

    /// "libxml2, parse, top300.rss.xml, 16384 B chunks: +140,213 instructions (+0.49%)".
    static func heading(_ explanation: CellExplanation) -> String {
        let unit = explanation.basis == .instructions ? "instructions" : "estimated cycles"
        guard explanation.delta != 0 else {
            return "  \(explanation.key.parser) (\(describe(explanation.key))): its profiles did not move"
        }
        return "  Why \(explanation.key.parser) (\(describe(explanation.key))) moved: "
            + "\(CellExplanation.signed(explanation.delta)) \(unit) "
            + "(\(CellExplanation.percent(explanation.delta, of: explanation.baselineTotal)))"
    }

    /// What the rows shown explain of the cell's change, who is on one side only, the allocations,
    /// the note, which parses: lines of text.
    static func explanationLines(_ explanation: CellExplanation, shown: Int) -> [String] {
        var lines: [String] = []
        let unit = explanation.basis == .instructions ? "instructions" : "estimated cycles"
        let rows = shownRows(explanation, top: shown)
        if let note = explanation.note { lines.append(note) }
        if explanation.delta != 0 {
            let sum = rows.reduce(0) { $0 + $1.delta }
            let others = explanation.rows.count - rows.count
            let rest = explanation.delta - sum
            lines.append(
                (rows.count == 1 ? "This row adds up" : "These \(rows.count) rows add up")
                    + " to \(CellExplanation.signed(sum)) of the cell's \(CellExplanation.signed(explanation.delta)) "
                    + "\(unit) (\(share(Double(sum) / Double(explanation.delta))))"
                    + (others > 0
                        ? "; the \(others) other function\(others == 1 ? "" : "s") that moved, "
                            + "\(CellExplanation.signed(rest)) (\(share(Double(rest) / Double(explanation.delta))))."
                        : "; no other function moved."))
        }
        for row in rows {
            if let presence = row.presence { lines.append("\(shortened(row.name, to: 60)): \(presence).") }
        }
        if explanation.basis == .estimatedCycles {
            for row in rows {
                guard let events = row.cacheEvents else { continue }
                lines.append(
                    "\(shortened(row.name, to: 60)): "
                        + events.sorted { $0.key < $1.key }.map { "\($0.key) \(CellExplanation.signed($0.value))" }
                        .joined(separator: ", "))
            }
        }
        if let line = codeLine(explanation) { lines.append(line) }
        if let parses = explanation.perParse, Set(parses.map(\.delta)).count > 1 {
            lines.append(
                "Each counted parse of the worker, matched by its place: "
                    + parses.map { "\($0.parse) \(CellExplanation.signed($0.delta))" }.joined(separator: ", ")
                    + " (the one that moved most is explained).")
        }
        lines.append("Parses compared: \(explanation.baselineParse); \(explanation.currentParse).")
        return lines
    }

    /// The rows shown of the first `top`: those that moved by at least 0.1% of the cell's change
    /// (the first always; the JSON and CSV have every row).
    static func shownRows(_ explanation: CellExplanation, top: Int) -> [FunctionChange] {
        let floor = abs(explanation.delta) / 1000
        return Array(
            explanation.rows.prefix(top).enumerated().filter { $0.offset == 0 || abs($0.element.delta) >= floor }
                .map(\.element))
    }

    /// The callers whose allocations moved, in a sentence; `nil` when the count did not move.
    static func allocationLine(_ explanation: CellExplanation) -> String? {
        guard explanation.baselineAllocations != explanation.currentAllocations else { return nil }
        let moved = explanation.currentAllocations - explanation.baselineAllocations
        let callers = explanation.allocations.prefix(allocationRows).map {
            "\(shortened($0.caller, to: 60)) (\($0.object)) \(CellExplanation.signed($0.delta))"
        }
        return "Calls into the allocator: \(CellExplanation.grouped(explanation.baselineAllocations)) → "
            + "\(CellExplanation.grouped(explanation.currentAllocations)) (\(CellExplanation.signed(moved))); "
            + "by caller: " + callers.joined(separator: "; ") + "."
    }

    /// Functions of the executable charged with the change's cost, in a sentence (the first three).
    static func codeLine(_ explanation: CellExplanation) -> String? {
        guard let code = explanation.inCode, !code.isEmpty, let executable = explanation.executable else { return nil }
        let shown = code.prefix(3).map { change in
            (change.name.isEmpty ? "(outside \(executable)'s functions)" : shortened(change.name, to: 60))
                + " \(CellExplanation.signed(change.delta))" + (change.share.map { " (\(share($0)))" } ?? "")
        }
        return "Charged to \(executable)'s own functions (each stack's cost to its innermost frame in \(executable), "
            + "the libraries' work it called included): " + shown.joined(separator: "; ") + "."
    }

    /// The explanations as Markdown (the top 10 functions a cell); "" when there are none.
    static func explanationMarkdown(_ comparison: RunComparison) -> String {
        let explanations = comparison.explanations ?? []
        let gaps = comparison.unexplained ?? []
        guard !explanations.isEmpty || !gaps.isEmpty else { return "" }
        var text = "\n#### Why it moved\n"
        for explanation in explanations {
            text += "\n**" + MarkdownTable.escape(heading(explanation).trimmingCharacters(in: .whitespaces)) + "**\n\n"
            if let line = allocationLine(explanation) { text += "\n" + MarkdownTable.escape(line) + "\n\n" }
            let rows = shownRows(explanation, top: markdownRows).map { row in
                [
                    "`" + row.name.replacingOccurrences(of: "`", with: "'") + "`", row.object,
                    row.baseline.map(CellExplanation.grouped) ?? "—", row.current.map(CellExplanation.grouped) ?? "—",
                    CellExplanation.signed(row.delta), row.share.map(share) ?? "",
                    row.baselineInclusive.map(CellExplanation.grouped) ?? "—",
                    row.currentInclusive.map(CellExplanation.grouped) ?? "—",
                ]
            }
            if !rows.isEmpty {
                text += MarkdownTable.render(
                    header: [
                        "function (self cost ranks)", "object", "baseline", "current", "Δ", "share",
                        "inclusive, baseline", "inclusive, current",
                    ], rows: rows, rightAligned: [2, 3, 4, 5, 6, 7])
            }
            text +=
                "\n"
                + explanationLines(explanation, shown: markdownRows).map { "- " + MarkdownTable.escape($0) }
                .joined(separator: "\n") + "\n"
        }
        for gap in gaps {
            text +=
                "\n- \(MarkdownTable.escape("\(gap.key.parser), \(describe(gap.key)): not explained: \(gap.reason)"))\n"
        }
        return text
    }

    /// The comparison as CSV (RFC 4180): a row a cell (both sides' figures, the ratio, its
    /// interval, the verdict), then a row a function of each explanation (every one that moved)
    /// and a row a caller whose allocations moved; the `row` column says which.
    public static func csv(_ comparison: RunComparison) -> String {
        let header = [
            "row", "parser", "scenario", "feed", "chunk_size", "network", "metric", "baseline", "current", "ratio",
            "ratio_low", "ratio_high", "coverage", "verdict", "note", "function", "object", "basis",
            "baseline_self", "current_self", "delta", "share", "baseline_inclusive", "current_inclusive",
            "baseline_calls", "current_calls", "presence",
        ]
        func key(_ key: ComparisonKey) -> [String] {
            [key.parser, key.scenario.name, key.feed, String(key.chunkSize), key.network]
        }
        func number(_ value: Double?) -> String { value.map { String($0) } ?? "" }
        func integer(_ value: Int?) -> String { value.map(String.init) ?? "" }
        var rows: [[String]] = comparison.cells.map { cell in
            ["cell"] + key(cell.key) + [
                comparison.metric.rawValue, number(cell.baseline?.median), number(cell.current?.median),
                number(cell.ratio), number(cell.ratioLow), number(cell.ratioHigh), number(cell.coverage),
                cell.verdict?.rawValue ?? "", cell.note ?? "",
            ] + Array(repeating: "", count: 12)
        }
        let gaps = Dictionary(
            (comparison.unexplained ?? []).map { ($0.key, $0.reason) }, uniquingKeysWith: { a, _ in a })
        for (index, cell) in comparison.cells.enumerated() {
            if let reason = gaps[cell.key] {
                rows[index][14] += (rows[index][14].isEmpty ? "" : "; ") + "not explained: \(reason)"
            }
        }
        for explanation in comparison.explanations ?? [] {
            for row in explanation.rows {
                rows.append(
                    ["function"] + key(explanation.key) + [comparison.metric.rawValue] + Array(repeating: "", count: 7)
                        + [
                            row.name, row.object, explanation.basis.rawValue, integer(row.baseline),
                            integer(row.current), String(row.delta), number(row.share), integer(row.baselineInclusive),
                            integer(row.currentInclusive), integer(row.baselineCalls), integer(row.currentCalls),
                            row.presence ?? "",
                        ])
            }
            for caller in explanation.allocations {
                rows.append(
                    ["allocations"] + key(explanation.key) + [comparison.metric.rawValue]
                        + Array(repeating: "", count: 7)
                        + [
                            caller.caller, caller.object, "allocator calls", String(caller.baseline),
                            String(caller.current), String(caller.delta), "", "", "", "", "", "",
                        ])
            }
        }
        return CSV.document(header: header, rows: rows)
    }

    /// The comparison as a page of its own: the cells' table, each explanation, and a
    /// differential chart of each explained cell's functions (the change of each one's own cost).
    public static func html(_ comparison: RunComparison) -> String {
        let e = HTMLReport.e
        var body = "<h1>\(e(headline(comparison)))</h1>\n"
        body +=
            "<p class=\"about\">Baseline: \(e(runs(comparison.baselineRuns))) · current: \(e(runs(comparison.currentRuns)))</p>\n"
        for warning in comparison.warnings { body += "<p class=\"warning\">\(e(warning))</p>\n" }
        body += HTMLReport.htmlTable(header: header(comparison), rows: rows(comparison) { $0.uppercased() }) + "\n"
        let notes = notes(comparison)
        if !notes.isEmpty { body += "<ul>" + notes.map { "<li>\(e($0))</li>" }.joined() + "</ul>\n" }
        for explanation in comparison.explanations ?? [] {
            body += "<h2>\(e(heading(explanation).trimmingCharacters(in: .whitespaces)))</h2>\n"
            if let line = allocationLine(explanation) { body += "<p>\(e(line))</p>\n" }
            body += differentialChart(explanation)
            body +=
                HTMLReport.htmlTable(
                    header: [
                        "function (self cost ranks)", "object", "baseline", "current", "Δ", "share",
                        "inclusive, baseline",
                        "inclusive, current",
                    ],
                    rows: shownRows(explanation, top: markdownRows).map { row in
                        [
                            row.name, row.object, row.baseline.map(CellExplanation.grouped) ?? "—",
                            row.current.map(CellExplanation.grouped) ?? "—", CellExplanation.signed(row.delta),
                            row.share.map(share) ?? "", row.baselineInclusive.map(CellExplanation.grouped) ?? "—",
                            row.currentInclusive.map(CellExplanation.grouped) ?? "—",
                        ]
                    }) + "\n"
            body +=
                "<ul>" + explanationLines(explanation, shown: markdownRows).map { "<li>\(e($0))</li>" }.joined()
                + "</ul>\n"
        }
        for gap in comparison.unexplained ?? [] {
            body += "<p>\(e("\(gap.key.parser), \(describe(gap.key)): not explained: \(gap.reason)"))</p>\n"
        }
        body += "<p class=\"about\">\(e(legend(comparison)))</p>\n"
        return HTMLReport.page(title: "bench compare: \(headline(comparison))", body: body)
    }

    /// A horizontal bar a function (the first ten), its length the change of its own cost: red
    /// where it grew, blue where it shrank.
    static func differentialChart(_ explanation: CellExplanation) -> String {
        let rows = Array(explanation.rows.prefix(markdownRows))
        guard let largest = rows.map({ abs($0.delta) }).max(), largest > 0 else { return "" }
        let e = HTMLReport.e
        let rowHeight = 22
        let label = 330
        let half = 200
        let width = label + 2 * half + 90
        var svg =
            "<figure><svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" "
            + "height=\(quoted(rowHeight * rows.count + 10)) role=\"img\">"
        let middle = label + half
        svg +=
            "<line x1=\"\(middle)\" y1=\"0\" x2=\"\(middle)\" y2=\"\(rowHeight * rows.count + 10)\" stroke=\"#888\"/>"
        for (index, row) in rows.enumerated() {
            let y = 5 + index * rowHeight
            let length = Int((Double(abs(row.delta)) / Double(largest) * Double(half)).rounded())
            let x = row.delta >= 0 ? middle : middle - length
            let colour = row.delta >= 0 ? "#c0392b" : "#2e6fbd"
            svg +=
                "<text x=\"\(label - 6)\" y=\"\(y + 15)\" text-anchor=\"end\" font-size=\"12\">"
                + "\(e(shortened(row.name, to: 48)))</text>"
            svg +=
                "<rect x=\"\(x)\" y=\"\(y + 3)\" width=\"\(max(1, length))\" height=\"\(rowHeight - 6)\" "
                + "fill=\"\(colour)\"><title>\(e("\(row.name) (\(row.object)): \(CellExplanation.signed(row.delta))"))</title></rect>"
            let textX = row.delta >= 0 ? middle + length + 4 : middle + 4
            svg +=
                "<text x=\"\(textX)\" y=\"\(y + 15)\" font-size=\"11\">\(e(CellExplanation.signed(row.delta)))</text>"
        }
        svg +=
            "</svg><figcaption>\(e("The change of each function's own cost (\(explanation.basis.rawValue)), current − baseline: red grew, blue shrank."))</figcaption></figure>\n"
        return svg
    }

    private static func quoted(_ value: Int) -> String { "\"\(value)\"" }

    /// The folded-stack files of each explained cell: the baseline's, the current's, and the
    /// differential one (`difffolded.pl`'s form), by file name.
    public static func foldedStacks(baseline: [ComparisonKey: ParseProfile], current: [ComparisonKey: ParseProfile])
        -> [(name: String, text: String)]
    {
        var files: [(String, String)] = []
        for key in Set(baseline.keys).intersection(current.keys).sorted() {
            guard let a = baseline[key], let b = current[key] else { continue }
            let stem = stackFileStem(key)
            let left = FoldedStacks(a)
            let right = FoldedStacks(b)
            files.append(("\(stem).baseline.folded", left.text))
            files.append(("\(stem).current.folded", right.text))
            files.append(("\(stem).diff.folded", FoldedStacks.differential(left, right)))
        }
        return files
    }

    /// A cell's file name stem: its parser, scenario, feed and chunk size, with anything but
    /// letters, digits, dots and dashes made a dash.
    static func stackFileStem(_ key: ComparisonKey) -> String {
        let raw =
            [key.parser, key.scenario.name, key.feed, String(key.chunkSize)]
            + (key.network.isEmpty ? [] : [key.network])
        return raw.joined(separator: "-").map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "-" }
            .map(String.init).joined()
    }

    static func share(_ value: Double) -> String {
        (value < 0 ? "−" : "") + String(format: "%.1f%%", abs(value) * 100)
    }

    static func inclusiveDelta(_ row: FunctionChange) -> String {
        guard let a = row.baselineInclusive, let b = row.currentInclusive else { return "" }
        return CellExplanation.signed(b - a)
    }

    /// `text` cut to `limit` characters, its end replaced by "…".
    static func shortened(_ text: String, to limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}
