import Foundation
import SongFeed

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The `foundation-stream` adapter: the chunks gathered, then ``FoundationStreamReader`` over the
/// whole document.
public typealias FoundationStreamFeedParser = WholeDocumentParser<FoundationStreamReader>

/// Foundation's `XMLParser(stream:)`: the same event parser reading the document from an
/// `InputStream`, as an app that streams a file or a body would use it.
///
/// The adapter (``WholeDocumentParser``) buffers the bytes, then hands them to `XMLParser` as an
/// `InputStream(data:)`, which it reads and parses a piece at a time (on Linux, through libxml2's
/// push parser), so the 10,000,000-byte limit of `XMLParser(data:)` does not apply. Same delegate,
/// options and checks as ``FoundationReader``, and the same limits of Foundation on Linux
/// (crashes on some DTDs and on invalid UTF-8 in a name): run it on untrusted input in a worker.
///
/// It parses once all bytes are in: `XMLParser` pulls from its stream and blocks until it ends, so
/// feeding it as bytes arrive would need a thread and a bound stream pair; the benchmark measures the
/// parse of a complete body.
public enum FoundationStreamReader: WholeDocumentReader {
    public static func songs(in bytes: Data, onSong: ((Song) -> Void)?) throws -> [Song] {
        try FoundationReader.parse(with: XMLParser(stream: InputStream(data: bytes)), name: name, onSong: onSong)
    }

    // MARK: Identity

    public static let name = "foundation-stream"
    public static let kind = ParserKind.event

    public static var summary: String {
        "Foundation XMLParser(stream:) over an InputStream of the bytes, with namespaces, once all bytes are in"
    }
}
