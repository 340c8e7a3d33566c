import BenchResults
import Foundation

/// The measured shape of each document of a document-workload run, in the table, Markdown and
/// `<run-id>-documents.csv` (the JSON has `RunResult.documents`).
extension RunReport {
    /// The columns of `<run-id>-documents.csv`, in order.
    public static let documentColumns = [
        "document", "bytes", "elements", "attributes", "attributes_per_element", "text_bytes", "text_share",
        "max_depth", "namespaces", "references", "references_per_kb",
    ]

    static let documentHeader = [
        "document", "bytes", "elements", "attrs/element", "text share", "max depth", "namespaces", "refs/KB",
    ]

    static func documentRow(_ profile: DocumentProfile) -> [String] {
        [
            Format.feedName(profile.document), String(profile.bytes), String(profile.elements),
            Format.number(profile.attributesPerElement, decimals: 2),
            Format.number(profile.textShare * 100, decimals: 1) + "%", String(profile.maximumDepth),
            String(profile.namespaces), Format.number(profile.referencesPerKB, decimals: 2),
        ]
    }

    /// One row per document.
    public static func documentsCSV(_ documents: [DocumentProfile]) -> String {
        CSV.document(
            header: documentColumns,
            rows: documents.map { profile in
                [
                    profile.document, String(profile.bytes), String(profile.elements), String(profile.attributes),
                    Format.number(profile.attributesPerElement, decimals: 4), String(profile.textBytes),
                    Format.number(profile.textShare, decimals: 4), String(profile.maximumDepth),
                    String(profile.namespaces), String(profile.references),
                    Format.number(profile.referencesPerKB, decimals: 4),
                ]
            })
    }

    /// One row per contrast of `DocumentContrast`: a parser's ratio to its reference on the
    /// document where it is lowest and where it is highest, with their 95% intervals (the header alone when
    /// no ratio differs between documents beyond its interval).
    public static func betweenDocumentsCSV(_ contrasts: [DocumentContrast]) -> String {
        func end(_ end: DocumentContrast.End) -> [String] {
            [end.document] + [end.ratio, end.low, end.high].map { Format.number($0, decimals: 4) }
        }
        return CSV.document(
            header: [
                "parser", "reference", "lowest_document", "lowest_ratio", "lowest_ci95_low", "lowest_ci95_high",
                "highest_document", "highest_ratio", "highest_ci95_low", "highest_ci95_high",
            ],
            rows: contrasts.map { [$0.parser, $0.reference] + end($0.best) + end($0.worst) })
    }

    /// The terminal block, empty without documents; its heading broken at `width`.
    static func documentsBlock(_ documents: [DocumentProfile]?, width: Int? = nil) -> String? {
        guard let documents, !documents.isEmpty else { return nil }
        let heading =
            "Documents (measured shape: text share is character data ÷ bytes, refs/KB entity and character "
            + "references per 1,000 bytes):"
        var table = TextTable(header: documentHeader, rows: documents.map(documentRow))
        var note = ""
        if let width {
            // Narrower than the table: its least read columns go, named under it (never a row wrapped).
            let fitted = table.fitted(width: width, indent: "  ", dropOrder: documentDropOrder)
            table = fitted.table
            if !fitted.dropped.isEmpty {
                let said =
                    "  not shown at this width: \(fitted.dropped.joined(separator: ", ")) (the documents CSV and the "
                    + "JSON have them)"
                note = "\n" + Format.wrap(said, width: width)
            }
        }
        return (width.map { Format.wrap(heading, width: $0) } ?? heading) + "\n" + table.render(indent: "  ") + note
    }

    /// The documents' columns a narrow terminal goes without, first to last.
    static let documentDropOrder = ["namespaces", "max depth", "refs/KB", "attrs/element", "elements"]

    /// The Markdown block, empty without documents.
    static func documentsMarkdown(_ documents: [DocumentProfile]?) -> String {
        guard let documents, !documents.isEmpty else { return "" }
        return "\n**Documents** (measured shape)\n\n"
            + MarkdownTable.render(
                header: documentHeader, rows: documents.map(documentRow), rightAligned: Set(1..<documentHeader.count))
            + "\n"
    }

    /// The document workload's second baseline: the shared sink alone, the document's recorded
    /// events replayed into it.
    static let sinkBaseline = "sink"

    /// What the sink alone costs on the document of `group`, against the reference parser's figure.
    ///
    /// Instructions when counted, else the median times; `nil` without a `sink` cell. `timedSink`
    /// (`RunSettings.timedSink`) names the sink the times include: the checksum sink, or (`nil`, runs
    /// that did not record it) the canonical one.
    static func sinkNote(_ group: [CellSummary], timedSink: String? = nil) -> String? {
        let parsers = group.filter { $0.kind != "baseline" && $0.kind != "floor" }
        func figure(_ cell: CellSummary) -> Double { cell.instructions?.median ?? cell.time ?? .infinity }
        // The reference of the relative figures, or (counted, where there are none) the lowest count.
        let named = group.lazy.compactMap(\.relative?.reference).first
        guard let sink = group.first(where: { $0.cell.parser == sinkBaseline }),
            let reference = named.flatMap({ name in parsers.first { $0.cell.parser == name } })
                ?? parsers.min(by: { figure($0) < figure($1) })
        else { return nil }
        let name = reference.cell.parser
        let what =
            timedSink == RunSettings.checksumSink
            ? "sink: the timed \(RunSettings.checksumSink) sink alone (the document's events replayed into it, no parse)"
            : "sink: the shared event sink alone (the document's events replayed, no parse)"
        func share(_ part: Double, _ whole: Double) -> String {
            Format.number(part / whole * 100, decimals: 0) + "%"
        }
        if let counted = sink.instructions?.median, let whole = reference.instructions?.median, whole > 0 {
            return "\(what) counts \(Format.number(counted, decimals: 0)) instructions, \(share(counted, whole)) of "
                + "\(name)'s: every parser's count includes it"
        }
        guard let time = sink.time, let whole = reference.time, whole > 0 else { return nil }
        return "\(what) takes \(Format.ms(time)) ms, \(share(time, whole)) of \(name)'s \(Format.ms(whole)) ms "
            + "(medians): every parser's time includes it"
    }
}
