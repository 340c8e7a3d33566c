import Foundation

/// A ``WholeDocumentReader`` that also walks a whole document into a ``DocumentSink`` (the document
/// workload): its ``WholeDocumentParser`` is then a ``DocumentParser`` too.
public protocol WholeDocumentWalker: WholeDocumentReader {
    /// Reports the complete document's events to `sink` (reset by the caller), once.
    ///
    /// - Throws: ``FeedParseError`` when the document is malformed.
    static func walk(_ bytes: Data, into sink: DocumentSink) throws
}

extension WholeDocumentParser: DocumentParser where Reader: WholeDocumentWalker {
    public convenience init(sink: DocumentSink) throws {
        self.init(onSong: nil, sink: sink)
    }

    /// Walks the document gathered so far, once; a ``FeedParseError`` it throws is kept.
    public func finishDocument() throws {
        try finishOnce { bytes in
            guard let sink else { return }
            try Reader.walk(bytes, into: sink)
            try sink.finish(parser: Reader.name)
        }
    }
}
