import Foundation
import SongFeed

/// An adapter over a parser that needs the whole document at once (Foundation's `XMLParser`, the
/// libxml2 reader and tree, XMLCoder, SWXMLHash): it implements only ``parseWholeDocument(_:)``;
/// ``SongFeedParser/consume(_:)`` and ``SongFeedParser/finish()`` gather the chunks and parse once (see ``WholeDocument``).
public protocol WholeDocumentParser: SongFeedParser {
    /// The chunks so far and the parse's outcome; start it as `WholeDocument(parser: Self.name)`.
    var document: WholeDocument { get set }

    /// Parses the complete document, once, and returns its songs.
    ///
    /// - Throws: ``FeedParseError`` when the document is malformed or holds no feed.
    func parseWholeDocument(_ bytes: Data) throws -> [Song]
}

extension WholeDocumentParser {
    /// Adds the chunk to the document.
    public func consume(_ chunk: UnsafeRawBufferPointer) throws {
        try document.append(chunk)
    }

    /// Parses the document gathered so far with ``parseWholeDocument(_:)``.
    public func finish() throws -> [Song] {
        try document.finish { try parseWholeDocument($0) }
    }
}

/// What the adapters that parse once the document is complete share: the chunks gathered in one
/// buffer, the parse run once by its `finish(_:)`, its error kept and thrown again by every later
/// call, and misuse (a chunk after the end, a second end) reported as an error.
public struct WholeDocument: Sendable {
    /// The parser's name, for its errors.
    let parser: String
    /// The document so far.
    private(set) var bytes = Data()
    private var error: FeedParseError?
    private var finished = false

    public init(parser: String) {
        self.parser = parser
    }

    /// Adds a chunk.
    mutating func append(_ chunk: UnsafeRawBufferPointer) throws {
        if let error { throw error }
        guard !finished else { throw misuse("consume(_:) called after finish()") }
        bytes.append(contentsOf: chunk)
    }

    /// Ends the document and parses it with `parse`, once; a ``FeedParseError`` it throws is kept.
    mutating func finish(_ parse: (Data) throws -> [Song]) throws -> [Song] {
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
        FeedParseError(parser: parser, message: message, line: 0, column: 0)
    }
}
