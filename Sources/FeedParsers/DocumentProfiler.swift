import CExpat

/// Measures a document's shape, the figures every report of the document workload gives beside
/// the times: how much markup against how much text, how deep, how many namespaces and references.
///
/// One pass of expat over the whole document (namespace processing on, no external entity or
/// parameter entity, the same guards as the `expat` adapter), outside any timed region. The
/// references are counted in the bytes as written: every `&` outside comments, CDATA sections and
/// processing instructions (character references, the predefined and the declared entities, in
/// text and in attribute values alike).
///
/// ```swift
/// let shape = try DocumentProfiler.measure(bytes)
/// // shape.elements, shape.attributes, shape.textBytes, shape.maximumDepth, …
/// ```
package enum DocumentProfiler {
    /// What one pass counted.
    package struct Counts: Sendable, Equatable {
        /// Start tags (an empty-element tag counts once).
        package var elements = 0
        /// Attributes, namespace declarations not included.
        package var attributes = 0
        /// Character data as expat reports it (references resolved), in UTF-8 bytes.
        package var textBytes = 0
        /// The deepest element's depth (the root is 1).
        package var maximumDepth = 0
        /// Distinct namespace URIs declared.
        package var namespaces = 0
        /// Entity and character references as written.
        package var references = 0
    }

    /// The shape of `bytes`.
    ///
    /// - Throws: ``FeedParseError`` (parser "document-profile") for a document expat refuses.
    package static func measure(_ bytes: [UInt8]) throws -> Counts {
        let walker = ProfileWalker()
        guard let parser = XML_ParserCreateNS(nil, XML_Char(bitPattern: 0x01)) else {
            throw FeedParseError(parser: ProfileWalker.name, message: "XML_ParserCreateNS failed", line: 0, column: 0)
        }
        defer { XML_ParserFree(parser) }
        XML_SetUserData(parser, Unmanaged.passUnretained(walker).toOpaque())
        _ = XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER)
        XML_SetExternalEntityRefHandler(parser) { _, _, _, _, _ in 0 }
        XML_SetElementHandler(parser, ProfileWalker.start, ProfileWalker.end)
        XML_SetCharacterDataHandler(parser, ProfileWalker.text)
        XML_SetStartNamespaceDeclHandler(parser, ProfileWalker.namespace)
        guard expatParseWhole(parser, bytes) == XML_STATUS_OK else {
            throw expatError(parser, name: ProfileWalker.name)
        }
        var counts = walker.counts
        counts.namespaces = walker.uris.count
        counts.references = references(in: bytes)
        return counts
    }

    /// The `&` of `bytes` outside comments, CDATA sections and processing instructions.
    static func references(in bytes: [UInt8]) -> Int {
        var count = 0
        var index = 0
        /// Whether `literal` starts at `index`.
        func at(_ literal: StaticString) -> Bool {
            let length = literal.utf8CodeUnitCount
            guard index + length <= bytes.count else { return false }
            return (0..<length).allSatisfy { bytes[index + $0] == literal.utf8Start[$0] }
        }
        /// Moves past the next `end`, or to the end of the bytes.
        func skip(past end: StaticString) {
            while index < bytes.count && !at(end) { index += 1 }
            index = min(bytes.count, index + end.utf8CodeUnitCount)
        }
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "&"):
                count += 1
                index += 1
            case UInt8(ascii: "<") where at("<!--"):
                skip(past: "-->")
            case UInt8(ascii: "<") where at("<![CDATA["):
                skip(past: "]]>")
            case UInt8(ascii: "<") where at("<?"):
                skip(past: "?>")
            default:
                index += 1
            }
        }
        return count
    }
}

/// expat's callbacks for ``DocumentProfiler``; lives only for one `measure`.
private final class ProfileWalker {
    static let name = "document-profile"

    var counts = DocumentProfiler.Counts()
    var uris: Set<String> = []
    private var depth = 0

    @inline(__always)
    static func with(_ opaque: UnsafeMutableRawPointer?, _ body: (ProfileWalker) -> Void) {
        guard let opaque else { return }
        Unmanaged<ProfileWalker>.fromOpaque(opaque)._withUnsafeGuaranteedRef(body)
    }

    static let start: XML_StartElementHandler = { userData, _, attributes in
        var pairs = 0
        while let attributes, attributes[2 * pairs] != nil { pairs += 1 }
        with(userData) { walker in
            walker.counts.elements += 1
            walker.counts.attributes += pairs
            walker.depth += 1
            walker.counts.maximumDepth = max(walker.counts.maximumDepth, walker.depth)
        }
    }

    static let end: XML_EndElementHandler = { userData, _ in
        with(userData) { $0.depth -= 1 }
    }

    static let text: XML_CharacterDataHandler = { userData, _, length in
        with(userData) { $0.counts.textBytes += Int(length) }
    }

    static let namespace: XML_StartNamespaceDeclHandler = { userData, _, uri in
        guard let uri else { return }
        with(userData) { $0.uris.insert(String(cString: uri)) }
    }
}

/// Parses all of `bytes` with expat (in pieces its `int` length takes) and ends the document;
/// returns the first status that is not OK, or OK.
func expatParseWhole(_ parser: XML_Parser, _ bytes: [UInt8]) -> XML_Status {
    var status = XML_STATUS_OK
    bytes.withUnsafeBytes { raw in
        forEachCPiece(of: raw) { piece, count in
            if status == XML_STATUS_OK { status = XML_Parse(parser, piece, count, 0) }
        }
    }
    return status == XML_STATUS_OK ? XML_Parse(parser, nil, 0, 1) : status
}

/// expat's error where it stopped, from `name` (a whole-document pass, not an adapter).
func expatError(_ parser: XML_Parser, name: String) -> FeedParseError {
    let code = XML_GetErrorCode(parser)
    return FeedParseError(
        parser: name, message: XML_ErrorString(code).map { String(cString: $0) } ?? "expat error",
        line: Int(XML_GetCurrentLineNumber(parser)), column: Int(XML_GetCurrentColumnNumber(parser)) + 1,
        code: Int(code.rawValue))
}
