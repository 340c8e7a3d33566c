import BenchResults
import Foundation

/// `bench conformance`'s table: text, Markdown, CSV (one row per parser and document, and one per
/// parser) and JSON.
public enum ConformanceReport {
    /// How many exceptions of one parser the text shows (all are in the CSV and JSON).
    public static let exceptionsShown = 12

    /// The header line: suite, documents, parsers, date, duration.
    static func heading(_ table: ConformanceTable) -> String {
        let date = ISO8601DateFormatter.string(
            from: table.date, timeZone: .init(identifier: "UTC") ?? .current, formatOptions: [.withFullDate])
        let libraries = table.libraries.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(
            separator: ", ")
        return
            "W3C XML Conformance Test Suite (\(table.suite)): \(table.caseCount(.notWellFormed)) not-well-formed and "
            + "\(table.caseCount(.valid)) valid documents, \(table.parsers.count) parsers, \(date), "
            + "\(Format.number(table.elapsedSeconds, decimals: 0)) s" + (libraries.isEmpty ? "" : "; \(libraries)")
    }

    /// The counts, one row per parser.
    static func rows(_ table: ConformanceTable) -> [[String]] {
        table.parsers.map { parser in
            let bad = table.counts(parser, .notWellFormed)
            let good = table.counts(parser, .valid)
            return [
                parser.parser, parser.kind, String(bad.rejected), String(bad.accepted), crashes(bad),
                String(bad.hung + bad.failed),
                String(good.accepted), String(good.rejected), crashes(good), String(good.hung + good.failed),
            ]
        }
    }

    static let header = [
        "parser", "kind", "not-wf rejected", "accepted", "crashed", "hung/failed", "valid accepted", "rejected",
        "crashed",
        "hung/failed",
    ]

    static func crashes(_ counts: ConformanceTable.Counts) -> String {
        guard counts.crashed > 0 else { return "0" }
        let signals = counts.signals.sorted { $0.value > $1.value }.map { "\($0.value) \($0.key)" }.joined(
            separator: ", ")
        return "\(counts.crashed) (\(signals))"
    }

    /// The text `bench conformance` prints.
    public static func text(_ table: ConformanceTable) -> String {
        var out = heading(table) + "\n\nDocuments chosen:\n" + table.rules.map { "  - \($0)\n" }.joined()
        out += "How:\n" + table.method.map { "  - \($0)\n" }.joined() + "\n"
        out += TextTable(header: header, rows: rows(table), leftAligned: [0, 1]).render() + "\n"
        out +=
            "A conforming parser rejects every not-wf document and accepts every valid one. "
            + "The floor (memchr) checks nothing and accepts everything by design.\n"
        for parser in table.parsers {
            let exceptions = table.exceptions(parser)
            if !parser.notReproducedAlone.isEmpty {
                out +=
                    "\n\(parser.parser): \(parser.notReproducedAlone.count) document(s) ended a worker running many but not "
                    + "when run alone (counted by their outcome alone): \(parser.notReproducedAlone.prefix(8).joined(separator: ", "))\n"
            }
            guard !exceptions.isEmpty else { continue }
            out += "\n\(parser.parser): \(exceptions.count) exception(s)\n"
            for (testCase, result) in exceptions.prefix(exceptionsShown) {
                out +=
                    "  \(testCase.expectation.rawValue) \(testCase.path): \(result.outcome.rawValue)"
                    + (result.detail.map { " (\(oneLine($0, limit: 100)))" } ?? "") + "\n"
            }
            if exceptions.count > exceptionsShown {
                out += "  … and \(exceptions.count - exceptionsShown) more (all in the CSV and JSON)\n"
            }
        }
        return out
    }

    /// The table as Markdown (for the README): counts, then every exception of the parsers with few.
    public static func markdown(_ table: ConformanceTable, listUpTo limit: Int = 10) -> String {
        var out = "_\(heading(table))._\n\n"
        out += "| " + header.joined(separator: " | ") + " |\n"
        out += "|" + header.indices.map { $0 < 2 ? ":--" : "--:" }.joined(separator: "|") + "|\n"
        for row in rows(table) { out += "| " + row.joined(separator: " | ") + " |\n" }
        let listed = table.parsers.filter { parser in
            let count = table.exceptions(parser).count
            return count > 0 && count <= limit
        }
        if !listed.isEmpty { out += "\n" }
        for parser in listed {
            let items = table.exceptions(parser).map { testCase, result in
                "`\(testCase.path)` (\(testCase.expectation.rawValue), \(result.outcome.rawValue))"
            }
            out += "- \(parser.parser): " + items.joined(separator: ", ") + "\n"
        }
        return out
    }

    /// One row per parser and document.
    public static func resultsCSV(_ table: ConformanceTable) -> String {
        var rows: [[String]] = []
        for parser in table.parsers {
            for (testCase, result) in zip(table.cases, parser.results) {
                rows.append([
                    parser.parser, parser.kind, testCase.id, testCase.expectation.rawValue, testCase.path,
                    testCase.sections,
                    result.outcome.rawValue, result.conforms(to: testCase.expectation) ? "yes" : "no",
                    result.signal.map(String.init) ?? "", result.detail ?? "",
                ])
            }
        }
        return CSV.document(
            header: [
                "parser", "kind", "case_id", "expected", "path", "sections", "outcome", "conforms", "signal", "detail",
            ],
            rows: rows)
    }

    /// One row per parser and expectation: the counts.
    public static func summaryCSV(_ table: ConformanceTable) -> String {
        var rows: [[String]] = []
        for parser in table.parsers {
            for expectation in ConformanceCase.Expectation.allCases {
                let counts = table.counts(parser, expectation)
                rows.append([
                    parser.parser, parser.kind, expectation.rawValue, String(counts.total), String(counts.rejected),
                    String(counts.accepted), String(counts.crashed), String(counts.hung), String(counts.failed),
                    String(table.exceptions(parser).count(where: { $0.0.expectation == expectation })),
                ])
            }
        }
        return CSV.document(
            header: [
                "parser", "kind", "expected", "documents", "rejected", "accepted", "crashed", "hung", "failed",
                "exceptions",
            ],
            rows: rows)
    }

    /// The whole table as JSON.
    public static func json(_ table: ConformanceTable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(table), as: UTF8.self) + "\n"
    }

    static func oneLine(_ text: String, limit: Int) -> String {
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return flat.count > limit ? String(flat.prefix(limit)) + "…" : flat
    }
}
