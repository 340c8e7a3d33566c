import BenchReports
import Testing

/// `bench verify`'s text for one feed, from the rows the CLI gives it.
@Suite("bench verify's report")
struct VerifyReportTests {
    static let rows = [
        VerifyReport.Row(
            parser: "expat", count: 300, digest: String(repeating: "ab", count: 32), result: "agrees",
            isProblem: false),
        VerifyReport.Row(
            parser: "twig", count: nil, digest: nil, result: "FAILED: no songs: not a feed",
            isProblem: true),
        VerifyReport.Row(
            parser: "sax", count: nil, digest: nil, result: "FAILED: no songs: not a feed",
            isProblem: true),
    ]

    @Test func aProblemSaidAlikeIsWrittenOnceAndTheFirstIsTheSummarys() {
        let text = VerifyReport.text(
            path: "feed.xml", bytes: 10, sha256: String(repeating: "0", count: 64), countedNoun: "songs",
            rows: Self.rows,
            confirmers: [])
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "feed.xml  (10 bytes, sha256 0000000000000000…)", "\(text)")
        #expect(lines[1].hasPrefix("  parser    songs    digest"), "\(text)")
        #expect(lines[2].hasPrefix("  expat     300      abababababababab…   agrees"), "\(text)")
        #expect(lines[3].hasSuffix("FAILED: no songs: not a feed") && lines[4].hasSuffix("FAILED: the same as twig"))
        #expect(
            VerifyReport.firstProblem(path: "feed.xml", rows: Self.rows)
                == "feed.xml: twig FAILED: no songs: not a feed")
        #expect(VerifyReport.firstProblem(path: "f", rows: []) == "f: no parser succeeded")
    }

    @Test func aLongResultContinuesUnderItsColumn() {
        let long = VerifyReport.Row(
            parser: "expat", count: nil, digest: nil,
            result: "DIFFERS: " + Array(repeating: "word", count: 30).joined(separator: " "), isProblem: true)
        let text = VerifyReport.text(
            path: "f", bytes: 1, sha256: "00", countedNoun: "events", rows: [long], confirmers: [long], width: 60)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.count <= 60 }, "\(text)")
        let column = lines[1].range(of: "result").map {
            lines[1].distance(from: lines[1].startIndex, to: $0.lowerBound)
        }
        #expect(column != nil && lines[3].prefix(column ?? 0).allSatisfy { $0 == " " }, "\(text)")
        #expect(text.contains("checked beside them to confirm"))
    }
}
