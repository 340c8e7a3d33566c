import Foundation
import SongFeed

/// The adapter over a ``WholeDocumentReader``: the chunks gathered in one buffer, the document parsed
/// once by ``finish()``, its error kept and thrown again by every later call, and misuse (a chunk
/// after the end, a second end) reported as an error.
///
/// Each whole-document parser is this class over its reader, such as
/// `XMLCoderFeedParser = WholeDocumentParser<XMLCoderReader>`; a reader implements only its parse of
/// the bytes.
public final class WholeDocumentParser<Reader: WholeDocumentReader>: SongFeedParser {
    public static var name: String { Reader.name }
    public static var summary: String { Reader.summary }
    public static var kind: ParserKind { Reader.kind }
    public static var inDefaultSet: Bool { Reader.inDefaultSet }
    public static var contractGaps: Set<ContractGap> { Reader.contractGaps }

    private let onSong: ((Song) -> Void)?
    /// The document workload's sink (``WholeDocumentWalker``); `nil` for songs.
    let sink: DocumentSink?
    /// The document so far.
    private var bytes = Data()
    private var error: FeedParseError?
    private var finished = false

    public convenience init(onSong: ((Song) -> Void)?) throws {
        self.init(onSong: onSong, sink: nil)
    }

    init(onSong: ((Song) -> Void)?, sink: DocumentSink?) {
        self.onSong = onSong
        self.sink = sink
    }

    /// Adds the chunk to the document.
    public func consume(_ chunk: UnsafeRawBufferPointer) throws {
        if let error { throw error }
        guard !finished else { throw misuse("consume(_:) called after finish()") }
        bytes.append(contentsOf: chunk)
    }

    /// Parses the document gathered so far, once; a ``FeedParseError`` it throws is kept.
    public func finish() throws -> [Song] {
        try finishOnce { try Reader.songs(in: $0, onSong: onSong) }
    }

    /// Runs `parse` over the document, once; a ``FeedParseError`` it throws is kept.
    func finishOnce<Result>(_ parse: (Data) throws -> Result) throws -> Result {
        if let error { throw error }
        guard !finished else { throw misuse("finish() called twice") }
        finished = true
        do {
            return try parse(bytes)
        } catch let failure as FeedParseError {
            error = failure
            throw failure
        }
    }

    private func misuse(_ message: String) -> FeedParseError {
        FeedParseError(parser: Reader.name, message: message, line: 0, column: 0)
    }
}

/// A parser that gathers every chunk into one buffer and parses the document once it is complete
/// (every ``WholeDocumentParser``): the sizes of the chunks it is pushed change only the gathering.
package protocol GathersWholeDocument {}

extension WholeDocumentParser: GathersWholeDocument {}
