import Foundation
import SongFeed

/// A parser that needs the whole document at once (Foundation's `XMLParser`, the libxml2 reader and
/// tree, XMLCoder, SWXMLHash), as ``WholeDocumentParser`` drives it: it says its name and kind and
/// parses a complete document; the chunks are gathered for it.
public protocol WholeDocumentReader {
    /// The name users pass to `--parsers`.
    static var name: String { get }

    /// One line for `bench list-parsers` and the reports.
    static var summary: String { get }

    /// What kind of parser it drives.
    static var kind: ParserKind { get }

    /// Whether `bench run` measures it when `--parsers` is not given, once registered. Default: `true`.
    static var inDefaultSet: Bool { get }

    /// The parts of the contract it does not meet (see ``SongFeedParser/contractGaps``). Default: none.
    static var contractGaps: Set<ContractGap> { get }

    /// Parses the complete document, once.
    ///
    /// - Parameters:
    ///   - bytes: the whole document.
    ///   - onSong: called with each song as it is made, before the next one is read where the
    ///     parser allows it.
    /// - Returns: the songs, in document order.
    /// - Throws: ``FeedParseError`` when the document is malformed or holds no feed.
    static func songs(in bytes: Data, onSong: ((Song) -> Void)?) throws -> [Song]
}

extension WholeDocumentReader {
    public static var inDefaultSet: Bool { true }
    public static var contractGaps: Set<ContractGap> { [] }
}
