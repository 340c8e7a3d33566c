import BenchResults

/// The `download` and `conditional` scenarios' tables.
extension RunReport {
    static let downloadHeader = [
        "parser", "n", "workers", "download", "parse", "next run", "total", "1st song", "overlap", "parse MiB",
        "worker MiB",
        "failed",
    ]

    static func downloadRow(_ cell: CellSummary) -> [String] {
        let interval = cell.estimate.map { "\(Format.ms($0.low))–\(Format.ms($0.high))" } ?? ""
        return [
            cell.cell.parser, String(cell.wall?.count ?? 0), cell.estimate.map { String($0.workers) } ?? "0",
            Format.ms(cell.downloadMedianNs), Format.ms(cell.time), interval, Format.ms(cell.totalMedianNs),
            Format.ms(cell.firstSongMedianNs), cell.overlap.map { Format.number($0 * 100, decimals: 0) + "%" } ?? "",
            Format.mib(cell.parsePeakBytes.map(Double.init)), Format.mib(cell.peakResidentBytes.map(Double.init)),
            String(cell.failed),
        ]
    }

    /// The download table's columns a terminal's narrow table leaves to `--columns all` and the files.
    static let narrowDownloadHidden: Set<String> = ["n", "worker MiB", "failed"]

    static let conditionalHeader = [
        "parser", "n", "200 download", "200 bytes", "200 total", "304 download", "304 bytes", "304 total", "saved",
        "failed",
    ]

    /// One row per parser: the full download (200) beside the revalidation (304) that reused its songs.
    static func conditionalRows(_ full: [CellSummary], _ revalidated: [CellSummary]) -> [[String]] {
        full.map { cell in
            let twin = revalidated.first { $0.cell.parser == cell.cell.parser }
            var saved = ""
            if let a = cell.totalMedianNs, let b = twin?.totalMedianNs, a > 0 {
                saved = Format.number((1 - b / a) * 100, decimals: 0) + "%"
            }
            return [
                cell.cell.parser, String(cell.wall?.count ?? 0), Format.ms(cell.downloadMedianNs),
                Format.number(cell.bytesMedian, decimals: 0), Format.ms(cell.totalMedianNs),
                Format.ms(twin?.downloadMedianNs), Format.number(twin?.bytesMedian, decimals: 0),
                Format.ms(twin?.totalMedianNs), saved, String(cell.failed + (twin?.failed ?? 0)),
            ]
        }
    }

    /// The header and rows of one group's table, by scenario; `nil` for a group shown with another.
    static func tableContent(
        _ group: [CellSummary], all groups: [[CellSummary]], reference: String? = nil,
        columns: [ParseColumn] = ParseColumn.allCases, hiding hidden: [Metric] = []
    ) -> (header: [String], rows: [[String]])? {
        guard let first = group.first?.cell else { return nil }
        switch first.scenario {
        case .conditional304:
            return nil
        case .conditional200:
            let twin = groups.first {
                $0.first?.cell.scenario == .conditional304 && $0.first?.cell.feedSHA256 == first.feedSHA256
                    && $0.first?.cell.network == first.network
            }
            return (conditionalHeader, conditionalRows(group, twin ?? []))
        case .download:
            let rows = group.map(downloadRow)
            guard columns != ParseColumn.allCases else { return (downloadHeader, rows) }
            // A terminal's narrow table: the counts and the worker's whole peak go to the files.
            let kept = downloadHeader.indices.filter { !narrowDownloadHidden.contains(downloadHeader[$0]) }
            return (kept.map { downloadHeader[$0] }, rows.map { row in kept.map { row[$0] } })
        default:
            if group.contains(where: { $0.instructions != nil }) {
                let kept = countedColumns(group)
                return (instructionsHeader(kept), group.map { instructionsRow($0, kept: kept) })
            }
            // After the parse columns, every figure kept by metric that the cells have (``Metric``'s
            // table: its heading, its median), as the counted tables show them, but those a narrow
            // terminal goes without (`hidden`).
            let kept = countedColumns(group).filter { !hidden.contains($0) }
            return (
                tableHeader(reference: reference, columns: columns) + kept.map { $0.traits.heading ?? $0.name },
                ordered(group).map { cell in
                    tableRow(cell, columns: columns)
                        + kept.map { Format.number(cell.statistics($0)?.median, decimals: 0) }
                }
            )
        }
    }

    /// The download table's short key (the terminal's; ``downloadLegend`` says it all).
    static let downloadKey =
        "download: request to last byte; parse: time inside the parser's calls; total: request to songs ready; "
        + "1st song: request to first song; overlap: the parse's share hidden under the download (medians, ms)."

    static let downloadLegend =
        "download: request sent to last byte (stamped as it arrives, before its parse); parse: time inside the "
        + "parser's calls, the last one included (median of the workers' medians; next run: the interval the next "
        + "run's parse figure should fall in); parse MiB: the first download and parse's own peak, above the worker's resident set before it; "
        + "total: request sent to songs ready; 1st song: request sent to first song; overlap: the share of the "
        + "parse time hidden under the download, (download + parse - total) / parse; saved: total time a 304 "
        + "saves against a full download. Medians, in ms."
}
