import CReferenceParsers
import SongFeed

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
    public static var contractGaps: Set<ContractGap> { Library.contractGaps }

    private let driver: CReferenceDriver

    private init(driver: CReferenceDriver) {
        self.driver = driver
    }

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

/// The document workload in plain C: the same walk as the adapter's, over the same library, into
/// the same ``DocumentSink``; its cost against the adapter's is the binding's for documents.
extension CReferenceParser: DocumentParser {
    public convenience init(sink: DocumentSink) throws {
        self.init(driver: try CReferenceDriver(library: Library.library, name: Library.name, sink: sink))
    }

    public func finishDocument() throws { try driver.finishDocument() }
}

/// `c-libxml2`, the reference of ``LibXML2FeedParser``.
public typealias CLibXML2ReferenceParser = CReferenceParser<LibXML2Reference>

/// `c-expat`, the reference of ``ExpatFeedParser``.
public typealias CExpatReferenceParser = CReferenceParser<ExpatReference>
