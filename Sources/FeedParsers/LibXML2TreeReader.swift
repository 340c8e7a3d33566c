import CLibXML2
import Foundation
import SongFeed

/// The `libxml2-dom` adapter: the chunks gathered, then ``LibXML2TreeReader`` over the whole document.
package typealias LibXML2DOMFeedParser = WholeDocumentParser<LibXML2TreeReader>

/// libxml2's tree: the whole document parsed into an `xmlDoc` (`xmlCtxtReadMemory`), then the songs
/// found with XPath, as the libxml2 tree wrappers (Fuzi, Kanna) do.
///
/// The adapter (``WholeDocumentParser``) buffers the chunks; then they are parsed with
/// `XML_PARSE_NONET` (no entity substitution, and the loader refuses every external load, see
/// ``ExternalLoads``: nothing external is loaded; internal entities stay reference nodes, whose
/// text `xmlNodeGetContent` includes), then evaluates `//item[not(ancestor::item)]` and, for each
/// item, `title[last()]`, `category[last()]` and `itms:artist[last()]`, `itms:album[last()]`,
/// `itms:releasedate[last()]` with the prefix `itms` bound to the itms namespace URI (so elements
/// match by URI and local name, whatever prefix the document uses). A document without RSS items is
/// read as Atom (`atomExpressions`), the category being the `term` of the last `category` (so a
/// document with both items and entries gives its items only, where the streaming adapters give
/// both). The expressions are compiled once per parse. A field's text is `xmlNodeGetContent` (all
/// the text inside it).
///
/// Errors: the parse context's last error (libxml2 stops at the first fatal one), never printed.
/// What differs from the contract: it parses once all bytes are in, and holds the whole tree.
package enum LibXML2TreeReader: WholeDocumentReader {
    package static func songs(in bytes: Data, onSong: ((Song) -> Void)?) throws -> [Song] {
        guard bytes.count <= Int(Int32.max) else { throw failure("documents over 2 GiB are not supported") }
        guard let context = xmlNewParserCtxt() else { throw failure("xmlNewParserCtxt failed") }
        defer { xmlFreeParserCtxt(context) }
        let document = try tree(of: bytes, context)
        defer { xmlFreeDoc(document) }
        guard let xpath = xmlXPathNewContext(document) else { throw failure("xmlXPathNewContext failed") }
        defer { xmlXPathFreeContext(xpath) }
        for (prefix, uri) in [
            ("itms", FeedElement.itmsNamespace), ("atom", FeedElement.atomNamespace), ("im", FeedElement.imNamespace),
        ] {
            guard xmlXPathRegisterNs(xpath, prefix, uri.utf8Start) == 0 else {
                throw failure("xmlXPathRegisterNs failed")
            }
        }
        let rss = try songs(of: xpath, Self.rssExpressions, categoryAttribute: nil, onSong: onSong)
        guard rss.isEmpty else { return rss }
        return try songs(of: xpath, Self.atomExpressions, categoryAttribute: "term", onSong: onSong)
    }

    /// The document's tree (the caller frees it); an error when it is not namespace-well-formed.
    static func tree(of bytes: Data, _ context: xmlParserCtxtPtr, defaultAttributes: Bool = false) throws -> xmlDocPtr {
        ExternalLoads.refuse()
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

    /// The RSS items, then each one's title, category, artist, album and release date.
    static let rssExpressions = [
        "//item[not(ancestor::item)]", "title[last()]", "category[last()]", "itms:artist[last()]",
        "itms:album[last()]", "itms:releasedate[last()]",
    ]

    /// The Atom entries and their fields; the category is the `term` of the node found.
    static let atomExpressions = [
        "//atom:entry[not(ancestor::atom:entry)]", "im:name[last()]", "atom:category[last()]", "im:artist[last()]",
        "(im:collection/im:name)[last()]", "im:releaseDate[last()]",
    ]

    /// The songs of the items (or entries) that `patterns[0]` finds in the XPath context's document,
    /// each field the last of its name; the category is the node's `categoryAttribute` when there is one.
    private static func songs(
        of xpath: xmlXPathContextPtr, _ patterns: [String], categoryAttribute: String?, onSong: ((Song) -> Void)?
    ) throws -> [Song] {
        let expressions = patterns.map { (pattern: String) in
            pattern.withCString {
                $0.withMemoryRebound(to: xmlChar.self, capacity: pattern.utf8.count + 1, xmlXPathCompile)
            }
        }
        defer { for expression in expressions { xmlXPathFreeCompExpr(expression) } }
        guard expressions.allSatisfy({ $0 != nil }) else { throw failure("xmlXPathCompile failed") }

        xpath.pointee.node = nil
        guard let found = xmlXPathCompiledEval(expressions[0], xpath) else { throw failure("XPath evaluation failed") }
        defer { xmlXPathFreeObject(found) }
        let items = Self.nodes(found)
        var songs: [Song] = []
        songs.reserveCapacity(items.count)
        /// The text of the first node `expressions[index]` finds from the current item, if any.
        func text(_ index: Int, attribute: String? = nil) throws -> String? {
            guard let result = xmlXPathCompiledEval(expressions[index], xpath) else {
                throw failure("XPath evaluation failed")
            }
            defer { xmlXPathFreeObject(result) }
            guard let node = Self.firstNode(result) else { return nil }
            guard let attribute else { return Self.content(node) }
            guard let value = xmlGetNoNsProp(node, attribute) else { return "" }
            defer { CLibXML2_free(value) }
            return String(cString: value)
        }
        for item in items {
            xpath.pointee.node = item
            let song = try SongAssembler.song(
                title: try text(1), category: try text(2, attribute: categoryAttribute), artist: try text(3),
                album: try text(4), releaseDate: try text(5), item: songs.count + 1, parser: Self.name)
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

    package static let name = "libxml2-dom"

    package static let contractGaps: Set<ContractGap> = [.dtdEntities]
    package static let kind = ParserKind.tree

    package static var summary: String {
        "libxml2 \(LibXML2FeedParser.version) tree (xmlCtxtReadMemory) + XPath per item and field, once all bytes are in"
    }
}
