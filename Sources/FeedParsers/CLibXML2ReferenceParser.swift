import CReferenceParsers
import SongFeed

/// The reference for the `libxml2` adapter: the same SAX2 push parse and extraction, in plain C.
///
/// Same handler and options as ``LibXML2FeedParser`` (namespaces, `XML_PARSE_NONET`, no external
/// subset or entity loaded, the internal DTD's entities kept), fields gathered into C buffers during
/// the parse; ``finish()`` turns them into songs, which the benchmark does after its clocks stop
/// (``finishParsing()`` is the timed end). Its cost against ``LibXML2FeedParser``'s is what the
/// Swift binding costs. See ``CReferenceDriver``.
public final class CLibXML2ReferenceParser: SongFeedParser {
    public static let name = "c-libxml2"
    public static let kind = ParserKind.reference

    public static var summary: String {
        "reference: the libxml2 adapter's SAX2 push extraction in plain C (fields in C buffers, songs made after the clock)"
    }

    private let driver: CReferenceDriver

    public init(onSong: ((Song) -> Void)?) throws {
        driver = try CReferenceDriver(library: REF_LIBRARY_LIBXML2, name: Self.name, onSong: onSong)
    }

    public init(songEnded signal: SongEndSignal) throws {
        driver = try CReferenceDriver(library: REF_LIBRARY_LIBXML2, name: Self.name, songEnded: signal.ended)
    }

    public func consume(_ chunk: UnsafeRawBufferPointer) throws { try driver.consume(chunk) }

    public func finishParsing() throws -> [Song]? {
        try driver.finishParsing()
        return nil
    }

    public func finish() throws -> [Song] { try driver.finish() }
}
