import SongFeed

/// A push parser that builds ``Song`` values from an iTunes Store feed.
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

    /// Makes a parser for one document.
    ///
    /// - Parameter onSong: called with each song as its `item` ends, in document order.
    /// - Throws: ``FeedParseError`` when the underlying parser cannot be created.
    init(onSong: ((Song) -> Void)?) throws

    /// Pushes the next chunk of the document's raw bytes. The bytes are only read during the call.
    ///
    /// - Throws: ``FeedParseError`` as soon as the document is known to be malformed; every later
    ///   call throws the same error.
    func consume(_ chunk: UnsafeRawBufferPointer) throws

    /// Ends the document and returns its songs in document order.
    ///
    /// - Throws: ``FeedParseError`` when the document is malformed or incomplete.
    func finish() throws -> [Song]
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
        try bytes.withUnsafeBytes { all in
            let step = max(1, min(chunkSize ?? all.count, all.count))
            var offset = 0
            while offset < all.count {
                let end = min(offset + step, all.count)
                try parser.consume(UnsafeRawBufferPointer(rebasing: all[offset..<end]))
                offset = end
            }
        }
        return try parser.finish()
    }
}

/// The parsers this build knows, by name.
public enum ParserRegistry {
    /// Every parser, in the order reports list them.
    public static var all: [any SongFeedParser.Type] {
        [
            FoundationFeedParser.self,
            LibXML2FeedParser.self,
            ExpatFeedParser.self,
        ]
    }

    /// The names of ``all``, in order.
    public static var names: [String] { all.map { $0.name } }

    /// The baseline that parses nothing (see ``NullFeedParser``); not in ``all``.
    public static var baseline: any SongFeedParser.Type { NullFeedParser.self }

    /// The parser called `name` (the baseline included), or `nil`.
    public static func parser(named name: String) -> (any SongFeedParser.Type)? {
        name == baseline.name ? baseline : all.first { $0.name == name }
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
