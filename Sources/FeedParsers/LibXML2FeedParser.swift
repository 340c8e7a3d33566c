import CLibXML2
import SongFeed

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// libxml2's SAX2 push parser, fed each chunk as it comes (the classic sample's fast path).
///
/// Drives `xmlCreatePushParserCtxt` and `xmlParseChunk` with a handler that sets
/// `startElementNs`, `endElementNs`, `characters` and `cdataBlock`, and reports errors through the
/// handler's own `serror` callback, never libxml2's global error hooks. The callbacks reach the
/// parser through `Unmanaged` in the context's `_private` field (unretained: they only run inside
/// ``consume(_:)`` and ``finish()``); the first error stops the callbacks and is then thrown.
///
/// Safety: libxml2's external entity loader refuses every load (``ExternalLoads``, installed before
/// the first parse), so no external DTD subset or entity is ever opened, whatever the options;
/// `XML_PARSE_NONET` also forbids network access, and entities are not substituted (no
/// `XML_PARSE_NOENT`). Internal entities are expanded through the SAX callbacks under libxml2's own
/// amplification limits (a billion-laughs document is an error).
///
/// Related libxml2 documentation: <https://gnome.pages.gitlab.gnome.org/libxml2/devhelp/libxml2-parser.html>
package final class LibXML2FeedParser: SongFeedParser {
    package static let name = "libxml2"
    package static let contractGaps: Set<ContractGap> = [.dtdEntities, .carriageReturnInCDATA]

    package static var summary: String {
        "libxml2 \(LibXML2FeedParser.version) SAX2 push parser (xmlParseChunk), fed chunk by chunk"
    }

    package static let kind = ParserKind.event
    package static let cReference: String? = CLibXML2ReferenceParser.name

    /// The version of the libxml2 library in use, such as "2.9.14".
    package static var version: String {
        // xmlParserVersion is "20914" for 2.9.14.
        let raw = Int(String(cString: CLibXML2_runtimeVersion())) ?? 0
        return raw == 0 ? String(cString: CLibXML2_dottedVersion()) : "\(raw / 10000).\(raw / 100 % 100).\(raw % 100)"
    }

    fileprivate var context: xmlParserCtxtPtr?
    private let assembler: SongAssembler
    /// The document workload's sink (`init(sink:)`); `nil` for songs.
    let sink: DocumentSink?
    fileprivate var error: FeedParseError?
    private var finished = false

    package convenience init(onSong: ((Song) -> Void)?) throws {
        try self.init(handler: LibXML2FeedParser.makeHandler(), options: XML_PARSE_NONET, sink: nil, onSong: onSong)
    }

    /// Makes the push parser context with `handler`'s callbacks; `options` must include `XML_PARSE_NONET`.
    init(handler: xmlSAXHandler, options: xmlParserOption, sink: DocumentSink?, onSong: ((Song) -> Void)?) throws {
        ExternalLoads.refuse()
        assembler = SongAssembler(onSong: onSong)
        self.sink = sink
        var handler = handler
        // No user data: libxml2's own SAX2 handlers, used for the DTD's entity declarations, need
        // the callbacks' context to be the parser context. This object rides in its `_private`.
        guard let context = xmlCreatePushParserCtxt(&handler, nil, nil, 0, nil) else {
            throw FeedParseError(parser: Self.name, message: "xmlCreatePushParserCtxt failed", line: 0, column: 0)
        }
        // NONET is the guard against network access while parsing: a context without it is not used.
        let options = Int32(options.rawValue | XML_PARSE_NONET.rawValue)
        guard xmlCtxtUseOptions(context, options) == 0 else {
            xmlFreeParserCtxt(context)
            throw FeedParseError(
                parser: Self.name, message: "xmlCtxtUseOptions(XML_PARSE_NONET) failed", line: 0, column: 0)
        }
        context.pointee._private = Unmanaged.passUnretained(self).toOpaque()
        self.context = context
    }

    deinit {
        if let context {
            if let document = context.pointee.myDoc {
                xmlFreeDoc(document)
                context.pointee.myDoc = nil
            }
            xmlFreeParserCtxt(context)
        }
    }

    package func consume(_ chunk: UnsafeRawBufferPointer) throws {
        if let error { throw error }
        guard !finished else { throw misuse("consume(_:) called after finish()") }
        guard let context else { return }
        try forEachCPiece(of: chunk) { bytes, count in try check(xmlParseChunk(context, bytes, count, 0)) }
    }

    package func finish() throws -> [Song] {
        if let error { throw error }
        guard !finished else { throw misuse("finish() called twice") }
        finished = true
        guard let context else { throw misuse("no parser context") }
        let status = xmlParseChunk(context, nil, 0, 1)
        try check(status)
        guard context.pointee.wellFormed != 0 else {
            throw record(
                FeedParseError(
                    parser: Self.name, message: "the document is not well-formed",
                    line: Int(xmlSAX2GetLineNumber(context)),
                    column: Int(xmlSAX2GetColumnNumber(context)), code: Int(status)))
        }
        guard assembler.openElements == 0 else {
            throw record(
                FeedParseError(
                    parser: Self.name, message: "the document ended inside an element",
                    line: Int(xmlSAX2GetLineNumber(context)), column: Int(xmlSAX2GetColumnNumber(context))))
        }
        return assembler.songs
    }

    private func check(_ status: Int32) throws {
        if let error { throw error }
        guard status == 0, context != nil else {
            throw record(
                FeedParseError(
                    parser: Self.name, message: "xmlParseChunk failed with code \(status)",
                    line: context.map { Int(xmlSAX2GetLineNumber($0)) } ?? 0,
                    column: context.map { Int(xmlSAX2GetColumnNumber($0)) } ?? 0, code: Int(status)))
        }
    }

    private func misuse(_ message: String) -> FeedParseError {
        FeedParseError(parser: Self.name, message: message, line: 0, column: 0)
    }

    @discardableResult
    private func record(_ error: FeedParseError) -> FeedParseError {
        if self.error == nil { self.error = error }
        return self.error ?? error
    }

    /// Records the first error and stops libxml2; called from inside a SAX content callback.
    func fail(_ error: FeedParseError) {
        guard self.error == nil else { return }
        self.error = error
        if let context { xmlStopParser(context) }
    }

    func position() -> (line: Int, column: Int) {
        guard let context else { return (0, 0) }
        return (Int(xmlSAX2GetLineNumber(context)), Int(xmlSAX2GetColumnNumber(context)))
    }

    // MARK: Callbacks

    /// Runs `body` with the parser of a callback's context, without retaining it.
    ///
    /// The context is the `xmlParserCtxt`, whose `_private` is the parser. The parser outlives every
    /// callback, which only run inside ``consume(_:)`` and ``finish()``. A retain and a release per
    /// event were a measurable share of the binding's cost.
    @inline(__always)
    static func with(_ ctx: UnsafeMutableRawPointer?, _ body: (LibXML2FeedParser) -> Void) {
        guard let ctx, let opaque = ctx.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private else { return }
        Unmanaged<LibXML2FeedParser>.fromOpaque(opaque)._withUnsafeGuaranteedRef(body)
    }

    /// The SAX2 handler: the element, text and error callbacks, and libxml2's own SAX2 handlers for
    /// the internal DTD's declarations (so that its entities expand).
    ///
    /// No handler that loads an external subset (`externalSubset`, `resolveEntity`; the loader refuses
    /// the rest, see ``ExternalLoads``), and no document object unless the document has a DTD:
    /// libxml2's default `startDocument` would build one per parse, for nothing. The C reference
    /// (`c-libxml2`) sets the same handlers.
    private static func makeHandler() -> xmlSAXHandler {
        var handler = dtdHandler()
        handler.startElementNs = { ctx, localname, _, uri, _, _, attributeCount, _, attributes in
            guard let localname else { return }
            let element = localname.withMemoryRebound(to: CChar.self, capacity: 1) { local in
                guard let uri else { return FeedElement.classify(namespace: nil, local: local) }
                return uri.withMemoryRebound(to: CChar.self, capacity: 1) {
                    FeedElement.classify(namespace: $0, local: local)
                }
            }
            LibXML2FeedParser.with(ctx) { parser in
                if parser.assembler.startElement(element) {
                    parser.categoryTerm(ctx, Int(attributeCount), attributes)
                }
            }
        }
        handler.endElementNs = { ctx, _, _, _ in
            LibXML2FeedParser.with(ctx) { $0.assembler.endElement() }
        }
        // Most text is outside the song fields: that path only tests one flag.
        let characters: charactersSAXFunc = { ctx, bytes, length in
            LibXML2FeedParser.with(ctx) { parser in
                if parser.assembler.isCollectingText { parser.collect(bytes, Int(length)) }
            }
        }
        handler.characters = characters
        handler.cdataBlock = characters
        handler.ignorableWhitespace = characters
        return handler
    }

    /// A SAX2 handler with the internal DTD's callbacks and the error callback, and no content callbacks.
    static func dtdHandler() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = CLibXML2_sax2Magic()
        handler.internalSubset = { ctx, name, externalID, systemID in
            guard let context = ctx?.assumingMemoryBound(to: xmlParserCtxt.self) else { return }
            if context.pointee.myDoc == nil {
                guard let document = xmlNewDoc(context.pointee.version ?? CLibXML2_defaultVersion()) else { return }
                document.pointee.dict = context.pointee.dict
                xmlDictReference(context.pointee.dict)
                context.pointee.myDoc = document
            }
            xmlSAX2InternalSubset(ctx, name, externalID, systemID)
        }
        handler.isStandalone = xmlSAX2IsStandalone
        handler.hasInternalSubset = xmlSAX2HasInternalSubset
        handler.hasExternalSubset = xmlSAX2HasExternalSubset
        handler.getEntity = xmlSAX2GetEntity
        handler.getParameterEntity = xmlSAX2GetParameterEntity
        handler.entityDecl = xmlSAX2EntityDecl
        handler.attributeDecl = xmlSAX2AttributeDecl
        handler.elementDecl = xmlSAX2ElementDecl
        handler.notationDecl = xmlSAX2NotationDecl
        handler.unparsedEntityDecl = xmlSAX2UnparsedEntityDecl
        handler.setDocumentLocator = xmlSAX2SetDocumentLocator
        handler.serror = { ctx, error in
            LibXML2FeedParser.with(ctx) { parser in parser.record(libxml2Error: error) }
        }
        return handler
    }

    /// Adds text to the current field; stops the parse when the field grows too long.
    @inline(never)
    fileprivate func collect(_ bytes: UnsafePointer<xmlChar>?, _ length: Int) {
        guard let bytes, !assembler.characters(UnsafeRawBufferPointer(start: bytes, count: length)) else { return }
        failFieldTooLong()
    }

    /// Stops the parse: the current field has grown past the assembler's limit.
    private func failFieldTooLong() {
        let (line, column) = position()
        fail(FeedParseError(parser: Self.name, message: assembler.fieldTooLongMessage, line: line, column: column))
    }

    /// Hands the Atom category's `term` attribute (no namespace) to the assembler.
    @inline(never)
    private func categoryTerm(
        _ ctx: UnsafeMutableRawPointer?, _ count: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        let term = attributes.flatMap { attributes in
            (0..<count).lazy.map { attributes + 5 * $0 }.first { fields in
                guard fields[2] == nil, let local = cString(fields[0]) else { return false }
                return strcmp(local, "term") == 0
            }
        }
        let fits =
            term.map { fields in Self.withAttributeValue(ctx, fields) { assembler.categoryTerm($0) } }
            ?? assembler.categoryTerm(UnsafeRawBufferPointer(start: nil, count: 0))
        if !fits { failFieldTooLong() }
    }

    /// Runs `body` with the value of the attribute whose five SAX2 fields (local name, prefix, URI,
    /// value start, value end) are at `fields`.
    ///
    /// Without entity substitution libxml2 leaves references in attribute values ("&#38;", "&e;") for
    /// its tree builder to decode; they are decoded as the tree builder does (`xmlStringLenDecodeEntities`).
    static func withAttributeValue<Result>(
        _ ctx: UnsafeMutableRawPointer?, _ fields: UnsafeMutablePointer<UnsafePointer<xmlChar>?>,
        _ body: (UnsafeRawBufferPointer) -> Result
    ) -> Result {
        guard let start = fields[3], let end = fields[4] else {
            return body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        let count = end - start
        if memchr(start, 0x26, count) != nil, let context = ctx?.assumingMemoryBound(to: xmlParserCtxt.self),
            let decoded = xmlStringLenDecodeEntities(context, start, Int32(count), Int32(XML_SUBSTITUTE_REF), 0, 0, 0)
        {
            defer { CLibXML2_free(decoded) }
            return body(UnsafeRawBufferPointer(start: decoded, count: length(UnsafePointer(decoded))))
        }
        return body(UnsafeRawBufferPointer(start: start, count: count))
    }

    /// Records an error libxml2 reported through the handler's `serror` (a warning is no error).
    ///
    /// Record only. xmlStopParser here would free the input stream under the libxml2 function that
    /// raised the error (2.9.14 crashes); disabling SAX stops the callbacks, as a fatal error does by
    /// itself, and consume()/finish() throw the recorded error.
    private func record(libxml2Error reported: UnsafeMutablePointer<xmlError>?) {
        // Warnings (level 1) do not make a document wrong; errors and fatal errors do.
        guard error == nil, let reported, reported.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        // Messages end with a newline and some span two lines ("…indicate encoding !\nBytes: …").
        let raw = reported.pointee.message.map { String(cString: $0) } ?? "error \(reported.pointee.code)"
        error = FeedParseError(
            parser: Self.name, message: raw.split(whereSeparator: \.isNewline).joined(separator: "; "),
            line: Int(reported.pointee.line), column: Int(reported.pointee.int2), code: Int(reported.pointee.code))
        context?.pointee.disableSAX = 1
    }
}
