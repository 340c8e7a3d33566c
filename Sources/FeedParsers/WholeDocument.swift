import Foundation
import SongFeed

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
