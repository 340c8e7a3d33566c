import BenchResults
import Foundation

/// The practices' tables (`paged`, `fields`, `gzip`, `queue`, `store`, `read`): one per practice, feed
/// and network profile, one row per choice and parser.
extension RunReport {
    static let practiceHeader = [
        "choice", "parser", "n", "requests", "wire KB", "fed KB", "1st song", "total", "next run", "parse", "failed",
    ]
    static let cancelHeader = [
        "choice", "parser", "n", "requests", "wire KB", "1st page", "total", "bytes after", "parse after",
        "started after",
        "failed",
    ]
    /// The practice tables' columns left out, in this order, until a table fits the terminal (a
    /// failure is also in the table's notes).
    static let practiceDropOrder = [
        "n", "songs", "failed", "requests", "started after", "95% CI", "alloc KB", "pages read", "allocs", "next run",
    ]

    static let storeHeader = ["choice", "parser", "n", "songs", "parse", "store", "total", "next run", "failed"]
    static let readHeader = [
        "choice", "n", "songs", "per visit", "next run", "pages read", "allocs", "alloc KB", "× pair", "95% CI",
        "failed",
    ]

    static func practiceRow(_ f: PracticeFigures) -> [String] {
        switch f.practice {
        case .read:
            return [
                f.choice, String(f.n), String(f.songs), Format.ms(f.totalNs, decimals: 4), interval(f, decimals: 4),
                Format.number(f.pagesReadPerVisit, decimals: 2), Format.number(f.allocationsPerVisit, decimals: 0),
                kilobytes(f.allocatedBytesPerVisit), pairRatio(f), pairInterval(f), String(f.failed),
            ]
        case .store:
            return [
                f.choice, f.parser, String(f.n), String(f.songs), Format.ms(f.parseNs), Format.ms(f.storeNs),
                Format.ms(f.totalNs),
                interval(f), String(f.failed),
            ]
        case .cancel:
            return [
                f.choice, f.parser, String(f.n), Format.number(f.requests, decimals: 0), kilobytes(f.wireBytes),
                Format.ms(f.firstSongNs), Format.ms(f.totalNs), f.afterCancelBytes.map(String.init) ?? "",
                f.afterCancelParseNs.map { Format.ms(Double($0), decimals: 3) } ?? "",
                f.startedAfterCancel.map(String.init) ?? "",
                String(f.failed),
            ]
        default:
            return [
                f.choice, f.parser, String(f.n), Format.number(f.requests, decimals: 0), kilobytes(f.wireBytes),
                kilobytes(f.bytes),
                Format.ms(f.firstSongNs), Format.ms(f.totalNs), interval(f), Format.ms(f.parseNs), String(f.failed),
            ]
        }
    }

    static func interval(_ f: PracticeFigures, decimals: Int = 3) -> String {
        guard let low = f.totalLowNs, let high = f.totalHighNs else { return "" }
        return "\(Format.ms(low, decimals: decimals))–\(Format.ms(high, decimals: decimals))"
    }

    /// `read`: the choice's time over its pair's recommended choice's ("2.41× shared").
    static func pairRatio(_ f: PracticeFigures) -> String {
        guard let ratio = f.pairRatio else { return "" }
        let name = ratio.reference.split(separator: "-", maxSplits: 1).last.map(String.init) ?? ratio.reference
        return "\(Format.number(ratio.ratio, decimals: 2))× \(name)"
    }

    static func pairInterval(_ f: PracticeFigures) -> String {
        guard let low = f.pairRatio?.low, let high = f.pairRatio?.high else { return "" }
        return "\(Format.number(low, decimals: 2))–\(Format.number(high, decimals: 2))"
    }

    static func kilobytes(_ bytes: Double?) -> String { Format.number(bytes.map { $0 / 1_000 }, decimals: 1) }

    /// The practice tables: (title, header, rows, notes on cells that went wrong), one per practice,
    /// feed and network.
    static func practiceTables(_ cells: [CellSummary]) -> [(
        title: String, header: [String], rows: [[String]], notes: [String]
    )] {
        grouped(PracticeFigures.of(cells)) { "\($0.practice.rawValue)|\($0.feedPath)|\($0.network)" }.compactMap {
            group in
            guard let first = group.first else { return nil }
            let header =
                first.practice == .store
                ? storeHeader
                : first.practice == .cancel ? cancelHeader : first.practice == .read ? readHeader : practiceHeader
            var title = "\(first.practice.rawValue) on \(Format.feedName(first.feedPath))"
            if !first.network.isEmpty { title += ", network \(first.network)" }
            if first.practice == .read { title += " (\(first.songs) songs stored, parsed by \(first.parser))" }
            var notes = group.compactMap { f in f.outcome.map { "\(f.parser), \(f.scenario): \($0)" } }
            if let coverage = nextRunCoverage(group.map(\.totalCoverage)) { notes.append("next run: " + coverage) }
            return (title, header, group.map(practiceRow), notes)
        }
    }

    static let practiceLegend =
        "practices: wire KB: body bytes on the wire (compressed for gzip), fed KB: bytes the parser was fed; requests: per "
        + "iteration; 1st song: start to the first song of the first page; total: start to every song ready (store: parse + store), "
        + "the median of the workers' medians; next run: its 95% interval; parse: time inside parser calls, every page's; "
        + "cancel: requests started, bytes delivered and parser time spent after the cancel (the goal is none beyond what was in flight); "
        + "store: SQLite through GRDB with an app's defaults; "
        + "read: the songs stored once, then a session of screens an iteration (lists of 25 songs, a song's detail), "
        + "per visit: its time, the pages SQLite read from the file, malloc calls and KB asked for; × pair: the time over "
        + "the recommended choice's, workers paired by round, with its 95% CI (GRDB DatabaseQueue, read-only, "
        + "journal_mode=delete, SQLite's default cache_size unless sized for the table). Medians, in ms."

    /// One row per practice cell (`<run-id>-practices.csv`).
    public static let practiceColumns = [
        "practice", "choice", "scenario", "parser", "feed", "network", "songs", "n", "requests", "wire_bytes", "bytes",
        "first_song_ms", "total_ms", "total_next_run_low_ms", "total_next_run_high_ms", "parse_ms", "download_ms",
        "store_ms",
        "after_cancel_bytes", "after_cancel_parse_ms", "started_after_cancel", "failed", "outcome",
        "visits", "pages_read_per_visit", "allocations_per_visit", "allocated_bytes_per_visit", "pair_ratio",
        "pair_ratio_low", "pair_ratio_high", "pair_reference",
    ]

    public static func practicesCSV(_ cells: [CellSummary]) -> String {
        CSV.document(
            header: practiceColumns,
            rows: PracticeFigures.of(cells).map { f in
                [
                    f.practice.rawValue, f.choice, f.scenario, f.parser, f.feedPath, f.network, String(f.songs),
                    String(f.n),
                    Format.number(f.requests, decimals: 1), Format.number(f.wireBytes, decimals: 0),
                    Format.number(f.bytes, decimals: 0),
                    Format.ms(f.firstSongNs), Format.ms(f.totalNs), Format.ms(f.totalLowNs), Format.ms(f.totalHighNs),
                    Format.ms(f.parseNs), Format.ms(f.downloadNs), Format.ms(f.storeNs),
                    f.afterCancelBytes.map(String.init) ?? "",
                    f.afterCancelParseNs.map { Format.ms(Double($0), decimals: 4) } ?? "",
                    f.startedAfterCancel.map(String.init) ?? "",
                    String(f.failed), f.outcome ?? "",
                    f.visits.map(String.init) ?? "", Format.number(f.pagesReadPerVisit, decimals: 3),
                    Format.number(f.allocationsPerVisit, decimals: 1),
                    Format.number(f.allocatedBytesPerVisit, decimals: 0),
                    Format.number(f.pairRatio?.ratio, decimals: 4), Format.number(f.pairRatio?.low, decimals: 4),
                    Format.number(f.pairRatio?.high, decimals: 4), f.pairRatio?.reference ?? "",
                ]
            })
    }

    /// The same figures as JSON (`<run-id>-practices.json`).
    public static func practicesJSON(_ cells: [CellSummary]) throws -> String {
        try JSONDocument.text(PracticeFigures.of(cells))
    }
}
