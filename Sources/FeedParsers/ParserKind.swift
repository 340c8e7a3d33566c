/// What kind of parser an adapter drives.
public enum ParserKind: String, CaseIterable, Codable, Sendable {
    /// Reads the bytes and calls back for each element and run of text (SAX, expat, `XMLParser`).
    case event = "push/event"
    /// The caller asks for the next node (libxml2's `xmlTextReader`).
    case pull
    /// Builds the whole document as a tree, then looks the songs up in it.
    case tree
    /// Decodes the document into `Decodable` types.
    case codable = "Codable"
    /// The same extraction as a Swift adapter, in plain C: what the binding costs.
    case reference
    /// No parsing at all: one pass over the bytes, the lower bound of any parser.
    case floor
    /// Takes the chunks and does nothing: the harness's own cost.
    case baseline
}
