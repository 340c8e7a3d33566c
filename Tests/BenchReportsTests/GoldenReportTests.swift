import BenchReports
import BenchResults
import BenchTestSupport
import Foundation
import Testing

/// Every report format rendered from one fixed run and compared byte for byte with the files in
/// `Golden/`, so that a change to any report is a visible diff in review.
///
/// After an intended change, rewrite the files with `BENCH_UPDATE_GOLDEN=1 swift test --filter
/// GoldenReportTests` and read the diff before committing it.
@Suite("Reports against golden files")
struct GoldenReportTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    /// A parse run with a floor, a C reference and the baseline, an allocation-counted parser and a
    /// download cell: every section of every report has something to show.
    static func run() -> RunResult {
        let drift = [1, 1.3, 0.9, 1.1, 1.0, 1.2]
        let base = ["c-libxml2": 4e6, "libxml2": 4.2e6, "expat": 6.1e6, "memchr": 3e5, "null": 2e3]
        var rounds: [String: [Double]] = [:]
        for (parser, value) in base { rounds[parser] = drift.map { value * $0 } }
        var run = SyntheticRuns.run(id: "20261122T100000Z-gold", started: "2026-11-22T10:00:00Z", rounds: rounds)
        let parseCell = run.samples.first { $0.cell.parser == "expat" }?.cell
        if let parseCell {
            for k in 0..<2 {
                var counted = Sample(
                    cell: parseCell, songs: 300, round: 0, iteration: 31 + k, wallNs: nil, cpuNs: nil,
                    firstSongNs: nil, peakResidentBytes: nil, error: nil, debug: false)
                counted.allocations = 743
                counted.allocatedBytes = 208_097
                counted.keptBytes = 98_704
                run.samples.append(counted)
            }
        }
        let download = CellKey(
            parser: "libxml2", scenario: .download, feedPath: "Data/top300.rss.xml", feedSHA256: "feedsha",
            feedBytes: 901_440, chunkSize: 0, network: "loopback")
        for k in 0..<4 {
            run.samples.append(
                Sample(
                    cell: download, songs: 300, round: 1 + k / 2, iteration: k + 1, wallNs: 4_300_000 + 10_000 * k,
                    cpuNs: nil, firstSongNs: 90_000 + k, downloadNs: 2_000_000 + 50_000 * k,
                    totalNs: 6_500_000 + 60_000 * k, peakResidentBytes: 31_000_000, bytes: 901_440, httpStatus: 200,
                    error: nil, debug: false))
        }
        let kinds = [
            "c-libxml2": "reference", "libxml2": "push/event", "expat": "push/event", "memchr": "floor",
            "null": "baseline",
        ]
        let cells = run.cells.map(\.cell) + [download]
        run.cells = cells.map { cell in
            var summary = CellSummary.summarise(
                cell, samples: run.samples.filter { $0.cell == cell }, peakResidentBytes: 30_000_000,
                baselinePeakBytes: cell.parser == "null" ? nil : 29_000_000, outcome: nil)
            summary.kind = kinds[cell.parser]
            return summary
        }
        RelativeSpeed.rank(&run.cells, samples: run.samples, reference: nil, baseline: "null", unranked: ["memchr"])
        RelativeSpeed.divide(&run.cells, samples: run.samples, by: ["libxml2": "c-libxml2"], into: \.bindingTax)
        RelativeSpeed.divide(
            &run.cells, samples: run.samples, by: ["libxml2": "memchr", "c-libxml2": "memchr", "expat": "memchr"],
            into: \.floorMultiple)
        return run
    }

    /// Each format's file name and its text for ``run()``.
    static func renderings() throws -> [(String, String)] {
        let run = Self.run()
        return [
            ("run.txt", RunReport.table(run)),
            // What a terminal of 100 columns shows: the answer, the header, the default columns, the
            // short key wrapped.
            (
                "run-terminal.txt",
                Format.wrap(RunReport.answer(run).joined(separator: "\n") + "\n\n" + RunReport.header(run), width: 100)
                    + RunReport.table(run, columns: ParseColumn.defaults, width: 100, key: true)
            ),
            ("run-summary.csv", RunReport.summaryCSV(run.cells, noise: run.noise)),
            ("run-samples.csv", RunReport.samplesCSV(run.samples, runID: run.environment.runID)),
            ("run.json", try RunReport.json(run)),
            ("run.md", RunReport.markdown(run)),
            ("run.html", HTMLReport.run(run, history: [])),
        ]
            + (try ExportFormat.allCases.map { format in
                (
                    "run.\(format.rawValue)" + (format == .influx ? ".txt" : ".json"),
                    try format.write(ExportPoint.points(run))
                )
            })
    }

    @Test func theSameRunRendersTheSameBytesTwice() throws {
        let first = try Self.renderings()
        let second = try Self.renderings()
        for (a, b) in zip(first, second) { #expect(a.1 == b.1, "\(a.0) changes between two renderings") }
    }

    @Test func everyFormatMatchesItsGoldenFile() throws {
        let update = ProcessInfo.processInfo.environment["BENCH_UPDATE_GOLDEN"] == "1"
        for (name, text) in try Self.renderings() {
            let url = Self.directory.appendingPathComponent(name)
            if update {
                try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
                continue
            }
            let golden = try #require(
                try? String(contentsOf: url, encoding: .utf8),
                "\(url.path) is missing: write it with BENCH_UPDATE_GOLDEN=1 swift test --filter GoldenReportTests")
            if golden != text {
                let expected = golden.split(separator: "\n", omittingEmptySubsequences: false)
                let actual = text.split(separator: "\n", omittingEmptySubsequences: false)
                let line = Array(zip(expected, actual)).firstIndex { $0.0 != $0.1 } ?? min(expected.count, actual.count)
                Issue.record(
                    """
                    \(name) differs from its golden file at line \(line + 1):
                      golden:   \(line < expected.count ? String(expected[line].prefix(200)) : "<end>")
                      rendered: \(line < actual.count ? String(actual[line].prefix(200)) : "<end>")
                    (after an intended change: BENCH_UPDATE_GOLDEN=1 swift test --filter GoldenReportTests)
                    """)
            }
        }
    }
}
