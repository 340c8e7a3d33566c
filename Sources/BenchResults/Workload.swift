/// What each parser is asked to build from a document.
public enum Workload: String, CaseIterable, Codable, Sendable {
    /// The songs of an iTunes RSS or Atom feed (`[Song]`), compared field by field: the default.
    case songs
    /// The canonical event stream of any XML document (elements, attributes, text, processing
    /// instructions) into one shared sink, compared by digest and event by event.
    case document

    /// What a parse of it yields, counted in reports: "songs" or "events".
    public var countedNoun: String {
        switch self {
        case .songs: return "songs"
        case .document: return "events"
        }
    }

    /// What a parser reads, in words: "feed" or "document".
    public var inputNoun: String {
        switch self {
        case .songs: return "feed"
        case .document: return "document"
        }
    }
}
