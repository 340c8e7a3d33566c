import SongFeed

/// The baseline: takes the chunks exactly as a parser would and parses nothing.
///
/// Its cell measures what every other cell also pays (the worker process, the feed in memory, the
/// harness's loop over the chunks), so that reports can show each parser's peak memory above it and
/// the harness's own overhead. It builds no songs and is never part of the agreement check.
public final class NullFeedParser: SongFeedParser {
    public static let name = "null"
    public static let summary = "baseline: consumes the chunks, parses nothing (memory and harness overhead)"
    public static let kind = ParserKind.baseline
    public static let buildsSongs = false

    private var bytesSeen = 0
    private var finished = false

    public init(onSong: ((Song) -> Void)?) throws {}

    public func consume(_ chunk: UnsafeRawBufferPointer) throws {
        guard !finished else {
            throw FeedParseError(parser: Self.name, message: "consume(_:) called after finish()", line: 0, column: 0)
        }
        bytesSeen &+= chunk.count
    }

    public func finish() throws -> [Song] {
        guard !finished else {
            throw FeedParseError(parser: Self.name, message: "finish() called twice", line: 0, column: 0)
        }
        finished = true
        return []
    }

    /// The number of bytes consumed (keeps the loop over the chunks observable).
    public var consumedBytes: Int { bytesSeen }
}

/// The baseline of the document workload too: the chunks taken, nothing parsed.
extension NullFeedParser: DocumentParser {
    public static var reportsEvents: Bool { false }

    public convenience init(sink: DocumentSink) throws {
        try self.init(onSong: nil)
    }

    public func finishDocument() throws { _ = try finish() }
}
