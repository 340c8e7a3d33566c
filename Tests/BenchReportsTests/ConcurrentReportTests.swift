import BenchReports
import BenchResults
import BenchTestSupport
import Foundation
import Testing

/// The concurrent scenario's table: a row per parser and thread count, a failure said as such.
@Suite("Concurrent report")
struct ConcurrentReportTests {
    @Test func theTableShowsThroughputScalingAndFailures() throws {
        func cell(_ parser: String, _ threads: Int, _ ns: Int, error: String? = nil) -> CellSummary {
            let key = CellKey(
                parser: parser, scenario: ConcurrentFigures.cell(threads: threads), feedPath: "top.xml",
                feedSHA256: "s", feedBytes: 900, chunkSize: 0)
            let sample = Sample(
                cell: key, songs: 300, round: 1, iteration: 1, wallNs: ns, cpuNs: ns, firstSongNs: nil,
                peakResidentBytes: nil, error: error, debug: false)
            return CellSummary.summarise(
                key, samples: [sample], peakResidentBytes: nil, baselinePeakBytes: nil, outcome: error)
        }
        let cells = [
            cell("expat", 1, 4_000_000), cell("expat", 2, 5_000_000),
            cell("foundation", 2, 1, error: "worker signal 11 (SIGSEGV)"),
            cell("global", 2, 1, error: ConcurrentFigures.notRunPrefix + "it shares one parser context"),
        ]
        let text = RunReport.table(cells)
        #expect(text.contains("concurrent: top.xml (900 bytes, 300 songs), N parses at once on N threads"))
        let expat2 = try #require(text.split(separator: "\n").first { $0.contains("expat") && $0.contains(" 2 ") })
        #expect(expat2.contains("400") && expat2.contains("1.60×") && expat2.contains("same"))
        let crashed = try #require(text.split(separator: "\n").first { $0.hasPrefix("  foundation") })
        #expect(crashed.contains("FAILED"))
        #expect(text.contains("foundation, 2 threads: worker signal 11 (SIGSEGV)"))
        let notRun = try #require(text.split(separator: "\n").first { $0.hasPrefix("  global") })
        #expect(notRun.hasSuffix("not run"))
        #expect(text.contains("global, 2 threads: not run: it shares one parser context"))
        #expect(text.contains("× 1 thread: parses/s over the same parser's"))
        #expect(!text.contains("practices:"))
        var run = SyntheticRuns.run(id: "r", started: "2026-11-26T10:00:00Z", rounds: ["expat": [1_000_000]])
        run.cells = cells
        let markdown = RunReport.markdown(run)
        #expect(markdown.contains("**concurrent: top.xml"))
    }
}
