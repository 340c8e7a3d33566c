import BenchResults
import Foundation

/// `bench conformance`'s table: text, Markdown, CSV (one row per parser and document, and one per
/// parser) and JSON.
public enum ConformanceReport {
    /// How many exceptions of one parser the text shows (all are in the CSV and JSON).
    public static let exceptionsShown = 12

    /// The header line: suite, documents, parsers, date, duration.
    static func heading(_ table: ConformanceTable) -> String {
        let (counts, run) = headingParts(table)
        return "W3C XML Conformance Test Suite (\(table.suite)): \(counts), \(run)"
    }

    /// The heading of the text: the counts on the first line, where the suite is, when, how long
    /// and the libraries' versions on the second.
    static func textHeading(_ table: ConformanceTable) -> String {
        let (counts, run) = headingParts(table)
        return "W3C XML Conformance Test Suite: \(counts)\n\(table.suite), \(run)"
    }

    /// What both headings say: the counts of documents and parsers; when, how long, which libraries.
    private static func headingParts(_ table: ConformanceTable) -> (counts: String, run: String) {
        let date = ISO8601DateFormatter.string(
            from: table.date, timeZone: .init(identifier: "UTC") ?? .current, formatOptions: [.withFullDate])
        let libraries = table.libraries.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(
            separator: ", ")
        let counts =
            "\(table.caseCount(.notWellFormed)) not-well-formed and \(table.caseCount(.valid)) valid documents, "
            + "\(table.parsers.count) parser\(table.parsers.count == 1 ? "" : "s")"
        let elapsed = Format.number(table.elapsedSeconds, decimals: 0)
        return (counts, "\(date), \(elapsed) s" + (libraries.isEmpty ? "" : "; \(libraries)"))
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
            ] + canonicalCells(parser)
        }
    }

    static let header =
        [
            "parser", "kind", "not-wf rejected", "accepted", "crashed", "hung/failed", "valid accepted", "rejected",
            "crashed",
            "hung/failed",
        ] + canonicalHeader

    /// The canonical-events columns: of the valid documents with an expected canonical form, those
    /// whose form the parser's events reproduce, those where it differs, those it did not read.
    static let canonicalHeader = ["canonical events reproduced", "differ", "not read"]

    /// A parser's canonical-events cells: "n/a" for one whose events were not checked (it builds
    /// songs only, or has no document walk).
    static func canonicalCells(_ parser: ConformanceTable.ParserResults) -> [String] {
        guard let canonical = parser.canonical else { return ["n/a", "n/a", "n/a"] }
        return [String(canonical.reproduced), String(canonical.differing), String(canonical.notRead)]
    }

    static func crashes(_ counts: ConformanceTable.Counts) -> String {
        guard counts.crashed > 0 else { return "0" }
        return "\(counts.crashed) (\(signals(counts)))"
    }

    /// "170 SIGSEGV, 8 SIGILL": the crashes by signal, the most frequent first.
    static func signals(_ counts: ConformanceTable.Counts) -> String {
        counts.signals.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.value) \($0.key)" }.joined(
            separator: ", ")
    }

    /// The terminal's table: the counts of each expectation under a line that names it, crashes by
    /// count (their signals in a note below), and within `width` without the kind, then without the
    /// hung/failed counts.
    ///
    /// - Returns: the table, and the columns it left out.
    static func countsTable(_ table: ConformanceTable, width: Int?) -> (text: String, leftOut: [String]) {
        let groups: [(ConformanceCase.Expectation, [(String, (ConformanceTable.Counts) -> Int)])] = [
            (
                .notWellFormed,
                [
                    ("rejected", \.rejected), ("accepted", \.accepted), ("crashed", \.crashed),
                    ("hung/failed", hungOrFailed),
                ]
            ),
            (
                .valid,
                [
                    ("accepted", \.accepted), ("rejected", \.rejected), ("crashed", \.crashed),
                    ("hung/failed", hungOrFailed),
                ]
            ),
        ]
        func render(kind: Bool, hungOrFailed: Bool, canonical: Bool = true) -> String {
            var header = ["parser"] + (kind ? ["kind"] : [])
            var starts: [(label: String, column: Int)] = []
            for (expectation, columns) in groups {
                starts.append(("\(expectation.rawValue) (\(table.caseCount(expectation)))", header.count))
                header += columns.map(\.0).filter { hungOrFailed || $0 != "hung/failed" }
            }
            if canonical, let canonical = table.canonicalCaseCount {
                starts.append(("canonical events (\(canonical))", header.count))
                header += ["reproduced", "differ", "not read"]
            }
            let rows = table.parsers.map { parser in
                var row = [parser.parser] + (kind ? [parser.kind] : [])
                for (expectation, columns) in groups {
                    let counts = table.counts(parser, expectation)
                    row += columns.filter { hungOrFailed || $0.0 != "hung/failed" }.map { String($0.1(counts)) }
                }
                if canonical, table.canonicalCaseCount != nil { row += canonicalCells(parser) }
                return row
            }
            let text = TextTable(header: header, rows: rows, leftAligned: kind ? [0, 1] : [0])
            let widths = text.columnWidths()
            var groupLine = ""
            for (label, column) in starts {
                let start = widths.prefix(column).reduce(0, +) + 2 * column
                groupLine += String(repeating: " ", count: max(0, start - groupLine.count)) + label
            }
            return groupLine + "\n" + text.render()
        }
        var leftOut: [String] = []
        var text = render(kind: true, hungOrFailed: true)
        func fits(_ text: String) -> Bool {
            guard let width else { return true }
            return text.split(separator: "\n").allSatisfy { $0.count <= width }
        }
        if !fits(text) {
            leftOut.append("kind")
            text = render(kind: false, hungOrFailed: true)
        }
        if !fits(text) {
            leftOut.append("hung/failed")
            text = render(kind: false, hungOrFailed: false)
        }
        // Still too wide: the canonical events go to a table of their own, under this one.
        if !fits(text), let canonical = table.canonicalCaseCount {
            let own = TextTable(
                header: ["parser", "reproduced", "differ", "not read"],
                rows: table.parsers.map { [$0.parser] + canonicalCells($0) }, leftAligned: [0])
            let indent = own.columnWidths().first.map { $0 + 2 } ?? 0
            text =
                render(kind: false, hungOrFailed: false, canonical: false) + "\n\n"
                + String(repeating: " ", count: indent) + "canonical events (\(canonical))\n" + own.render()
        }
        return (text, leftOut)
    }

    private static func hungOrFailed(_ counts: ConformanceTable.Counts) -> Int { counts.hung + counts.failed }

    /// The text `bench conformance` prints.
    ///
    /// - Parameters:
    ///   - table: the results.
    ///   - width: the terminal's width: the table goes without the columns it must to fit (a note
    ///     names them and where they are) and the other lines are broken at it; `nil`: one line each.
    /// - Returns: the heading, the rules, the table and its notes, and each parser's exceptions.
    public static func text(_ table: ConformanceTable, width: Int? = nil) -> String {
        var out = textHeading(table).split(separator: "\n").map { Format.hanging("", String($0), width: width) }
            .joined(separator: "\n")
        out += "\n\nDocuments chosen:\n" + table.rules.map { Format.hanging("  - ", $0, width: width) + "\n" }.joined()
        out += "How:\n" + table.method.map { Format.hanging("  - ", $0, width: width) + "\n" }.joined() + "\n"
        let counts = countsTable(table, width: width)
        out += counts.text + "\n"
        var notes: [String] = []
        for parser in table.parsers {
            let crashes = ConformanceCase.Expectation.allCases.compactMap { expectation -> String? in
                let counts = table.counts(parser, expectation)
                guard counts.crashed > 0 else { return nil }
                return "\(counts.crashed) \(expectation.rawValue) (\(signals(counts)))"
            }
            if !crashes.isEmpty { notes.append("\(parser.parser) crashed on \(crashes.joined(separator: " and "))") }
        }
        if table.canonicalCaseCount != nil {
            let unchecked = table.parsers.filter { $0.canonical == nil }.map(\.parser)
            if !unchecked.isEmpty {
                notes.append(
                    "canonical events n/a: \(unchecked.joined(separator: ", ")) walk\(unchecked.count == 1 ? "s" : "") "
                        + "no document into events (songs only, or no document walk)")
            }
        }
        if !counts.leftOut.isEmpty {
            let hidden = table.parsers.contains { parser in
                ConformanceCase.Expectation.allCases.contains { hungOrFailed(table.counts(parser, $0)) > 0 }
            }
            let what = counts.leftOut.map { $0 == "hung/failed" && !hidden ? "hung/failed (0 for every parser)" : $0 }
            notes.append(
                "Not shown at \(width.map(String.init) ?? "this") columns: \(what.joined(separator: ", ")) "
                    + "(conformance.md and conformance-summary.csv have every column)")
        }
        out += notes.map { Format.hanging("", $0, width: width) + "\n" }.joined()
        out +=
            Format.hanging(
                "",
                "A conforming parser rejects every not-wf document and accepts every valid one. "
                    + "The floor (memchr) checks nothing and accepts everything by design.", width: width) + "\n"
        for parser in table.parsers {
            let exceptions = table.exceptions(parser)
            if !parser.notReproducedAlone.isEmpty {
                out +=
                    "\n"
                    + Format.hanging(
                        "",
                        "\(parser.parser): \(parser.notReproducedAlone.count) document(s) ended a worker running many "
                            + "but not when run alone (counted by their outcome alone): "
                            + parser.notReproducedAlone.prefix(8).joined(separator: ", "), width: width) + "\n"
            }
            guard !exceptions.isEmpty else { continue }
            out += "\n\(parser.parser): \(exceptions.count) exception(s)\n"
            for (testCase, result) in exceptions.prefix(exceptionsShown) {
                out +=
                    Format.hanging(
                        "  ",
                        "\(testCase.expectation.rawValue) \(testCase.path): \(result.outcome.rawValue)"
                            + (result.detail.map { " (\(oneLine($0, limit: 100)))" } ?? ""), indent: 4, width: width)
                    + "\n"
            }
            if exceptions.count > exceptionsShown {
                out += "  … and \(exceptions.count - exceptionsShown) more (all in the CSV and JSON)\n"
            }
        }
        for parser in table.parsers {
            guard let canonical = parser.canonical, !canonical.exceptions.isEmpty else { continue }
            out += "\n\(parser.parser): \(canonical.exceptions.count) canonical form(s) not reproduced\n"
            for result in canonical.exceptions.prefix(exceptionsShown) {
                out +=
                    Format.hanging(
                        "  ",
                        "\(result.path): \(result.verdict.rawValue)"
                            + (result.detail.map { " (\(oneLine($0, limit: 160)))" } ?? ""), indent: 4, width: width)
                    + "\n"
            }
            if canonical.exceptions.count > exceptionsShown {
                out += "  … and \(canonical.exceptions.count - exceptionsShown) more (all in the CSV and JSON)\n"
            }
        }
        return out
    }

    /// The table as Markdown (for the README): counts, then every exception of the parsers with few.
    public static func markdown(_ table: ConformanceTable, listUpTo limit: Int = 10) -> String {
        var out = "_\(heading(table))._\n\n"
        out += MarkdownTable.render(header: header, rows: rows(table), rightAligned: Set(2..<header.count)) + "\n"
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
            let canonical = Dictionary(
                (parser.canonical?.results ?? []).map { ($0.caseID, $0) }, uniquingKeysWith: { first, _ in first })
            for (testCase, result) in zip(table.cases, parser.results) {
                let events = canonical[testCase.id]
                rows.append([
                    parser.parser, parser.kind, testCase.id, testCase.expectation.rawValue, testCase.path,
                    testCase.sections,
                    result.outcome.rawValue, result.conforms(to: testCase.expectation) ? "yes" : "no",
                    result.signal.map(String.init) ?? "", result.detail ?? "",
                    events?.verdict.rawValue ?? "", events?.detail ?? "",
                ])
            }
        }
        return CSV.document(
            header: [
                "parser", "kind", "case_id", "expected", "path", "sections", "outcome", "conforms", "signal", "detail",
                "canonical_events", "canonical_detail",
            ],
            rows: rows)
    }

    /// One row per parser and expectation: the counts.
    public static func summaryCSV(_ table: ConformanceTable) -> String {
        var rows: [[String]] = []
        for parser in table.parsers {
            for expectation in ConformanceCase.Expectation.allCases {
                let counts = table.counts(parser, expectation)
                rows.append(
                    [
                        parser.parser, parser.kind, expectation.rawValue, String(counts.total), String(counts.rejected),
                        String(counts.accepted), String(counts.crashed), String(counts.hung), String(counts.failed),
                        String(table.exceptions(parser).count(where: { $0.0.expectation == expectation })),
                    ] + summaryCanonicalCells(parser, expectation))
            }
        }
        return CSV.document(
            header: [
                "parser", "kind", "expected", "documents", "rejected", "accepted", "crashed", "hung", "failed",
                "exceptions", "canonical_documents", "canonical_reproduced", "canonical_differ", "canonical_not_read",
            ],
            rows: rows)
    }

    /// The canonical-events cells of the summary CSV: on a parser's `valid` row when its events
    /// were checked (the documents are valid ones), empty otherwise.
    static func summaryCanonicalCells(
        _ parser: ConformanceTable.ParserResults, _ expectation: ConformanceCase.Expectation
    ) -> [String] {
        guard expectation == .valid, let canonical = parser.canonical else { return ["", "", "", ""] }
        return [
            String(canonical.results.count), String(canonical.reproduced), String(canonical.differing),
            String(canonical.notRead),
        ]
    }

    /// The whole table as JSON.
    public static func json(_ table: ConformanceTable) throws -> String {
        try JSONDocument.text(table)
    }

    static func oneLine(_ text: String, limit: Int) -> String {
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return flat.count > limit ? String(flat.prefix(limit)) + "…" : flat
    }
}
