import CReferenceParsers
import SongFeed

/// A library whose adapter has a plain-C reference: its extraction, done in C (see ``CReferenceParser``).
public protocol CReferenceLibrary: Sendable {
    /// The reference parser's name ("c-libxml2").
    static var name: String { get }
    /// One line about it.
    static var summary: String { get }
    /// The library, as the C target `CReferenceParsers` names it.
    static var library: RefLibrary { get }
}

/// The reference of an adapter: the same parse and extraction over the same library, in plain C.
///
/// The C code uses the adapter's options and handlers and gathers the fields into C buffers during
/// the parse; ``finish()`` turns them into songs, which the benchmark does after its clocks stop
/// (``finishParsing()`` is the timed end). Its cost against the adapter's is what the Swift binding
/// costs. One class for every library; see `CReferenceDriver`.
public final class CReferenceParser<Library: CReferenceLibrary>: SongFeedParser {
    public static var name: String { Library.name }
    public static var kind: ParserKind { .reference }
    public static var summary: String { Library.summary }

    private let driver: CReferenceDriver

    public init(onSong: ((Song) -> Void)?) throws {
        driver = try CReferenceDriver(library: Library.library, name: Library.name, onSong: onSong)
    }

    public init(songEnded signal: SongEndSignal) throws {
        driver = try CReferenceDriver(library: Library.library, name: Library.name, songEnded: signal.ended)
    }

    public func consume(_ chunk: UnsafeRawBufferPointer) throws { try driver.consume(chunk) }

    public func finishParsing() throws -> [Song]? {
        try driver.finishParsing()
        return nil
    }

    public func finish() throws -> [Song] { try driver.finish() }
}

/// libxml2: the `libxml2` adapter's SAX2 push parse (namespaces, `XML_PARSE_NONET`, no external
/// subset or entity loaded, the internal DTD's entities kept) in plain C.
public enum LibXML2Reference: CReferenceLibrary {
    public static let name = "c-libxml2"
    public static let library = REF_LIBRARY_LIBXML2
    public static var summary: String {
        "reference: the libxml2 adapter's SAX2 push extraction in plain C (fields in C buffers, songs made after the clock)"
    }
}

/// expat: the `expat` adapter's namespace-aware `XML_Parse` (`XML_ParserCreateNS` with U+0001 between
/// URI and local name, parameter entities never parsed, external entities refused, the same hash
/// salt when counts must repeat) in plain C.
public enum ExpatReference: CReferenceLibrary {
    public static let name = "c-expat"
    public static let library = REF_LIBRARY_EXPAT
    public static var summary: String {
        "reference: the expat adapter's XML_Parse extraction in plain C (fields in C buffers, songs made after the clock)"
    }
}

/// `c-libxml2`, the reference of ``LibXML2FeedParser``.
public typealias CLibXML2ReferenceParser = CReferenceParser<LibXML2Reference>
/// `c-expat`, the reference of ``ExpatFeedParser``.
public typealias CExpatReferenceParser = CReferenceParser<ExpatReference>
