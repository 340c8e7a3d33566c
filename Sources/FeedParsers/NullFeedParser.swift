import SongFeed

/// The baseline: takes the chunks exactly as a parser would and parses nothing.
///
/// Its cell measures what every other cell also pays (the worker process, the feed in memory, the
/// harness's loop over the chunks), so that reports can show each parser's peak memory above it and
/// the harness's own overhead. It builds no songs and is never part of the agreement check.
///
/// A struct: its parse allocates nothing of its own (a class's instance would be one allocation per
/// parse, which every other parser's count would seem to carry), and it shows that the protocols
/// take a value as well as a class.
package struct NullFeedParser: SongFeedParser {
    package static let name = "null"
    package static let summary = "baseline: consumes the chunks, parses nothing (memory and harness overhead)"
    package static let kind = ParserKind.baseline
    package static let buildsSongs = false

    private var bytesSeen = 0
    private var finished = false

    package init(onSong: ((Song) -> Void)?) throws {}

    package mutating func consume(_ chunk: UnsafeRawBufferPointer) throws {
        guard !finished else {
            throw FeedParseError(parser: Self.name, message: "consume(_:) called after finish()", line: 0, column: 0)
        }
        bytesSeen &+= chunk.count
    }

    package mutating func finish() throws -> [Song] {
        guard !finished else {
            throw FeedParseError(parser: Self.name, message: "finish() called twice", line: 0, column: 0)
        }
        finished = true
        return []
    }

    /// The number of bytes consumed (keeps the loop over the chunks observable).
    package var consumedBytes: Int { bytesSeen }
}

/// The baseline of the document workload too: the chunks taken, nothing parsed.
extension NullFeedParser: DocumentParser {
    package static var reportsEvents: Bool { false }

    package init(sink: DocumentSink) throws {
        try self.init(onSong: nil)
    }

    package mutating func finishDocument() throws { _ = try finish() }
}
