import FeedParsers
import SongFeed
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The app's feed parsing, as an app writes it: an `XMLParser` delegate that keeps each item's
/// fields in a dictionary of `String`s, then makes a song of each item.
final class FeedItemsDelegate: NSObject, XMLParserDelegate {
    static let itms = "http://phobos.apple.com/rss/1.0/modules/itms/"

    /// Every item's fields, by element name ("title", "itms:artist").
    private(set) var items: [[String: String]] = []
    private var item: [String: String]?
    private var field: String?
    private var text = ""
    private var depth = 0
    private var itemDepth = 0

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        depth += 1
        if item == nil, elementName == "item", namespaceURI?.isEmpty ?? true {
            item = [:]
            itemDepth = depth
        } else if item != nil, field == nil, depth == itemDepth + 1 {
            let key = namespaceURI == Self.itms ? "itms:" + elementName : elementName
            if ["title", "category", "itms:artist", "itms:album", "itms:releasedate"].contains(key) {
                field = key
                text = ""
            }
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if field != nil { text += string }
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        if field != nil { text += String(decoding: CDATABlock, as: UTF8.self) }
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
    ) {
        if let field, depth == itemDepth + 1 {
            item?[field] = text
            self.field = nil
        } else if let item, depth == itemDepth {
            items.append(item)
            self.item = nil
        }
        depth -= 1
    }
}

/// The app's parser as the suite measures it: the whole document to `XMLParser`, the delegate's
/// dictionaries to songs (the suite's `Song`, its date read by the suite's one rule).
public enum AppFeedReader: WholeDocumentReader {
    public static let name = "app-xmlparser"
    public static let summary = "the app's own XMLParser delegate: a dictionary of Strings per item, then songs"
    public static let kind = ParserKind.event

    public static func songs(in bytes: Data, onSong: ((Song) -> Void)?) throws -> [Song] {
        let parser = XMLParser(data: bytes)
        parser.shouldProcessNamespaces = true
        let delegate = FeedItemsDelegate()
        parser.delegate = delegate
        let parsed = parser.parse()
        if !parsed || parser.parserError != nil {
            let error = parser.parserError.map { "\($0.localizedDescription)" } ?? "the document is not well-formed"
            throw FeedParseError(
                parser: name, message: error, line: parser.lineNumber, column: parser.columnNumber)
        }
        return try delegate.items.enumerated().map { index, item in
            let song = try SongAssembler.song(
                title: item["title"] ?? "", category: item["category"] ?? "", artist: item["itms:artist"] ?? "",
                album: item["itms:album"] ?? "", releaseDate: item["itms:releasedate"], item: index + 1,
                parser: name)
            onSong?(song)
            return song
        }
    }
}

/// What the app registers with the suite.
public typealias AppFeedParser = WholeDocumentParser<AppFeedReader>
