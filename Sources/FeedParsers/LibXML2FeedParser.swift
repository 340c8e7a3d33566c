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
/// Safety: `XML_PARSE_NONET` forbids network access, and entities are not substituted
/// (no `XML_PARSE_NOENT`), so libxml2 never loads an external entity or DTD; internal entities are
/// expanded through the SAX callbacks under libxml2's own amplification limits (a billion-laughs
/// document is an error).
///
/// Related libxml2 documentation: <https://gnome.pages.gitlab.gnome.org/libxml2/devhelp/libxml2-parser.html>
public final class LibXML2FeedParser: SongFeedParser {
    public static let name = "libxml2"

    public static var summary: String {
        "libxml2 \(LibXML2FeedParser.version) SAX2 push parser (xmlParseChunk), fed chunk by chunk"
    }

    /// The version of the libxml2 library in use, e.g. "2.9.14".
    public static var version: String {
        // xmlParserVersion is "20914" for 2.9.14.
        let raw = Int(String(cString: CLibXML2_runtimeVersion())) ?? 0
        return raw == 0 ? String(cString: CLibXML2_dottedVersion()) : "\(raw / 10000).\(raw / 100 % 100).\(raw % 100)"
    }

    fileprivate var context: xmlParserCtxtPtr?
    private let assembler: SongAssembler
    fileprivate var error: FeedParseError?
    private var finished = false

    public init(onSong: ((Song) -> Void)?) throws {
        assembler = SongAssembler(onSong: onSong)
        var handler = LibXML2FeedParser.makeHandler()
        // No user data: libxml2's own SAX2 handlers, kept for the DTD's entity declarations, need
        // the callbacks' context to be the parser context. This object rides in its `_private`.
        guard let context = xmlCreatePushParserCtxt(&handler, nil, nil, 0, nil) else {
            throw FeedParseError(parser: Self.name, message: "xmlCreatePushParserCtxt failed", line: 0, column: 0)
        }
        _ = xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
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

    public func consume(_ chunk: UnsafeRawBufferPointer) throws {
        if let error { throw error }
        guard !finished else { throw misuse("consume(_:) called after finish()") }
        guard let context else { return }
        try forEachCPiece(of: chunk) { bytes, count in try check(xmlParseChunk(context, bytes, count, 0)) }
    }

    public func finish() throws -> [Song] {
        if let error { throw error }
        guard !finished else { throw misuse("finish() called twice") }
        finished = true
        guard let context else { throw misuse("no parser context") }
        let status = xmlParseChunk(context, nil, 0, 1)
        try check(status)
        guard context.pointee.wellFormed != 0 else {
            throw record(FeedParseError(
                parser: Self.name, message: "the document is not well-formed", line: Int(xmlSAX2GetLineNumber(context)),
                column: Int(xmlSAX2GetColumnNumber(context)), code: Int(status)))
        }
        guard assembler.openElements == 0 else {
            throw record(FeedParseError(
                parser: Self.name, message: "the document ended inside an element",
                line: Int(xmlSAX2GetLineNumber(context)), column: Int(xmlSAX2GetColumnNumber(context))))
        }
        return assembler.songs
    }

    private func check(_ status: Int32) throws {
        if let error { throw error }
        guard status == 0, context != nil else {
            throw record(FeedParseError(
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
    fileprivate func fail(_ error: FeedParseError) {
        guard self.error == nil else { return }
        self.error = error
        if let context { xmlStopParser(context) }
    }

    fileprivate func position() -> (line: Int, column: Int) {
        guard let context else { return (0, 0) }
        return (Int(xmlSAX2GetLineNumber(context)), Int(xmlSAX2GetColumnNumber(context)))
    }

    // MARK: Callbacks

    /// The parser of a callback's context (the `xmlParserCtxt`, whose `_private` is the parser).
    fileprivate static func from(_ ctx: UnsafeMutableRawPointer?) -> LibXML2FeedParser? {
        guard let ctx, let opaque = ctx.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private else { return nil }
        return Unmanaged<LibXML2FeedParser>.fromOpaque(opaque).takeUnretainedValue()
    }

    /// The SAX2 handler: libxml2's defaults (which keep the internal DTD's entity declarations),
    /// with the element, text and error callbacks replaced, and every callback that could load
    /// external content or build a tree removed.
    private static func makeHandler() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        _ = xmlSAXVersion(&handler, 2)
        handler.initialized = CLibXML2_sax2Magic()
        handler.startElement = nil  // SAX1
        handler.endElement = nil
        handler.externalSubset = nil  // never read an external DTD
        handler.resolveEntity = nil
        handler.reference = nil
        handler.processingInstruction = nil
        handler.comment = nil
        handler.warning = nil
        handler.error = nil
        handler.fatalError = nil

        handler.startElementNs = { ctx, localname, _, uri, _, _, _, _, _ in
            guard let parser = LibXML2FeedParser.from(ctx), let localname else { return }
            let local = UnsafeRawBufferPointer(start: localname, count: strlen(localname))
            let namespace = uri.map { UnsafeRawBufferPointer(start: $0, count: strlen($0)) }
                ?? UnsafeRawBufferPointer(start: nil, count: 0)
            parser.assembler.startElement(FeedElement.classify(namespace: namespace, local: local))
        }
        handler.endElementNs = { ctx, _, _, _ in
            LibXML2FeedParser.from(ctx)?.assembler.endElement()
        }
        let characters: charactersSAXFunc = { ctx, bytes, length in
            guard let parser = LibXML2FeedParser.from(ctx), parser.assembler.isCollectingText, let bytes else { return }
            if !parser.assembler.characters(UnsafeRawBufferPointer(start: bytes, count: Int(length))) {
                let (line, column) = parser.position()
                parser.fail(FeedParseError(
                    parser: LibXML2FeedParser.name, message: parser.assembler.fieldTooLongMessage, line: line,
                    column: column))
            }
        }
        handler.characters = characters
        handler.cdataBlock = characters
        handler.ignorableWhitespace = characters
        handler.serror = { ctx, error in
            guard let parser = LibXML2FeedParser.from(ctx), let error else { return }
            // Warnings (level 1) do not make a document wrong; errors and fatal errors do.
            guard error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            // Messages end with a newline and some span two lines ("…indicate encoding !\nBytes: …").
            let raw = error.pointee.message.map { String(cString: $0) } ?? "error \(error.pointee.code)"
            let message = raw.split(whereSeparator: \.isNewline).joined(separator: "; ")
            // Record only. xmlStopParser here would free the input stream under the libxml2 function
            // that raised the error (2.9.14 crashes); disabling SAX stops the callbacks, as a fatal
            // error does by itself, and consume()/finish() throw the recorded error.
            guard parser.error == nil else { return }
            parser.error = FeedParseError(
                parser: LibXML2FeedParser.name, message: message, line: Int(error.pointee.line),
                column: Int(error.pointee.int2), code: Int(error.pointee.code))
            parser.context?.pointee.disableSAX = 1
        }
        return handler
    }
}
