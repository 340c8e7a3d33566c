import BenchReports
import BenchResults
import Foundation
import Testing

/// `bench conformance`'s text at a terminal's width (issue 43, item 7): the table of every
/// parser, the crashes' signals, the exceptions and the long lines of the suite's rules within it.
@Suite("Conformance report")
struct ConformanceReportTests {
    /// A table as wide as the suite's makes it: the longest parser name, the longest kind, crashes
    /// of two signals in both columns, a document that hung, long paths and long error messages.
    static func table() -> ConformanceTable {
        let cases =
            (0..<6).map {
                ConformanceCase(
                    id: "nwf-\($0)", expectation: .notWellFormed,
                    path: "eduni/errata-4e/a-rather-long-directory-name/ibm05n0\($0).xml", sections: "2.3",
                    summary: "not well-formed")
            }
            + (0..<4).map {
                ConformanceCase(
                    id: "v-\($0)", expectation: .valid, path: "xmltest/valid/sa/01\($0).xml", sections: "2.1",
                    summary: "valid")
            }
        let detail = "Failed to parse QName ':LegalNameStartChar' because of a very long reason (line 35, column 42)"
        func parser(_ name: String, _ kind: String, _ outcomes: [ConformanceResult.Outcome])
            -> ConformanceTable
            .ParserResults
        {
            .init(
                parser: name, kind: kind,
                results: zip(cases, outcomes).map { testCase, outcome in
                    ConformanceResult(
                        caseID: testCase.id, outcome: outcome,
                        detail: outcome == .crashed ? (testCase.id.hasSuffix("1") ? "SIGILL" : "SIGSEGV") : detail,
                        signal: outcome == .crashed ? 11 : nil)
                },
                notReproducedAlone: outcomes.contains(.crashed) ? cases.map(\.path) : [])
        }
        let rejectAll: [ConformanceResult.Outcome] = Array(repeating: .rejected, count: 6)
        let acceptAll: [ConformanceResult.Outcome] = Array(repeating: .accepted, count: 4)
        return ConformanceTable(
            date: Date(timeIntervalSince1970: 1_795_000_000),
            suite: "/work/shared/data/a-long-directory-of-the-suite/xmlconf",
            rules: [String(repeating: "a rule that chooses documents, ", count: 6)],
            method: [String(repeating: "how a document is given to the parser, ", count: 5)],
            libraries: ["libxml2": "2.9.14", "expat": "2.5.0"], cases: cases,
            parsers: [
                parser("libxml2", "push/event", rejectAll + acceptAll),
                parser(
                    "foundation-stream", "push/event",
                    [.crashed, .crashed, .crashed, .rejected, .hung, .accepted, .crashed, .crashed, .rejected, .failed]),
                parser("libxml2-reader", "pull", rejectAll + [.rejected, .accepted, .accepted, .accepted]),
                parser("memchr", "floor", Array(repeating: .accepted, count: 10)),
            ],
            elapsedSeconds: 95)
    }

    @Test func theTextFitsTheTerminalAndSaysWhatItLeftOut() {
        let table = Self.table()
        for width in [100, 80] {
            let text = ConformanceReport.text(table, width: width)
            let wide = text.split(separator: "\n").filter { $0.count > width }
            #expect(wide.isEmpty, "\(width): \(wide)")
            // The sentences, read across the lines they were broken into.
            let words = text.replacingOccurrences(of: "\n", with: " ")
            // What the narrower table leaves out, it names, and says where it is.
            #expect(words.contains("Not shown at \(width) columns: kind, hung/failed (conformance.md and"), "\(text)")
            #expect(words.contains("conformance.md and conformance-summary.csv have every column"), "\(text)")
            // Every parser's counts are still there, and the crashes' signals under the table.
            let foundation = text.split(separator: "\n").first { $0.hasPrefix("foundation-stream ") }
            #expect(
                foundation?.split(separator: " ").map(String.init) == [
                    "foundation-stream", "1", "1", "3", "0", "1", "2",
                ])
            #expect(
                words.contains(
                    "foundation-stream crashed on 3 not-wf (2 SIGSEGV, 1 SIGILL) and 2 valid (1 SIGILL, 1 SIGSEGV)"))
            #expect(text.contains("not-wf (6)") && text.contains("valid (4)"))
        }
        // A terminal wide enough has every column, the kind and the documents that hung or failed.
        let wide = ConformanceReport.text(table, width: 200)
        #expect(!wide.contains("Not shown"), "\(wide)")
        let row = wide.split(separator: "\n").first { $0.hasPrefix("foundation-stream ") }
        #expect(
            row?.split(separator: " ").map(String.init)
                == ["foundation-stream", "push/event", "1", "1", "3", "1", "0", "1", "2", "1"])
    }

    /// The table with libxml2's canonical events checked on three of the valid documents (one
    /// reproduced, one differing, one rejected), and the others' not checked.
    static func tableWithCanonicalEvents() -> ConformanceTable {
        var table = table()
        table.parsers[0].canonical = ConformanceTable.CanonicalEvents(results: [
            .init(caseID: "v-0", path: "xmltest/valid/sa/010.xml", verdict: .reproduced),
            .init(
                caseID: "v-1", path: "xmltest/valid/sa/011.xml", verdict: .differs,
                detail: #"at byte 5 (line 1, column 6): "<doc>\r" where the expected form has "<doc>\n""#),
            .init(caseID: "v-2", path: "xmltest/valid/sa/012.xml", verdict: .rejected, detail: "an error"),
        ])
        return table
    }

    @Test("The canonical-events check is a group of columns in every output (issue 68, item 4)")
    func canonicalEventsColumns() throws {
        let table = Self.tableWithCanonicalEvents()
        #expect(table.canonicalCaseCount == 3)
        let text = ConformanceReport.text(table, width: 200)
        #expect(text.contains("canonical events (3)"))
        let row = text.split(separator: "\n").first { $0.hasPrefix("libxml2 ") }
        #expect(
            row?.split(separator: " ").map(String.init)
                == ["libxml2", "push/event", "6", "0", "0", "0", "4", "0", "0", "0", "1", "1", "1"])
        let memchr = text.split(separator: "\n").first { $0.hasPrefix("memchr ") }
        #expect(memchr?.split(separator: " ").suffix(3).map(String.init) == ["n/a", "n/a", "n/a"])
        let words = text.replacingOccurrences(of: "\n", with: " ")
        #expect(words.contains("canonical events n/a: foundation-stream, libxml2-reader, memchr walk no document"))
        #expect(text.contains("libxml2: 2 canonical form(s) not reproduced"))
        #expect(text.contains(#"xmltest/valid/sa/011.xml: differs (at byte 5 (line 1, column 6): "<doc>\r""#))
        // Within a terminal's width too, every parser's canonical counts are still there.
        for width in [100, 80] {
            let narrow = ConformanceReport.text(table, width: width)
            #expect(narrow.split(separator: "\n").allSatisfy { $0.count <= width }, "\(narrow)")
            // (in the table's last columns, or in a table of their own under it)
            let libxml2 = narrow.split(separator: "\n").last { $0.hasPrefix("libxml2 ") }
            #expect(libxml2?.split(separator: " ").suffix(3).map(String.init) == ["1", "1", "1"], "\(narrow)")
        }

        let markdown = ConformanceReport.markdown(table)
        #expect(markdown.contains("| canonical events reproduced | differ | not read |"))
        #expect(markdown.contains("| libxml2 | push/event | 6 | 0 | 0 | 0 | 4 | 0 | 0 | 0 | 1 | 1 | 1 |"))
        #expect(markdown.contains("| memchr | floor | 0 | 6 | 0 | 0 | 4 | 0 | 0 | 0 | n/a | n/a | n/a |"))

        let summary = ConformanceReport.summaryCSV(table).components(separatedBy: "\r\n")
        #expect(summary[0].hasSuffix(",canonical_documents,canonical_reproduced,canonical_differ,canonical_not_read"))
        #expect(summary.contains("libxml2,push/event,valid,4,0,4,0,0,0,0,3,1,1,1"))
        #expect(summary.contains("libxml2,push/event,not-wf,6,6,0,0,0,0,0,,,,"))
        #expect(summary.contains("memchr,floor,valid,4,0,4,0,0,0,0,,,,"))

        let results = ConformanceReport.resultsCSV(table).components(separatedBy: "\r\n")
        #expect(results[0].hasSuffix(",detail,canonical_events,canonical_detail"))
        #expect(results.contains { $0.hasPrefix("libxml2,push/event,v-0,") && $0.hasSuffix(",reproduced,") })
        #expect(results.contains { $0.hasPrefix("libxml2,push/event,v-2,") && $0.hasSuffix(",rejected,an error") })
        #expect(results.contains { $0.hasPrefix("libxml2,push/event,v-3,") && $0.hasSuffix(",,") })

        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let decoded = try decoder.decode(ConformanceTable.self, from: Data(ConformanceReport.json(table).utf8))
        #expect(decoded.parsers[0].canonical == table.parsers[0].canonical)
        #expect(decoded.parsers[3].canonical == nil)
    }
}
