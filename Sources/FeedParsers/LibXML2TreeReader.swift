import CLibXML2
import Foundation
import SongFeed

/// The `libxml2-dom` adapter: the chunks gathered, then ``LibXML2TreeReader`` over the whole document.
public typealias LibXML2DOMFeedParser = WholeDocumentParser<LibXML2TreeReader>

/// libxml2's tree: the whole document parsed into an `xmlDoc` (`xmlCtxtReadMemory`), then the songs
/// found with XPath, as the libxml2 tree wrappers (Fuzi, Kanna) do.
///
/// The adapter (``WholeDocumentParser``) buffers the chunks; then they are parsed with `XML_PARSE_NONET` (no entity
/// substitution: nothing external is loaded; internal entities stay reference nodes, whose text
/// `xmlNodeGetContent` includes), then evaluates `//item[not(ancestor::item)]` and, for each item,
/// `title[last()]`, `category[last()]` and `itms:artist[last()]`, `itms:album[last()]`,
/// `itms:releasedate[last()]` with the prefix `itms` bound to the itms namespace URI (so elements
/// match by URI and local name, whatever prefix the document uses). The expressions are compiled
/// once per parse. A field's text is `xmlNodeGetContent` (all the text inside it).
///
/// Errors: the parse context's last error (libxml2 stops at the first fatal one), never printed.
/// What differs from the contract: it parses once all bytes are in, and holds the whole tree.
public enum LibXML2TreeReader: WholeDocumentReader {
    public static func songs(in bytes: Data, onSong: ((Song) -> Void)?) throws -> [Song] {
        guard bytes.count <= Int(Int32.max) else { throw failure("documents over 2 GiB are not supported") }
        guard let context = xmlNewParserCtxt() else { throw failure("xmlNewParserCtxt failed") }
        defer { xmlFreeParserCtxt(context) }
        let document = try tree(of: bytes, context)
        defer { xmlFreeDoc(document) }
        guard let xpath = xmlXPathNewContext(document) else { throw failure("xmlXPathNewContext failed") }
        defer { xmlXPathFreeContext(xpath) }
        guard xmlXPathRegisterNs(xpath, "itms", FeedElement.itmsNamespace.utf8Start) == 0 else {
            throw failure("xmlXPathRegisterNs failed")
        }
        return try songs(of: xpath, onSong: onSong)
    }

    /// The document's tree (the caller frees it); an error when it is not namespace-well-formed.
    static func tree(of bytes: Data, _ context: xmlParserCtxtPtr, defaultAttributes: Bool = false) throws -> xmlDocPtr {
        var options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        if defaultAttributes { options |= Int32(XML_PARSE_DTDATTR.rawValue) }
        let parsed = bytes.withUnsafeBytes { raw in
            raw.baseAddress.flatMap { base in
                xmlCtxtReadMemory(
                    context, base.assumingMemoryBound(to: CChar.self), Int32(raw.count), nil, nil, options)
            }
        }
        // A namespace error (an unbound prefix) leaves `wellFormed` set; it is still an error.
        guard let document = parsed, context.pointee.wellFormed != 0, context.pointee.nsWellFormed != 0 else {
            if let document = parsed { xmlFreeDoc(document) }
            throw lastError(context)
        }
        return document
    }

    /// The songs of the items the XPath context's document holds, each field the last of its name.
    private static func songs(of xpath: xmlXPathContextPtr, onSong: ((Song) -> Void)?) throws -> [Song] {
        let expressions = [
            "//item[not(ancestor::item)]", "title[last()]", "category[last()]", "itms:artist[last()]",
            "itms:album[last()]",
            "itms:releasedate[last()]",
        ].map { (pattern: String) in
            pattern.withCString {
                $0.withMemoryRebound(to: xmlChar.self, capacity: pattern.utf8.count + 1, xmlXPathCompile)
            }
        }
        defer { for expression in expressions { xmlXPathFreeCompExpr(expression) } }
        guard expressions.allSatisfy({ $0 != nil }) else { throw failure("xmlXPathCompile failed") }

        guard let found = xmlXPathCompiledEval(expressions[0], xpath) else { throw failure("XPath evaluation failed") }
        defer { xmlXPathFreeObject(found) }
        let items = Self.nodes(found)
        var songs: [Song] = []
        songs.reserveCapacity(items.count)
        /// The text of the first node `expressions[index]` finds from the current item, if any.
        func text(_ index: Int) throws -> String? {
            guard let result = xmlXPathCompiledEval(expressions[index], xpath) else {
                throw failure("XPath evaluation failed")
            }
            defer { xmlXPathFreeObject(result) }
            return Self.firstNode(result).map(Self.content)
        }
        for item in items {
            xpath.pointee.node = item
            let song = try SongAssembler.song(
                title: try text(1), category: try text(2), artist: try text(3), album: try text(4),
                releaseDate: try text(5), item: songs.count + 1, parser: Self.name)
            songs.append(song)
            onSong?(song)
        }
        return songs
    }

    /// The nodes of an XPath result, in document order.
    private static func nodes(_ result: xmlXPathObjectPtr) -> [xmlNodePtr] {
        guard let set = result.pointee.nodesetval, set.pointee.nodeNr > 0, let table = set.pointee.nodeTab else {
            return []
        }
        return (0..<Int(set.pointee.nodeNr)).compactMap { table[$0] }
    }

    /// The first node of an XPath result, in document order.
    private static func firstNode(_ result: xmlXPathObjectPtr) -> xmlNodePtr? {
        guard let set = result.pointee.nodesetval, set.pointee.nodeNr > 0 else { return nil }
        return set.pointee.nodeTab?[0]
    }

    /// All the text inside a node.
    private static func content(_ node: xmlNodePtr) -> String {
        guard let text = xmlNodeGetContent(node) else { return "" }
        defer { CLibXML2_free(text) }
        return String(cString: text)
    }

    private static func lastError(_ context: xmlParserCtxtPtr) -> FeedParseError {
        guard let error = xmlCtxtGetLastError(context) else { return failure("the document is not well-formed") }
        let raw = error.pointee.message.map { String(cString: $0) } ?? "error \(error.pointee.code)"
        return FeedParseError(
            parser: Self.name, message: raw.split(whereSeparator: \.isNewline).joined(separator: "; "),
            line: Int(error.pointee.line), column: Int(error.pointee.int2), code: Int(error.pointee.code))
    }

    static func failure(_ message: String) -> FeedParseError {
        FeedParseError(parser: Self.name, message: message, line: 0, column: 0)
    }

    // MARK: Identity

    public static let name = "libxml2-dom"
    public static let kind = ParserKind.tree

    public static var summary: String {
        "libxml2 \(LibXML2FeedParser.version) tree (xmlCtxtReadMemory) + XPath per item and field, once all bytes are in"
    }
}
