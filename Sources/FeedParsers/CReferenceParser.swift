import CReferenceParsers
import SongFeed

/// The reference of an adapter: the same parse and extraction over the same library, in plain C.
///
/// The C code uses the adapter's options and handlers and gathers the fields into C buffers during
/// the parse; ``finish()`` turns them into songs, which the benchmark does after its clocks stop
/// (``finishParsing()`` is the timed end). Its cost against the adapter's is what the Swift binding
/// costs. One class for every library; see `CReferenceDriver`.
package final class CReferenceParser<Library: CReferenceLibrary>: SongFeedParser {
    package static var name: String { Library.name }
    package static var kind: ParserKind { .reference }
    package static var summary: String { Library.summary }
    package static var contractGaps: Set<ContractGap> { Library.contractGaps }

    private let driver: CReferenceDriver

    private init(driver: CReferenceDriver) {
        self.driver = driver
    }

    package init(onSong: ((Song) -> Void)?) throws {
        driver = try CReferenceDriver(library: Library.library, name: Library.name, onSong: onSong)
    }

    package init(songEnded signal: SongEndSignal) throws {
        driver = try CReferenceDriver(library: Library.library, name: Library.name, songEnded: signal.ended)
    }

    package func consume(_ chunk: UnsafeRawBufferPointer) throws { try driver.consume(chunk) }

    package func finishParsing() throws -> [Song]? {
        try driver.finishParsing()
        return nil
    }

    package func finish() throws -> [Song] { try driver.finish() }
}

/// The document workload in plain C: the same walk as the adapter's, over the same library, into
/// the same ``DocumentSink``; its cost against the adapter's is the binding's for documents.
extension CReferenceParser: DocumentParser {
    package convenience init(sink: DocumentSink) throws {
        self.init(driver: try CReferenceDriver(library: Library.library, name: Library.name, sink: sink))
    }

    package func finishDocument() throws { try driver.finishDocument() }
}

/// `c-libxml2`, the reference of ``LibXML2FeedParser``.
package typealias CLibXML2ReferenceParser = CReferenceParser<LibXML2Reference>

/// `c-expat`, the reference of ``ExpatFeedParser``.
package typealias CExpatReferenceParser = CReferenceParser<ExpatReference>
