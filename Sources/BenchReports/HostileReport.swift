import BenchResults

/// `bench hostile`'s text: per parser a verdict line, then one row per document (the truncated
/// feeds as one row), every line within the width.
package enum HostileReport {
    /// The width of the documents' column.
    static let nameWidth = 44

    /// One parser's verdict and table.
    package static func text(_ result: HostileParserResult, width: Int = 100) -> String {
        var lines = [Format.wrap(verdictLine(result), width: width)]
        let truncated = result.entries.filter { $0.truncatedAt != nil }
        var truncationsShown = false
        for entry in result.entries {
            if entry.truncatedAt == nil {
                lines.append(row(entry.name, entry.verdict.description, width: width))
            } else if !truncationsShown {
                truncationsShown = true
                lines.append(truncationRow(truncated, width: width))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// "libxml2 (push/event): held on all 4109 documents", or the failures counted by verdict.
    static func verdictLine(_ result: HostileParserResult) -> String {
        let total = result.entries.count
        guard !result.held else { return "\(result.parser) (\(result.kind)): held on all \(total) documents" }
        return "\(result.parser) (\(result.kind)): FAILED on \(result.problems.count) of \(total) documents: "
            + counts(result.problems.map(\.verdict.label))
    }

    /// "CRASHED 1, TIMED OUT 1": each label with its count, in the order of first appearance.
    static func counts(_ labels: [String]) -> String {
        var order: [String] = []
        var count: [String: Int] = [:]
        for label in labels {
            if count[label] == nil { order.append(label) }
            count[label, default: 0] += 1
        }
        return order.map { "\($0) \(count[$0] ?? 0)" }.joined(separator: ", ")
    }

    /// The truncated feeds as one row: their verdicts counted, and the first that failed.
    static func truncationRow(_ entries: [HostileParserResult.Entry], width: Int) -> String {
        let offsets = entries.compactMap(\.truncatedAt)
        let name = "truncated at \(offsets.min() ?? 0) to \(offsets.max() ?? 0) bytes"
        // Failures first, the first failure's offset beside its count.
        let labels =
            entries.filter { !$0.verdict.held }.map(\.verdict.label)
            + entries.filter(\.verdict.held).map(
                \.verdict.label)
        var verdict = counts(labels)
        if let first = entries.first(where: { !$0.verdict.held }), let at = first.truncatedAt,
            let end = verdict.firstIndex(of: ",") ?? Optional(verdict.endIndex)
        {
            verdict.insert(contentsOf: " (first at \(at) bytes)", at: end)
        }
        return row(name, verdict, width: width)
    }

    static func row(_ name: String, _ verdict: String, width: Int) -> String {
        let padded = name.count >= nameWidth ? name : name + String(repeating: " ", count: nameWidth - name.count)
        return clip("  " + padded + "  " + verdict, width)
    }

    /// `text` cut to `width` characters, an ellipsis at the cut.
    static func clip(_ text: String, _ width: Int) -> String {
        text.count <= width ? text : String(text.prefix(max(1, width - 1))) + "…"
    }
}

extension HostileReport {
    /// The last line: which parsers held, and which did not with their failures counted.
    package static func summary(_ results: [HostileParserResult]) -> String {
        let held = results.filter(\.held).map(\.parser)
        let failed = results.filter { !$0.held }.map { "\($0.parser) (\(counts($0.problems.map(\.verdict.label))))" }
        var parts: [String] = []
        if !held.isEmpty { parts.append("Held: \(held.joined(separator: ", ")).") }
        if !failed.isEmpty { parts.append("Did not hold: \(failed.joined(separator: ", ")).") }
        return parts.joined(separator: " ")
    }
}
