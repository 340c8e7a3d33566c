import CExpat

/// Where a feed's entries lie in its bytes: what the feed server needs to serve a feed in pages
/// (`?start-index=&max-results=`) and with only some of each entry's fields (`?fields=`).
///
/// An entry is an RSS `item` (no namespace) child of `rss/channel`, or an Atom `entry` child of an
/// Atom `feed`. For each entry it records the byte ranges of its start tag, of each child element
/// (with the child's namespace URI and local name) and of its end tag. Read with expat, namespace
/// aware, with the same guards as the `expat` adapter (no external entity, no parameter entity);
/// an entry or a child that begins inside an entity's replacement text has no range in the bytes
/// and is an error.
///
/// ```swift
/// let layout = try FeedLayout(bytes)
/// let firstItem = bytes[layout.entries[0].range]
/// ```
package struct FeedLayout: Sendable, Equatable {
    /// A child element of an entry.
    package struct Child: Sendable, Equatable {
        /// The namespace URI, empty for none.
        package var namespace: String
        package var localName: String
        package var range: Range<Int>
    }

    /// One entry (`item` or `entry`).
    package struct Entry: Sendable, Equatable {
        /// From `<` of the start tag to `>` of the end tag.
        package var range: Range<Int>
        /// The start tag.
        package var startTag: Range<Int>
        /// The end tag (empty for an empty-element tag).
        package var endTag: Range<Int>
        package var children: [Child]
    }

    package enum Kind: String, Sendable {
        case rss, atom
    }

    package var kind: Kind
    package var entries: [Entry]
    /// The namespace prefixes the document declares, first declaration of each prefix ("" for a
    /// default namespace): how `fields=` names like `itms:artist` are resolved.
    package var namespaces: [String: String]

    static let atomNamespace = "http://www.w3.org/2005/Atom"

    /// Reads the layout of a whole document.
    ///
    /// - Throws: ``FeedParseError`` (parser "feed-layout") for a document that is not well-formed,
    ///   is neither RSS nor Atom, or has an entry inside an entity's replacement text.
    package init(_ bytes: [UInt8]) throws {
        let reader = LayoutReader()
        guard let parser = XML_ParserCreateNS(nil, XML_Char(bitPattern: 0x01)) else {
            throw FeedParseError(parser: LayoutReader.name, message: "XML_ParserCreateNS failed", line: 0, column: 0)
        }
        defer { XML_ParserFree(parser) }
        reader.parser = parser
        XML_SetUserData(parser, Unmanaged.passUnretained(reader).toOpaque())
        _ = XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER)
        XML_SetExternalEntityRefHandler(parser) { _, _, _, _, _ in 0 }
        XML_SetElementHandler(parser, LayoutReader.startElement, LayoutReader.endElement)
        XML_SetStartNamespaceDeclHandler(parser, LayoutReader.namespaceDeclaration)
        let status = expatParseWhole(parser, bytes)
        if let error = reader.error { throw error }
        guard status == XML_STATUS_OK else { throw expatError(parser, name: LayoutReader.name) }
        guard let kind = reader.kind else {
            throw FeedParseError(
                parser: LayoutReader.name, message: "neither an RSS nor an Atom feed", line: 1, column: 1)
        }
        self.kind = kind
        entries = reader.entries
        namespaces = reader.namespaces
    }
}

/// expat's callbacks for ``FeedLayout``; lives only for one `init`.
private final class LayoutReader {
    static let name = "feed-layout"

    var parser: XML_Parser?
    var kind: FeedLayout.Kind?
    var entries: [FeedLayout.Entry] = []
    var namespaces: [String: String] = [:]
    var error: FeedParseError?
    /// Names of the open elements (namespace, local name), outermost first.
    private var open: [(String, String)] = []
    /// Where the open elements' start tags lie.
    private var startTags: [Range<Int>] = []
    private var entry: FeedLayout.Entry?

    private var here: Range<Int> {
        guard let parser else { return 0..<0 }
        let start = Int(XML_GetCurrentByteIndex(parser))
        return start..<(start + Int(XML_GetCurrentByteCount(parser)))
    }

    private func fail(_ message: String) {
        guard error == nil, let parser else { return }
        error = FeedParseError(
            parser: Self.name, message: message, line: Int(XML_GetCurrentLineNumber(parser)),
            column: Int(XML_GetCurrentColumnNumber(parser)) + 1)
        _ = XML_StopParser(parser, XML_Bool(XML_FALSE))
    }

    private func isEntry(depth: Int, _ name: (String, String)) -> Bool {
        switch kind {
        case .rss: return depth == 3 && name == ("", "item") && open[1] == ("", "channel")
        case .atom: return depth == 2 && name == (FeedLayout.atomNamespace, "entry")
        case nil: return false
        }
    }

    func start(_ name: (String, String)) {
        let tag = here
        open.append(name)
        startTags.append(tag)
        let depth = open.count
        if depth == 1 {
            if name == ("", "rss") { kind = .rss } else if name == (FeedLayout.atomNamespace, "feed") { kind = .atom }
        }
        if isEntry(depth: depth, name) {
            guard !tag.isEmpty else { return fail("an entry inside an entity's replacement text") }
            entry = FeedLayout.Entry(range: tag, startTag: tag, endTag: tag.upperBound..<tag.upperBound, children: [])
        } else if entry != nil, depth == entryDepth + 1, tag.isEmpty {
            fail("an entry's field inside an entity's replacement text")
        }
    }

    private var entryDepth: Int { kind == .rss ? 3 : 2 }

    func end() {
        guard let name = open.last, let startTag = startTags.last else { return }
        let depth = open.count
        var tag = here
        // An empty-element tag ends with no bytes of its own: it ends where its start tag does.
        if tag.isEmpty || tag.lowerBound == startTag.lowerBound { tag = startTag.upperBound..<startTag.upperBound }
        if entry != nil {
            if depth == entryDepth + 1 {
                entry?.children.append(
                    FeedLayout.Child(namespace: name.0, localName: name.1, range: startTag.lowerBound..<tag.upperBound))
            } else if depth == entryDepth, var finished = entry {
                finished.endTag = tag
                finished.range = finished.startTag.lowerBound..<tag.upperBound
                entries.append(finished)
                entry = nil
            }
        }
        open.removeLast()
        startTags.removeLast()
    }

    static func split(_ name: UnsafePointer<XML_Char>) -> (String, String) {
        let full = String(cString: name)
        guard let separator = full.firstIndex(of: "\u{1}") else { return ("", full) }
        return (String(full[..<separator]), String(full[full.index(after: separator)...]))
    }

    private static func with(_ opaque: UnsafeMutableRawPointer?, _ body: (LayoutReader) -> Void) {
        guard let opaque else { return }
        Unmanaged<LayoutReader>.fromOpaque(opaque)._withUnsafeGuaranteedRef(body)
    }

    static let startElement: XML_StartElementHandler = { userData, name, _ in
        guard let name else { return }
        with(userData) { $0.start(split(name)) }
    }

    static let endElement: XML_EndElementHandler = { userData, _ in
        with(userData) { $0.end() }
    }

    static let namespaceDeclaration: XML_StartNamespaceDeclHandler = { userData, prefix, uri in
        let key = prefix.map { String(cString: $0) } ?? ""
        let value = uri.map { String(cString: $0) } ?? ""
        with(userData) { reader in
            if reader.namespaces[key] == nil { reader.namespaces[key] = value }
        }
    }
}
