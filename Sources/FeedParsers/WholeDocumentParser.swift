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
