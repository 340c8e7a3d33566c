import SongFeed

/// A push parser that builds `Song` values from an iTunes Store feed.
///
/// One instance parses one document. The caller pushes the document's raw bytes with
/// ``ChunkConsumer/consume(_:)`` in chunks of any size (as they arrive from disk or the network), then calls
/// ``finish()``, which returns every song in document order or throws a ``FeedParseError``.
/// Songs are also handed to the `onSong` closure as each `item` ends, which is how the benchmark
/// measures the time to the first song.
///
/// Every adapter does the same, defined work (the suite's adapters share its song assembler): match `item`, `title`,
/// `category` and the `itms` elements by namespace URI and local name, collect their whole character
/// data as bytes, and make a `String` only when a field ends. A parser that cannot take input in
/// pieces (Foundation's `XMLParser(data:)`) buffers the chunks and parses in ``finish()``.
///
/// For example:
///
/// ```swift
/// var parser = try MyFeedParser(onSong: nil)
/// try bytes.withUnsafeBytes { try parser.consume($0) }
/// let songs = try parser.finish()
/// ```
///
/// A package of its own registers its adapters with `BenchTool.main(parsers:)` (BenchCLI); inside
/// the suite, an adapter is one file with a conforming class plus one line in the registry's
/// built-in list.
public protocol SongFeedParser: ChunkConsumer {
    /// The name of the parser in the registry, on the command line and in errors ("libxml2").
    static var name: String { get }

    /// One line about what the adapter drives and how ("libxml2 2.9.14 SAX2 push parser").
    static var summary: String { get }

    /// What kind of parser it is, as every report shows it.
    static var kind: ParserKind { get }

    /// Whether it builds songs that must agree with the other parsers' (`false` for the `null`
    /// baseline and the `memchr` floor, which only touch the bytes). Default: `true`.
    static var buildsSongs: Bool { get }

    /// The parser that does this adapter's extraction in plain C over the same library (`c-libxml2`
    /// for `libxml2`), whose cost against this one's is the Swift binding's; `nil` when there is none.
    static var cReference: String? { get }

    /// Whether `bench run` measures it when `--parsers` is not given, once registered.
    ///
    /// Default: `true`: a registered parser is measured beside the built-in ones unless its author
    /// says `false`; `--parsers` names it either way, and `bench verify` checks every parser. (The
    /// built-in parsers' default set is the registry's own.)
    static var inDefaultSet: Bool { get }

    /// The parts of the contract it does not meet, and on which inputs (``ContractGap``): on those,
    /// its answer confirms no other parser's. Default: none.
    static var contractGaps: Set<ContractGap> { get }

    /// Whether instances may parse on several threads at once (the `concurrent` scenario runs only
    /// those that may). Default: ``ParserConcurrency/independentInstances``.
    static var concurrency: ParserConcurrency { get }

    /// Makes a parser for one document.
    ///
    /// - Parameter onSong: called with each song as its `item` ends, in document order.
    /// - Throws: ``FeedParseError`` when the underlying parser cannot be created.
    init(onSong: ((Song) -> Void)?) throws

    /// Makes a parser for one document that reports only *when* each song ends: the benchmark's
    /// first-song clock, which needs no `Song`. The default calls ``init(onSong:)`` with the
    /// signal's ready-made closure (nothing allocated here, inside the timed region); a parser that
    /// builds its songs only after the parse (the C references) signals the moment without one.
    init(songEnded signal: SongEndSignal) throws

    /// Ends the document and returns its songs in document order.
    ///
    /// - Throws: ``FeedParseError`` when the document is malformed or incomplete.
    mutating func finish() throws -> [Song]

    /// Ends the document inside the benchmark's timed region: returns the songs, or `nil` when the
    /// parse is over and its fields wait, outside Swift, to become songs in ``finish()``, which the
    /// benchmark then calls after its clocks have stopped. The default returns ``finish()``.
    mutating func finishParsing() throws -> [Song]?
}

extension SongFeedParser {
    public static var buildsSongs: Bool { true }

    public static var cReference: String? { nil }

    public static var inDefaultSet: Bool { true }

    public static var contractGaps: Set<ContractGap> { [] }

    public static var concurrency: ParserConcurrency { .independentInstances }

    /// Whether it meets the whole contract on `document`: no gap of its applies there.
    package static func meetsContract(on document: [UInt8]) -> Bool {
        !contractGaps.contains { $0.applies(to: document) }
    }

    public init(songEnded signal: SongEndSignal) throws {
        try self.init(onSong: signal.onSong)
    }

    public mutating func finishParsing() throws -> [Song]? {
        try finish()
    }
}

extension SongFeedParser {
    /// Parses a whole document held in memory, pushing it `chunkSize` bytes at a time.
    ///
    /// - Parameters:
    ///   - bytes: the document.
    ///   - chunkSize: the size of each pushed chunk; `nil` or a value of at least the document's size
    ///     pushes the document in one call.
    ///   - onSong: called with each song as it completes.
    /// - Returns: the songs, in document order.
    /// - Throws: ``FeedParseError``.
    public static func parse(
        _ bytes: [UInt8], chunkSize: Int? = nil, onSong: ((Song) -> Void)? = nil
    ) throws -> [Song] {
        var parser = try Self(onSong: onSong)
        try bytes.withUnsafeBytes { all in try parser.consume(all, inChunksOf: min(chunkSize ?? all.count, all.count)) }
        return try parser.finish()
    }
}

/// What takes a document's bytes in chunks: a song parser or a document parser.
///
/// A class or a value: the requirements are `mutating`, so a struct conforms as well as a class
/// (whose methods satisfy them as they are). A value parser is used through a `var` and never
/// copied in the middle of a parse: a copy would carry on from the state it was copied in.
public protocol ChunkConsumer {
    /// Pushes the next chunk of the document's raw bytes. The bytes are only read during the call.
    ///
    /// - Throws: ``FeedParseError`` as soon as the document is known to be malformed; every later
    ///   call throws the same error.
    mutating func consume(_ chunk: UnsafeRawBufferPointer) throws
}

extension ChunkConsumer {
    /// Pushes `bytes` with ``ChunkConsumer/consume(_:)``, `step` bytes at a time (at least one): the one chunk-push
    /// loop of the suite (a parse from memory, the benchmark's timed parse).
    ///
    /// - Throws: the first ``FeedParseError`` of ``ChunkConsumer/consume(_:)``; the chunks after it are not pushed.
    package mutating func consume(_ bytes: UnsafeRawBufferPointer, inChunksOf step: Int) throws {
        let step = max(1, step)
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + step, bytes.count)
            try consume(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
            offset = end
        }
    }
}

/// Calls `body` with `chunk` in pieces that a C parser taking an `Int32` length accepts
/// (`xmlParseChunk`, `XML_Parse`); nothing for an empty chunk.
func forEachCPiece(
    of chunk: UnsafeRawBufferPointer, _ body: (UnsafePointer<CChar>, Int32) throws -> Void
) rethrows {
    guard let base = chunk.baseAddress else { return }
    var offset = 0
    while offset < chunk.count {
        let count = min(chunk.count - offset, Int(Int32.max))
        try body((base + offset).assumingMemoryBound(to: CChar.self), Int32(count))
        offset += count
    }
}

/// Whether a parser's instances may parse on several threads at once, as an app that parses feeds
/// on an operation queue would use them.
public enum ParserConcurrency: Sendable, Equatable {
    /// Each instance keeps its own state; what the library shares process-wide is set up once,
    /// before any thread parses (the worker parses once on one thread first: for libxml2, that is
    /// `xmlInitParser`), or is per thread. The `concurrent` scenario runs it on N threads at once.
    case independentInstances
    /// It must not parse on two threads at once, for `reason` (process-wide state it changes while
    /// parsing): the `concurrent` scenario does not run it and says why.
    case oneThreadAtATime(reason: String)
}
