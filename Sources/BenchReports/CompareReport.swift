import BenchResults
import Foundation

/// The reports of `bench compare`: a terminal table, Markdown for a pull request, JSON.
public enum CompareReport {
    static func header(_ comparison: RunComparison) -> [String] {
        [
            "parser", "kind", "cell", "baseline median", "current median", "ratio (estimate)",
            "\(Int((comparison.level * 100).rounded()))% CI", "detects", "verdict", "noise from",
        ]
    }

    /// The headline: how many cells regressed, improved, were compared.
    public static func headline(_ comparison: RunComparison) -> String {
        let failed = comparison.failures.count
        let failures = failed == 0 ? "" : "\(failed) cell\(failed == 1 ? "" : "s") FAILED in the current runs. "
        return failures + judged(comparison)
    }

    /// The verdict in one sentence: "No regression in 6 compared cells (…)", "Nothing judged: …".
    public static func judged(_ comparison: RunComparison) -> String {
        let slower = comparison.regressions.count
        let faster = comparison.cells.filter { $0.verdict == .faster }.count
        let compared = comparison.compared.count
        let what = "\(comparison.metric.rawValue), threshold \(percent(comparison.threshold))"
        if compared == 0 {
            let unjudged = comparison.cells.filter { $0.verdict == nil && $0.ratio != nil }.count
            return unjudged > 0
                ? "Nothing judged: \(unjudged) cell\(unjudged == 1 ? "" : "s") not judged, see the notes (\(what))."
                : "Nothing compared (\(what))."
        }
        let verdict = slower == 0 ? "No regression" : "\(slower) regression\(slower == 1 ? "" : "s")"
        return "\(verdict) in \(compared) compared cell\(compared == 1 ? "" : "s")"
            + (faster > 0 ? ", \(faster) faster" : "") + " (\(what))."
    }

    /// A verdict in words: for memory, "slower" and "faster" read "higher" and "lower".
    static func word(_ verdict: Verdict, _ metric: ComparisonMetric) -> String {
        guard metric.metric.traits.unit == .bytes else { return verdict.rawValue }
        switch verdict {
        case .slower: return "higher"
        case .faster: return "lower"
        case .unchanged: return "unchanged"
        case .failed: return "failed"
        }
    }

    static func rows(_ comparison: RunComparison, marker: (String) -> String) -> [[String]] {
        comparison.cells.map { cell in
            let interval = cell.ratioLow.flatMap { low in cell.ratioHigh.map { "\(ratio(low))–\(ratio($0))" } } ?? ""
            return [
                cell.key.parser, cell.current?.kind ?? cell.baseline?.kind ?? "", describe(cell.key),
                value(cell.baseline?.median, comparison.metric),
                value(cell.current?.median, comparison.metric),
                cell.ratio.map { "\(ratio($0)) (\(change($0)))" } ?? "", interval,
                cell.detectable.map { "≥ " + percent($0) } ?? "",
                cell.verdict.map { verdict in
                    verdict == .slower || verdict == .failed
                        ? marker(word(verdict, comparison.metric)) : word(verdict, comparison.metric)
                } ?? (cell.ratio == nil ? "not compared" : "not judged"), cell.method ?? "",
            ]
        }
    }

    static func notes(_ comparison: RunComparison) -> [String] {
        comparison.cells.compactMap { cell in cell.note.map { "\(cell.key.parser), \(describe(cell.key)): \($0)" } }
    }

    /// The rule, in words, for the legend.
    static func legend(_ comparison: RunComparison) -> String {
        let level = Int((comparison.level * 100).rounded())
        return "baseline and current median: the median of each side's worker medians. ratio: current ÷ baseline, "
            + "estimated from the workers' values (Hodges–Lehmann: paired by turn when the sides ran turn about), "
            + "so it need not equal the ratio of the two medians. "
            + "\(word(.slower, comparison.metric)): ratio above \(ratio(1 + comparison.threshold)) and the whole \(level)% interval above 1; "
            + "\(word(.faster, comparison.metric)): ratio below \(ratio(1 / (1 + comparison.threshold))) and the whole interval below 1; "
            + "otherwise unchanged; failed: it ran in the baseline and failed in the current runs. detects: the smallest "
            + "change this comparison would catch four times in five with the same noise (its minimum detectable effect). Noise is measured "
            + "between worker processes, never within one (exact instruction counts excepted)."
    }

    /// The columns a terminal too narrow for all of them goes without, first to last (the
    /// Markdown and JSON have every one).
    static let narrowDropOrder = ["kind", "noise from", "detects"]

    /// The terminal table.
    ///
    /// - Parameters:
    ///   - comparison: the comparison.
    ///   - width: the terminal's width: one table per cell (scenario, feed, chunk size, network)
    ///     under its name, without its empty columns and, when still wider, without the columns of
    ///     `narrowDropOrder` until it fits (the legend names them), every line of text wrapped;
    ///     `nil`: one table with a cell column, every line whole.
    /// - Returns: the headline, the table, its notes and the legend.
    public static func table(_ comparison: RunComparison, width: Int? = nil) -> String {
        var text = headline(comparison) + "\n"
        text += "baseline: \(runs(comparison.baselineRuns))\n"
        text += "current:  \(runs(comparison.currentRuns))\n"
        for warning in comparison.warnings { text += "WARNING: \(warning)\n" }
        let header = header(comparison)
        let rows = rows(comparison) { $0.uppercased() }
        var hidden: [String] = []
        if let width {
            // The cell is each table's title, not a column.
            var order: [String] = []
            var groups: [String: [[String]]] = [:]
            for row in rows {
                if groups[row[2]] == nil { order.append(row[2]) }
                groups[row[2], default: []].append(row.enumerated().filter { $0.offset != 2 }.map(\.element))
            }
            for cell in order {
                let fitted = TextTable(
                    header: header.enumerated().filter { $0.offset != 2 }.map(\.element), rows: groups[cell] ?? [],
                    leftAligned: [0, 1, 7, 8]
                ).fitted(width: width, indent: "    ", dropOrder: narrowDropOrder)
                hidden += fitted.dropped.filter { !hidden.contains($0) }
                text += "\n  \(cell)\n" + fitted.table.render(indent: "    ") + "\n"
            }
        } else {
            text +=
                "\n"
                + TextTable(header: header, rows: rows, leftAligned: [0, 1, 2, 8, 9]).render(indent: "  ") + "\n"
        }
        let notes = notes(comparison)
        if !notes.isEmpty { text += "\n" + notes.map { "  - \($0)" }.joined(separator: "\n") + "\n" }
        var legend = "\n" + legend(comparison)
        if !hidden.isEmpty {
            legend +=
                " Not shown at this width: \(hidden.joined(separator: ", ")) (--format markdown or json has them)."
        }
        legend += "\n"
        func wrapped(_ text: String) -> String { width.map { Format.wrap(text, width: $0) } ?? text }
        // The documents' table is not wrapped (wrapping a row wider than the terminal ran its columns
        // together): its heading is, as the run's report does it.
        let documents = RunReport.documentsBlock(comparison.documents, width: width).map { "\n" + $0 + "\n" } ?? ""
        // The explanations' tables are not wrapped either (their lines are: explanationText).
        let explanations = explanationText(comparison, width: width) ?? ""
        return wrapped(text) + documents + explanations + wrapped(legend)
    }

    /// Markdown, ready to paste into a pull-request comment.
    public static func markdown(_ comparison: RunComparison) -> String {
        let icon = comparison.regressions.isEmpty && comparison.failures.isEmpty ? "✅" : "❌"
        var text = "### \(icon) XML parser benchmark: \(headline(comparison))\n\n"
        text +=
            "Baseline: \(runs(comparison.baselineRuns, code: true)) · current: \(runs(comparison.currentRuns, code: true))\n"
        for warning in comparison.warnings { text += "\n> ⚠️ \(MarkdownTable.escape(warning))\n" }
        text += "\n"
        text += MarkdownTable.render(
            header: header(comparison), rows: rows(comparison) { "**\($0)**" }, rightAligned: [3, 4, 5, 6, 7])
        text += "\n"
        let notes = notes(comparison)
        if !notes.isEmpty {
            text += "\n" + notes.map { "- \(MarkdownTable.escape($0))" }.joined(separator: "\n") + "\n"
        }
        text += RunReport.documentsMarkdown(comparison.documents)
        text += explanationMarkdown(comparison)
        return text + "\n" + legend(comparison) + "\n"
    }

    /// The comparison as JSON.
    public static func json(_ comparison: RunComparison) throws -> String {
        try JSONDocument.text(comparison)
    }

    /// A side's runs: their IDs when few, else how many and the first and last (the JSON has them all).
    static func runs(_ ids: [String], code: Bool = false) -> String {
        let quoted = ids.map { code ? "`\($0)`" : $0 }
        guard let first = quoted.first, let last = quoted.last else { return "no runs" }
        return ids.count <= 3 ? quoted.joined(separator: ", ") : "\(ids.count) runs, \(first) … \(last)"
    }

    static func describe(_ key: ComparisonKey) -> String {
        var parts = [key.scenario.name, key.feed]
        if key.scenario.isParseFromMemory {
            parts.append(key.chunkSize == 0 ? "whole feed" : "\(key.chunkSize) B chunks")
        }
        if !key.network.isEmpty { parts.append(key.network) }
        return parts.joined(separator: ", ")
    }

    static func value(_ value: Double?, _ metric: ComparisonMetric) -> String {
        guard let value else { return "" }
        switch metric.metric.traits.unit {
        case .nanoseconds: return Format.ms(value) + " ms"
        case .count, .status: return Format.number(value, decimals: 0)
        case .ratio: return Format.number(value, decimals: 3) + "×"
        case .bytes: return Format.mib(value) + " MiB"
        }
    }

    static func ratio(_ value: Double) -> String { String(format: "%.3f", value) }

    static func change(_ ratio: Double) -> String {
        let percent = (ratio - 1) * 100
        return (percent >= 0 ? "+" : "−") + String(format: "%.1f%%", abs(percent))
    }

    static func percent(_ fraction: Double) -> String {
        let value = fraction * 100
        return value == value.rounded() ? "\(Int(value))%" : String(format: "%.1f%%", value)
    }
}
