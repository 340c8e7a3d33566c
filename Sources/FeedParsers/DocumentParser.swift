/// A parser that walks a whole document into a ``DocumentSink``: the document workload.
///
/// One instance parses one document, pushed with ``ChunkConsumer/consume(_:)`` in chunks of any size and ended
/// with ``finishDocument()``. Push parsers report events as the bytes come; a tree parser walks its
/// tree and a pull parser pulls its nodes once the document is complete. Every parser reports the
/// same events for the same document: the events the W3C's canonical form is written from.
///
/// A parser takes the document workload by conforming (the song adapter itself, or its whole-document
/// reader as a ``WholeDocumentWalker``), which puts it among the registry's document parsers (the
/// document workload, `bench conformance`); one that cannot (a `Codable` decoder needs types declared
/// for the document) is listed as not applicable, with the reason.
public protocol DocumentParser: ChunkConsumer {
    /// The parser's name, the same as its song adapter's ("libxml2").
    static var name: String { get }

    /// Whether it reports events (`false` for the `null` baseline and the `memchr` floor, which only
    /// touch the bytes). Default: `true`.
    static var reportsEvents: Bool { get }

    /// Makes a parser for one document that reports to `sink` (which the caller has reset).
    ///
    /// - Throws: ``FeedParseError`` when the underlying parser cannot be created.
    init(sink: DocumentSink) throws

    /// Ends the document: every event is in the sink, its pending text too.
    ///
    /// - Throws: ``FeedParseError`` when the document is malformed or incomplete.
    mutating func finishDocument() throws

    /// Readies `sink` for this parser's parses of `bytes`, before any clock starts (the `sink`
    /// baseline records the events it replays). Default: nothing.
    ///
    /// - Throws: ``FeedParseError``.
    static func prepare(_ sink: DocumentSink, for bytes: [UInt8]) throws
}

extension DocumentParser {
    public static var reportsEvents: Bool { true }

    public static func prepare(_ sink: DocumentSink, for bytes: [UInt8]) throws {}

    /// Walks a whole document held in memory into `sink` (reset first to `mode`, recording if asked
    /// of the canonical sink), pushing it `chunkSize` bytes at a time (`nil`: in one push).
    ///
    /// - Throws: ``FeedParseError``.
    package static func walk(
        _ bytes: [UInt8], chunkSize: Int? = nil, into sink: DocumentSink, recording: Bool = false,
        mode: DocumentSink.Mode = .canonical
    ) throws {
        if mode == .canonical { sink.reset(recording: recording) } else { sink.reset(mode: mode) }
        var parser = try Self(sink: sink)
        try bytes.withUnsafeBytes { all in
            try parser.consume(all, inChunksOf: min(chunkSize ?? all.count, all.count))
        }
        try parser.finishDocument()
    }
}
