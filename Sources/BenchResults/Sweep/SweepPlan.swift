/// What a sweep measures: the sizes of the scale sweep and the chunk sizes of the chunk sweep, over
/// generated song feeds or, with a ``shape``, generated documents of that shape.
public struct SweepPlan: Codable, Sendable, Equatable {
    /// The generated document shape swept (the document workload), or `nil` for song feeds.
    public var shape: String?
    /// The size of each document of the scale sweep (each generated, deterministic), in ``unit``s:
    /// songs per feed, or bytes per shaped document.
    public var sizes: [Int]
    /// The chunk size of the scale sweep.
    public var chunkSize: Int
    /// The chunk sizes of the chunk sweep (0: the whole document in one call); empty for none.
    public var chunkSizes: [Int]
    /// The size of the chunk sweep's document, in ``unit``s.
    public var chunkDocumentSize: Int
    /// Instructions are counted (callgrind) at the sizes up to this one, in ``unit``s; 0 for none.
    public var instructionsUpTo: Int

    public init(
        shape: String? = nil, sizes: [Int], chunkSize: Int, chunkSizes: [Int], chunkDocumentSize: Int,
        instructionsUpTo: Int
    ) {
        self.shape = shape
        self.sizes = sizes
        self.chunkSize = chunkSize
        self.chunkSizes = chunkSizes
        self.chunkDocumentSize = chunkDocumentSize
        self.instructionsUpTo = instructionsUpTo
    }

    /// What the parsers build: songs from feeds, or a shaped document's events.
    public var workload: Workload { shape == nil ? .songs : .document }

    /// The unit of ``sizes``: "songs" or "bytes".
    public var unit: String { shape == nil ? "songs" : "bytes" }

    /// What a parse yields one of, for the per-item slopes: "song", or "element" of a document.
    public var item: String { shape == nil ? "song" : "element" }

    /// A size in words: "3000 songs" or "1000000 bytes".
    public func describe(_ size: Int) -> String { "\(size) \(unit)" }
}
