import CReferenceParsers
import SongFeed

/// The reference for the `expat` adapter: the same namespace-aware `XML_Parse` extraction, in plain C.
///
/// Same options and handlers as ``ExpatFeedParser`` (`XML_ParserCreateNS` with U+0001 between URI
/// and local name, parameter entities never parsed, external entities refused, the same hash salt
/// when counts must repeat), fields gathered into C buffers during the parse; ``finish()`` turns
/// them into songs, which the benchmark does after its clocks stop (``finishParsing()`` is the timed
/// end). Its cost against ``ExpatFeedParser``'s is what the Swift binding costs. See ``CReferenceDriver``.
public final class CExpatReferenceParser: SongFeedParser {
    public static let name = "c-expat"
    public static let kind = ParserKind.reference

    public static var summary: String {
        "reference: the expat adapter's XML_Parse extraction in plain C (fields in C buffers, songs made after the clock)"
    }

    private let driver: CReferenceDriver

    public init(onSong: ((Song) -> Void)?) throws {
        driver = try CReferenceDriver(library: REF_LIBRARY_EXPAT, name: Self.name, onSong: onSong)
    }

    public init(songEnded signal: SongEndSignal) throws {
        driver = try CReferenceDriver(library: REF_LIBRARY_EXPAT, name: Self.name, songEnded: signal.ended)
    }

    public func consume(_ chunk: UnsafeRawBufferPointer) throws { try driver.consume(chunk) }

    public func finishParsing() throws -> [Song]? {
        try driver.finishParsing()
        return nil
    }

    public func finish() throws -> [Song] { try driver.finish() }
}
