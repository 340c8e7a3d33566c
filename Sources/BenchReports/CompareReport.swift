import BenchResults
import Foundation

/// The reports of `bench compare`: a terminal table, Markdown for a pull request, JSON.
public enum CompareReport {
    static let header = ["parser", "cell", "baseline", "current", "ratio", "95% CI", "verdict", "noise from"]

    /// The headline: how many cells regressed, improved, were compared.
    public static func headline(_ comparison: RunComparison) -> String {
        let slower = comparison.regressions.count
        let faster = comparison.cells.filter { $0.verdict == .faster }.count
        let compared = comparison.compared.count
        let what = "\(comparison.metric.rawValue), threshold \(percent(comparison.threshold))"
        if compared == 0 { return "Nothing compared (\(what))." }
        let verdict = slower == 0 ? "No regression" : "\(slower) regression\(slower == 1 ? "" : "s")"
        return "\(verdict) in \(compared) compared cell\(compared == 1 ? "" : "s")"
            + (faster > 0 ? ", \(faster) faster" : "") + " (\(what))."
    }

    static func rows(_ comparison: RunComparison, marker: (Verdict) -> String) -> [[String]] {
        comparison.cells.map { cell in
            let interval = cell.ratioLow.flatMap { low in cell.ratioHigh.map { "\(ratio(low))–\(ratio($0))" } } ?? ""
            return [
                cell.key.parser, describe(cell.key), value(cell.baseline?.median, comparison.metric),
                value(cell.current?.median, comparison.metric),
                cell.ratio.map { "\(ratio($0)) (\(change($0)))" } ?? "", interval,
                cell.verdict.map(marker) ?? (cell.ratio == nil ? "not compared" : "not judged"), cell.method ?? "",
            ]
        }
    }

    static func notes(_ comparison: RunComparison) -> [String] {
        comparison.cells.compactMap { cell in cell.note.map { "\(cell.key.parser), \(describe(cell.key)): \($0)" } }
    }

    /// The rule, in words, for the legend.
    static func legend(_ comparison: RunComparison) -> String {
        let level = Int((comparison.level * 100).rounded())
        return "ratio: current ÷ baseline (Hodges–Lehmann estimate; baseline and current are plain medians). "
            + "slower: ratio above \(ratio(1 + comparison.threshold)) and the whole \(level)% interval above 1; "
            + "faster: ratio below \(ratio(1 / (1 + comparison.threshold))) and the whole interval below 1; "
            + "otherwise unchanged. Noise is measured between worker processes (paired in the order they ran when "
            + "both sides have as many), else between iterations."
    }

    /// The terminal table.
    public static func table(_ comparison: RunComparison) -> String {
        var text = headline(comparison) + "\n"
        text += "baseline: \(comparison.baselineRuns.joined(separator: ", "))\n"
        text += "current:  \(comparison.currentRuns.joined(separator: ", "))\n"
        for warning in comparison.warnings { text += "WARNING: \(warning)\n" }
        text += "\n" + TextTable(
            header: header, rows: rows(comparison) { $0 == .slower ? "SLOWER" : $0.rawValue }, leftAligned: [0, 1, 6, 7]
        ).render(indent: "  ")
        let notes = notes(comparison)
        if !notes.isEmpty { text += "\n\n" + notes.map { "  - \($0)" }.joined(separator: "\n") }
        return text + "\n\n" + legend(comparison) + "\n"
    }

    /// Markdown, ready to paste into a pull-request comment.
    public static func markdown(_ comparison: RunComparison) -> String {
        let icon = comparison.regressions.isEmpty ? "✅" : "❌"
        var text = "### \(icon) XML parser benchmark: \(headline(comparison))\n\n"
        text += "Baseline: \(comparison.baselineRuns.map { "`\($0)`" }.joined(separator: ", ")) · "
        text += "current: \(comparison.currentRuns.map { "`\($0)`" }.joined(separator: ", "))\n"
        for warning in comparison.warnings { text += "\n> ⚠️ \(MarkdownTable.escape(warning))\n" }
        text += "\n"
        text += MarkdownTable.render(
            header: header, rows: rows(comparison) { $0 == .slower ? "**slower**" : $0.rawValue }, rightAligned: [2, 3, 4, 5])
        text += "\n"
        let notes = notes(comparison)
        if !notes.isEmpty { text += "\n" + notes.map { "- \(MarkdownTable.escape($0))" }.joined(separator: "\n") + "\n" }
        return text + "\n" + legend(comparison) + "\n"
    }

    /// The comparison as JSON.
    public static func json(_ comparison: RunComparison) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(comparison), as: UTF8.self) + "\n"
    }

    static func describe(_ key: ComparisonKey) -> String {
        var parts = [key.scenario, key.feed]
        if key.scenario == "parse" { parts.append(key.chunkSize == 0 ? "whole feed" : "\(key.chunkSize) B chunks") }
        if !key.network.isEmpty { parts.append(key.network) }
        return parts.joined(separator: ", ")
    }

    static func value(_ value: Double?, _ metric: ComparisonMetric) -> String {
        switch metric {
        case .wall, .cpu: return value.map { Format.ms($0) + " ms" } ?? ""
        case .instructions: return value.map { Format.number($0, decimals: 0) } ?? ""
        case .peakMemory: return value.map { Format.mib($0) + " MiB" } ?? ""
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
