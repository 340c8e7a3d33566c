import CExpat
import SongFeed

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// expat, namespace-aware, fed chunk by chunk with `XML_Parse`.
///
/// Created with `XML_ParserCreateNS`, so element names arrive as "URI" + U+0001 + "local name"
/// (U+0001 cannot occur in XML 1.0 names or namespace URIs). Character data and CDATA sections
/// both arrive through the character data handler. External entity references are refused (the
/// handler returns an error, so the parse fails) and parameter entities are never parsed; expat's
/// own amplification limits make a billion-laughs document an error. Callbacks reach the parser
/// through `Unmanaged` (unretained: they only run inside ``consume(_:)`` and ``finish()``) and stop
/// expat with `XML_StopParser` on the first error.
///
/// Related expat documentation: <https://libexpat.github.io/doc/api/latest/>
package final class ExpatFeedParser: SongFeedParser {
    package static let name = "expat"

    package static var summary: String {
        "expat \(ExpatFeedParser.version) with namespaces (XML_Parse), fed chunk by chunk"
    }

    package static let kind = ParserKind.event
    package static let cReference: String? = CExpatReferenceParser.name

    /// The version of the expat library in use, such as "2.5.0".
    package static var version: String {
        let info = XML_ExpatVersionInfo()
        return "\(info.major).\(info.minor).\(info.micro)"
    }

    /// Separates a namespace URI from the local name in expat's element names.
    static let separator: UInt8 = 0x01

    let parser: XML_Parser
    private let assembler: SongAssembler
    /// The document workload's sink (`init(sink:)`); `nil` for songs.
    let sink: DocumentSink?
    /// Inside the DOCTYPE declaration (document workload: its processing instructions are not events).
    var inDoctype = false
    var error: FeedParseError?
    private var finished = false

    package convenience init(onSong: ((Song) -> Void)?) throws {
        try self.init(sink: nil, onSong: onSong) { parser in
            XML_SetElementHandler(parser, ExpatFeedParser.startElement, ExpatFeedParser.endElement)
            XML_SetCharacterDataHandler(parser, ExpatFeedParser.characterData)
        }
    }

    /// Makes the namespace-aware parser with the guards every use shares; `handlers` sets the content handlers.
    init(sink: DocumentSink?, onSong: ((Song) -> Void)?, handlers: (XML_Parser) -> Void) throws {
        guard let parser = XML_ParserCreateNS(nil, XML_Char(bitPattern: Self.separator)) else {
            throw FeedParseError(parser: Self.name, message: "XML_ParserCreateNS failed", line: 0, column: 0)
        }
        self.parser = parser
        self.sink = sink
        assembler = SongAssembler(onSong: onSong)
        XML_SetUserData(parser, Unmanaged.passUnretained(self).toOpaque())
        if HashSeeding.deterministic { _ = XML_SetHashSalt(parser, HashSeeding.expatSalt) }
        _ = XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER)
        handlers(parser)
        // Returning 0 (XML_STATUS_ERROR) refuses the entity: the parse fails with
        // XML_ERROR_EXTERNAL_ENTITY_HANDLING instead of reading a file or a URL.
        XML_SetExternalEntityRefHandler(parser) { _, _, _, _, _ in 0 }
    }

    deinit {
        XML_ParserFree(parser)
    }

    package func consume(_ chunk: UnsafeRawBufferPointer) throws {
        if let error { throw error }
        guard !finished else { throw misuse("consume(_:) called after finish()") }
        try forEachCPiece(of: chunk) { bytes, count in try check(XML_Parse(parser, bytes, count, 0)) }
    }

    package func finish() throws -> [Song] {
        if let error { throw error }
        guard !finished else { throw misuse("finish() called twice") }
        finished = true
        try check(XML_Parse(parser, nil, 0, 1))
        return assembler.songs
    }

    private func check(_ status: XML_Status) throws {
        if let error { throw error }
        guard status == XML_STATUS_OK else {
            let code = XML_GetErrorCode(parser)
            let message = XML_ErrorString(code).map { String(cString: $0) } ?? "expat error \(code.rawValue)"
            let (line, column) = position()
            let error = FeedParseError(
                parser: Self.name, message: message, line: line, column: column, code: Int(code.rawValue))
            self.error = error
            throw error
        }
    }

    private func misuse(_ message: String) -> FeedParseError {
        FeedParseError(parser: Self.name, message: message, line: 0, column: 0)
    }

    func position() -> (line: Int, column: Int) {
        // expat counts lines from 1 and columns from 0.
        (Int(XML_GetCurrentLineNumber(parser)), Int(XML_GetCurrentColumnNumber(parser)) + 1)
    }

    // MARK: Callbacks

    /// Runs `body` with the parser (expat's user data) without retaining it: the parser outlives
    /// every callback, which only run inside ``consume(_:)`` and ``finish()``.
    @inline(__always)
    static func with(_ opaque: UnsafeMutableRawPointer?, _ body: (ExpatFeedParser) -> Void) {
        guard let opaque else { return }
        Unmanaged<ExpatFeedParser>.fromOpaque(opaque)._withUnsafeGuaranteedRef(body)
    }

    private static let startElement: XML_StartElementHandler = { userData, name, attributes in
        guard let name else { return }
        let element = FeedElement.classify(expatName: name, separator: 0x01)  // ExpatFeedParser.separator
        ExpatFeedParser.with(userData) { parser in
            if parser.assembler.startElement(element) { parser.categoryTerm(attributes) }
        }
    }

    private static let endElement: XML_EndElementHandler = { userData, _ in
        ExpatFeedParser.with(userData) { $0.assembler.endElement() }
    }

    // Most text is outside the song fields: that path only tests one flag.
    private static let characterData: XML_CharacterDataHandler = { userData, bytes, length in
        ExpatFeedParser.with(userData) { parser in
            if parser.assembler.isCollectingText { parser.collect(bytes, Int(length)) }
        }
    }

    /// Hands the Atom category's `term` attribute (no namespace: a plain name) to the assembler.
    @inline(never)
    private func categoryTerm(_ attributes: UnsafeMutablePointer<UnsafePointer<XML_Char>?>?) {
        var value: UnsafePointer<XML_Char>?
        var index = 0
        while let attributes, let name = attributes[index] {
            if strcmp(name, "term") == 0 {
                value = attributes[index + 1]
                break
            }
            index += 2
        }
        let bytes = UnsafeRawBufferPointer(start: value, count: value.map { strlen($0) } ?? 0)
        if !assembler.categoryTerm(bytes) { failFieldTooLong() }
    }

    /// Adds text to the current field; stops expat when the field grows too long.
    @inline(never)
    private func collect(_ bytes: UnsafePointer<XML_Char>?, _ length: Int) {
        guard let bytes, !assembler.characters(UnsafeRawBufferPointer(start: bytes, count: length)) else { return }
        failFieldTooLong()
    }

    /// Stops expat: the current field has grown past the assembler's limit.
    private func failFieldTooLong() {
        let (line, column) = position()
        error = FeedParseError(parser: Self.name, message: assembler.fieldTooLongMessage, line: line, column: column)
        _ = XML_StopParser(parser, XML_Bool(XML_FALSE))
    }
}
