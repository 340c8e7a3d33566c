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
}
