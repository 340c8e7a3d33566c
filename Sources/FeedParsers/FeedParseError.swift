/// Why a parser rejected a document: which parser, what it said, and where.
///
/// Lines and columns count from 1, as people and editors count them (expat's 0-based columns are
/// converted). A position of 0 means the parser gave none.
public struct FeedParseError: Error, Hashable, Codable, Sendable, CustomStringConvertible {
    /// The name of the parser that failed (``SongFeedParser/name``).
    public var parser: String
    /// The parser's own message, one line.
    public var message: String
    /// The line of the error, from 1; 0 when unknown.
    public var line: Int
    /// The column of the error, from 1; 0 when unknown.
    public var column: Int
    /// The library's own error code, when it has one (libxml2's `xmlParserErrors`, expat's `XML_Error`).
    public var code: Int?
    /// `true` when the XML itself was read without an error but does not have a feed's shape (a
    /// decoder's missing key): the library accepted the document as XML.
    public var notAFeed: Bool?

    public init(parser: String, message: String, line: Int, column: Int, code: Int? = nil, notAFeed: Bool? = nil) {
        self.parser = parser
        self.message = message
        self.line = line
        self.column = column
        self.code = code
        self.notAFeed = notAFeed
    }

    /// "expat: no element found (line 295, column 14)"; without a position when the parser gave
    /// none (never "line 0, column 0").
    public var description: String {
        "\(parser): \(message)" + position
    }

    /// " (line 295, column 14)", " (line 3)", or nothing when the position is unknown.
    package var position: String {
        guard line > 0 else { return "" }
        return column > 0 ? " (line \(line), column \(column))" : " (line \(line))"
    }
}
