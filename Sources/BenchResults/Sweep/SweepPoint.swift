/// One parser at one point of a sweep: a document's size (scale sweep) or a chunk size (chunk sweep).
public struct SweepPoint: Codable, Sendable, Equatable {
    /// "scale" or "chunk".
    public var sweep: String
    public var parser: String
    /// The parser's kind (``CellSummary/kind``); `nil` when the run did not record it.
    public var kind: String? = nil
    /// The size asked for, in the plan's unit (``SweepPlan/unit``): songs, or bytes of a shaped document.
    public var size: Int
    /// Songs the parse built (0 in the document workload).
    public var songs: Int
    /// Start tags of the document (the document workload), from its measured shape.
    public var elements: Int? = nil
    public var feedBytes: Int
    /// 0: the whole feed in one call.
    public var chunkSize: Int
    /// The headline parse time (median of the workers' medians), ns, with the next run's interval.
    public var timeNs: Double?
    public var timeLowNs: Double?
    public var timeHighNs: Double?
    public var workers: Int?
    /// The probability that the next run's figure falls in the interval (below 0.95 with fewer
    /// than 10 workers).
    public var timeCoverage: Double?
    /// Feed bytes / time, 10⁶ bytes a second.
    public var megabytesPerSecond: Double?
    /// The parse's own peak (median over the workers), bytes.
    public var parsePeakBytes: Int?
    /// The worker's peak over its whole life, bytes.
    public var workerPeakBytes: Int?
    /// `malloc`-family calls per parse, and the bytes they asked for.
    public var allocations: Double?
    public var allocatedBytes: Double?
    /// Bytes the parse left allocated: its songs (nothing in the document workload: the sink keeps
    /// no events).
    public var keptBytes: Double?
    /// Instructions of one parse (callgrind), when counted at this size.
    public var instructions: Double?
    public var failed: Int
    /// Why the parser has no figure here, or what went wrong (it refused the feed, crashed, disagreed).
    public var outcome: String?

    public init(sweep: String, parser: String, size: Int, songs: Int, feedBytes: Int, chunkSize: Int) {
        self.sweep = sweep
        self.parser = parser
        self.size = size
        self.songs = songs
        self.feedBytes = feedBytes
        self.chunkSize = chunkSize
        self.failed = 0
    }

    /// The parse's peak over the songs' own memory (``keptBytes``); `nil` without songs.
    public var peakOverSongs: Double? {
        guard let peak = parsePeakBytes, let kept = keptBytes, kept > 0 else { return nil }
        return Double(peak) / kept
    }

    /// Whether the parser has figures here (it was timed and did not fail every parse).
    public var measured: Bool { timeNs != nil }
}
