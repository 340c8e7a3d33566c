/// The scenarios the suite measures: what one iteration of a cell does (see the engine's scenario types).
public enum ScenarioID: String, CaseIterable, Codable, Sendable {
    /// The feed's bytes are in memory; a fresh parser consumes them in chunks.
    case parse
    /// The feed is fetched over HTTP; a push parser consumes each chunk as it arrives.
    case download
    /// A download, then a second request with validators that gets 304.
    case conditional
    /// The feed in pages, following next links.
    case paged
    /// The whole feed, and the same with only the song fields.
    case fields
    /// The whole feed, identity and gzip.
    case gzip
    /// Every page through a bounded queue.
    case queue
    /// Every page through a bounded queue, cancelled once the first page is in.
    case cancel
    /// The feed parsed, then its songs written to SQLite.
    case store
    /// The feed's songs stored once, then read back by an app's screens.
    case read
    /// Any XML document's bytes in memory, walked by a fresh parser (in chunks) into the canonical
    /// event sink: the document workload.
    case document

    /// What the scenario's parsers build: songs, or a document's events.
    public var workload: Workload { self == .document ? .document : .songs }
}
