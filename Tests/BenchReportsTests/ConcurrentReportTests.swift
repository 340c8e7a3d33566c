import BenchReports
import BenchResults
import BenchTestSupport
import Foundation
import Testing

/// The concurrent scenario's table: a row per parser and thread count, a failure said as such; and
/// what the practice and concurrent tables say of a short next-run interval.
@Suite("Concurrent and practice report")
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
        // One worker a cell: its next-run interval is no 95% one, and the table says so (the legend
        // says 95%).
        #expect(text.contains("  next run: 1 worker gives that interval"), "\(text)")
        var run = SyntheticRuns.run(id: "r", started: "2026-11-26T10:00:00Z", rounds: ["expat": [1_000_000]])
        run.cells = cells
        let markdown = RunReport.markdown(run)
        #expect(markdown.contains("**concurrent: top.xml"))
        #expect(markdown.contains("- next run: 1 worker gives that interval"), "\(markdown)")
    }

    /// A practice table whose next-run intervals come from too few workers says how much they cover,
    /// in the terminal and the Markdown, as the parse tables do (the legend says 95%).
    @Test func aPracticeTableSaysWhatAShortIntervalCovers() throws {
        let key = CellKey(
            parser: "libxml2", scenario: CellScenario(.paged, choice: "25"), feedPath: "top.xml", feedSHA256: "s",
            feedBytes: 900, chunkSize: 16_384, network: "wifi")
        let samples = (1...3).map { round in
            var sample = Sample(
                cell: key, songs: 300, round: round, iteration: 1, wallNs: 4_000_000 + round, cpuNs: 4_000_000,
                firstSongNs: 1_000_000, downloadNs: 20_000_000, totalNs: 24_000_000 + round * 1_000,
                peakResidentBytes: nil, error: nil, debug: false)
            sample.requests = 12
            return sample
        }
        let cell = CellSummary.summarise(
            key, samples: samples, peakResidentBytes: nil, baselinePeakBytes: nil, outcome: nil)
        try #require(cell.totalEstimate?.workers == 3)
        let text = RunReport.table([cell])
        #expect(text.contains("paging on top.xml, network wifi"), "\(text)")
        #expect(text.contains("  next run: 3 workers give that interval"), "\(text)")
        var run = SyntheticRuns.run(id: "r", started: "2026-11-26T10:00:00Z", rounds: ["expat": [1_000_000]])
        run.cells = [cell]
        #expect(RunReport.markdown(run).contains("- next run: 3 workers give that interval"))
    }
}
