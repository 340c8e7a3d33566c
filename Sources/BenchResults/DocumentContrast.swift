/// Where a parser's speed against the same reference differs between documents beyond both
/// intervals: what the document workload's corpus shows that one document cannot.
///
/// For each parser, over the documents it was timed on against one reference (its relative speed,
/// time ÷ the reference's, with the 95% interval from the rounds), the document where it fares best
/// and the one where it fares worst, reported when their intervals do not overlap.
public struct DocumentContrast: Sendable, Equatable, Codable {
    /// One end: a document and the parser's ratio on it.
    public struct End: Sendable, Equatable, Codable {
        public var document: String
        public var ratio: Double
        public var low: Double
        public var high: Double
    }

    public var parser: String
    public var reference: String
    /// The document with the lowest ratio (the parser closest to, or furthest ahead of, the reference).
    public var best: End
    /// The document with the highest ratio.
    public var worst: End

    /// The contrasts of the `document` cells of `cells`, in the order their parsers first appear.
    public static func find(_ cells: [CellSummary]) -> [DocumentContrast] {
        var order: [String] = []
        var ends: [String: [End]] = [:]
        var references: [String: String] = [:]
        for cell in cells where cell.cell.scenario.workload == .document {
            guard let relative = cell.relative, let low = relative.low, let high = relative.high,
                relative.reference != cell.cell.parser
            else { continue }
            let parser = cell.cell.parser
            // Ratios compare across documents only against the same reference.
            if let known = references[parser], known != relative.reference { continue }
            references[parser] = relative.reference
            if ends[parser] == nil { order.append(parser) }
            ends[parser, default: []].append(
                End(document: cell.cell.feedPath, ratio: relative.ratio, low: low, high: high))
        }
        return order.compactMap { parser in
            guard let list = ends[parser], let reference = references[parser],
                let best = list.min(by: { $0.ratio < $1.ratio }), let worst = list.max(by: { $0.ratio < $1.ratio }),
                worst.low > best.high
            else { return nil }
            return DocumentContrast(parser: parser, reference: reference, best: best, worst: worst)
        }
    }
}
