import SongFeed

/// A push parser that builds `Song` values from an iTunes Store feed.
///
/// One instance parses one document. The caller pushes the document's raw bytes with
/// ``consume(_:)`` in chunks of any size (as they arrive from disk or the network), then calls
/// ``finish()``, which returns every song in document order or throws a ``FeedParseError``.
/// Songs are also handed to the `onSong` closure as each `item` ends, which is how the benchmark
/// measures the time to the first song.
///
/// Every adapter does the same, defined work (see ``SongAssembler``): match `item`, `title`,
/// `category` and the `itms` elements by namespace URI and local name, collect their whole character
/// data as bytes, and make a `String` only when a field ends. A parser that cannot take input in
/// pieces (Foundation's `XMLParser(data:)`) buffers the chunks and parses in ``finish()``.
///
/// For example:
///
/// ```swift
/// let parser = try LibXML2FeedParser(onSong: nil)
/// try bytes.withUnsafeBytes { try parser.consume($0) }
/// let songs = try parser.finish()
/// ```
///
/// Adding a parser is one file with a conforming class plus one line in ``ParserRegistry/all``.
public protocol SongFeedParser: AnyObject {
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

    /// Pushes the next chunk of the document's raw bytes. The bytes are only read during the call.
    ///
    /// - Throws: ``FeedParseError`` as soon as the document is known to be malformed; every later
    ///   call throws the same error.
    func consume(_ chunk: UnsafeRawBufferPointer) throws

    /// Ends the document and returns its songs in document order.
    ///
    /// - Throws: ``FeedParseError`` when the document is malformed or incomplete.
    func finish() throws -> [Song]

    /// Ends the document inside the benchmark's timed region: returns the songs, or `nil` when the
    /// parse is over and its fields wait, outside Swift, to become songs in ``finish()``, which the
    /// benchmark then calls after its clocks have stopped. The default returns ``finish()``.
    func finishParsing() throws -> [Song]?
}

/// What the benchmark gives a parser to learn when each song ends, made once before the clocks start:
/// the moment alone (``ended``), and the same as a song callback (``onSong``) for the parsers that
/// call one anyway.
public final class SongEndSignal: @unchecked Sendable {
    /// Called as each song's item ends.
    public let ended: () -> Void
    /// Calls ``ended``, whatever the song.
    public let onSong: (Song) -> Void

    public init(_ ended: @escaping () -> Void) {
        self.ended = ended
        onSong = { _ in ended() }
    }
}

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

extension SongFeedParser {
    public static var buildsSongs: Bool { true }

    public static var cReference: String? { nil }

    public init(songEnded signal: SongEndSignal) throws {
        try self.init(onSong: signal.onSong)
    }

    public func finishParsing() throws -> [Song]? {
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
        let parser = try Self(onSong: onSong)
        try bytes.withUnsafeBytes { all in try parser.consume(all, inChunksOf: min(chunkSize ?? all.count, all.count)) }
        return try parser.finish()
    }

    /// Pushes `bytes` with ``consume(_:)``, `step` bytes at a time (at least one): the one chunk-push
    /// loop of the suite (a parse from memory, the benchmark's timed parse).
    ///
    /// - Throws: the first ``FeedParseError`` of ``consume(_:)``; the chunks after it are not pushed.
    public func consume(_ bytes: UnsafeRawBufferPointer, inChunksOf step: Int) throws {
        let step = max(1, step)
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + step, bytes.count)
            try consume(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
            offset = end
        }
    }
}

/// The parsers this build knows, by name.
public enum ParserRegistry {
    /// Every parser, in the order reports list them.
    ///
    /// Those that meet the whole contract come first:
    /// when `bench verify` finds two sets of songs shared by as many parsers, the first listed wins.
    public static var all: [any SongFeedParser.Type] {
        [
            LibXML2FeedParser.self,
            ExpatFeedParser.self,
            CLibXML2ReferenceParser.self,
            CExpatReferenceParser.self,
            LibXML2DOMFeedParser.self,
            LibXML2ReaderFeedParser.self,
            FoundationFeedParser.self,
            FoundationStreamFeedParser.self,
            XMLCoderFeedParser.self,
            SWXMLHashFeedParser.self,
            MemchrFloorParser.self,
        ]
    }

    /// The names of ``all``, in order.
    public static var names: [String] { all.map { $0.name } }

    /// The parsers `bench run` measures when none are named, to stay under a minute: the classic
    /// three, the C references that give their binding's cost, and the floor (see docs/parsers.md's table
    /// of parsers for why).
    public static var defaultNames: [String] {
        [
            LibXML2FeedParser.name, ExpatFeedParser.name, CLibXML2ReferenceParser.name, CExpatReferenceParser.name,
            FoundationFeedParser.name, MemchrFloorParser.name,
        ]
    }

    /// The classic study's three parsers: `bench sweep`'s default (a sweep multiplies every parser's
    /// cells by the feed sizes and chunk sizes).
    public static var classicNames: [String] {
        [LibXML2FeedParser.name, ExpatFeedParser.name, FoundationFeedParser.name]
    }

    /// The baseline that parses nothing (see ``NullFeedParser``); not in ``all``.
    public static var baseline: any SongFeedParser.Type { NullFeedParser.self }

    /// The parser called `name` (the baseline included), or `nil`.
    public static func parser(named name: String) -> (any SongFeedParser.Type)? {
        name == baseline.name ? baseline : all.first { $0.name == name }
    }

    /// Whether the parser called `name` builds songs to compare (`false` for the baseline, the
    /// floor, and names this build does not know).
    public static func buildsSongs(_ name: String) -> Bool {
        parser(named: name)?.buildsSongs ?? false
    }

    /// The kind of the parser called `name`, as reports write it; `nil` for names this build does not know.
    public static func kind(of name: String) -> ParserKind? {
        parser(named: name)?.kind
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
