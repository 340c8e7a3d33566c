import BenchResults
import Foundation

/// The `concurrent` scenario's tables: one per feed and chunk size, a row per parser and thread count.
extension RunReport {
    static let concurrentHeader = [
        "parser", "threads", "n", "batch", "next run", "parses/s", "× 1 thread", "CPU", "failed", "answer",
    ]

    static let concurrentLegend =
        "concurrent: N threads of one worker each parse the feed with a fresh parser, all released at once; batch: release "
        + "to the last thread's end (median of the workers' medians, ms); next run: its 95% interval; parses/s: N ÷ batch, "
        + "all threads together; × 1 thread: parses/s over the same parser's with one thread (N× is perfect scaling, "
        + "with cores enough); CPU: the process's CPU time over a batch, every thread's (ms); answer: every thread's songs "
        + "the same as the worker's single-thread answer (a wrong answer, a crash or a time-out is FAILED, never averaged "
        + "in; not run: the parser's adapter says it may not parse on several threads at once)."

    static func concurrentRow(_ f: ConcurrentFigures) -> [String] {
        let answer: String
        if let outcome = f.outcome, outcome.hasPrefix(ConcurrentFigures.notRunPrefix) {
            answer = "not run"
        } else if f.failed > 0 {
            answer = f.n == 0 ? "FAILED" : "FAILED \(f.failed)"
        } else {
            answer = f.n > 0 ? "same" : ""
        }
        let next =
            f.batchLowNs.flatMap { low in f.batchHighNs.map { "\(Format.ms(low))–\(Format.ms($0))" } } ?? ""
        return [
            f.parser, String(f.threads), String(f.n), Format.ms(f.batchNs), next,
            Format.number(f.parsesPerSecond, decimals: 0), f.scaling.map { "\(ratio($0))×" } ?? "",
            Format.ms(f.cpuNs), String(f.failed), answer,
        ]
    }

    /// The concurrent tables: (title, header, rows, notes on cells that went wrong or were not run).
    static func concurrentTables(_ cells: [CellSummary]) -> [(
        title: String, header: [String], rows: [[String]], notes: [String]
    )] {
        grouped(ConcurrentFigures.of(cells)) { "\($0.feedPath)|\($0.chunkSize)" }.compactMap { group in
            guard let first = group.first else { return nil }
            let songs = group.map(\.songs).max() ?? 0
            let title =
                "concurrent: \(first.feedPath) (\(first.feedBytes) bytes, \(songs) songs), N parses at once on N threads, "
                + "chunks of " + (first.chunkSize == 0 ? "the whole feed" : "\(first.chunkSize) bytes")
            var notes = group.compactMap { f in f.outcome.map { "\(f.parser), \(f.threads) threads: \($0)" } }
            if let coverage = nextRunCoverage(group.map(\.batchCoverage)) { notes.append("next run: " + coverage) }
            return (title, concurrentHeader, group.map(concurrentRow), notes)
        }
    }
}
