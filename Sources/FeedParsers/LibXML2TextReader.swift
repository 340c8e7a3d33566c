import CLibXML2
import Foundation
import SongFeed

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `libxml2-reader` adapter: the chunks gathered, then ``LibXML2TextReader`` over the whole document.
package typealias LibXML2ReaderFeedParser = WholeDocumentParser<LibXML2TextReader>

/// libxml2's pull parser, `xmlTextReader`, reading the document from memory node by node.
///
/// The adapter (``WholeDocumentParser``) buffers the chunks; then a reader is made over them
/// (`xmlReaderForMemory`, `XML_PARSE_NONET`; every external load refused, see ``ExternalLoads``) and
/// asks for one node after another, feeding element starts and ends (an empty element is both) and
/// text, CDATA and whitespace nodes to the shared ``SongAssembler``. The reader keeps only the current node's subtree, not the document. Errors
/// come through the reader's structured error handler (first one kept, never printed).
///
/// What differs from the contract: it parses once all bytes are in (a reader pulls from its input;
/// fed from memory, it needs the whole document); entities declared in an internal DTD are **not
/// expanded** (substituting them, `XML_PARSE_NOENT`, would also load external entities), so their
/// text is missing from a field. Character references and the predefined entities are expanded.
package enum LibXML2TextReader: WholeDocumentReader {
    package static func songs(in bytes: Data, onSong: ((Song) -> Void)?) throws -> [Song] {
        let pull = Pull(onSong: onSong)
        try pull.read(bytes)
        return pull.assembler.songs
    }

    // MARK: Identity

    package static let name = "libxml2-reader"

    package static let contractGaps: Set<ContractGap> = [.dtdEntities, .carriageReturnInCDATA]
    package static let kind = ParserKind.pull

    package static var summary: String {
        "libxml2 \(LibXML2FeedParser.version) xmlTextReader pull parser over the bytes in memory (DTD entities not expanded)"
    }
}

extension LibXML2TextReader {
    /// Reads `bytes` node by node, calling `visit` with the reader on each node in document order.
    ///
    /// The reader is `xmlReaderForMemory` with `options`, which must include `XML_PARSE_NONET`. Its
    /// first error (its structured error handler keeps it, never printed) is thrown.
    static func read(_ bytes: Data, options: Int32, visit: (xmlTextReaderPtr) throws -> Void) throws {
        guard bytes.count <= Int(Int32.max) else {
            throw FeedParseError(parser: name, message: "documents over 2 GiB are not supported", line: 0, column: 0)
        }
        ExternalLoads.refuse()
        let errors = ReaderErrors()
        // The reader reads the bytes in place: it is made and used inside this closure.
        try bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress,
                let reader = xmlReaderForMemory(
                    base.assumingMemoryBound(to: CChar.self), Int32(raw.count), nil, nil, options)
            else {
                throw FeedParseError(
                    parser: name, message: "xmlReaderForMemory failed (empty document?)", line: 0, column: 0)
            }
            defer { xmlFreeTextReader(reader) }
            try errors.read(reader, visit: visit)
        }
    }
}

/// The reader's first error, which its structured error handler sets.
private final class ReaderErrors {
    var first: FeedParseError?

    func read(_ reader: xmlTextReaderPtr, visit: (xmlTextReaderPtr) throws -> Void) throws {
        xmlTextReaderSetStructuredErrorHandler(
            reader,
            { context, error in
                guard let context, let error else { return }
                let errors = Unmanaged<ReaderErrors>.fromOpaque(context).takeUnretainedValue()
                guard error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue, errors.first == nil else { return }
                let raw = error.pointee.message.map { String(cString: $0) } ?? "error \(error.pointee.code)"
                errors.first = FeedParseError(
                    parser: LibXML2TextReader.name,
                    message: raw.split(whereSeparator: \.isNewline).joined(separator: "; "),
                    line: Int(error.pointee.line), column: Int(error.pointee.int2), code: Int(error.pointee.code))
            }, Unmanaged.passUnretained(self).toOpaque())
        var status = xmlTextReaderRead(reader)
        while status == 1 {
            if let first { throw first }
            try visit(reader)
            status = xmlTextReaderRead(reader)
        }
        if let first { throw first }
        if status != 0 {
            throw FeedParseError(
                parser: LibXML2TextReader.name, message: "xmlTextReaderRead failed",
                line: Int(xmlTextReaderGetParserLineNumber(reader)),
                column: Int(xmlTextReaderGetParserColumnNumber(reader)))
        }
    }
}

/// One document's pull into the song assembler.
private final class Pull {
    let assembler: SongAssembler

    init(onSong: ((Song) -> Void)?) {
        assembler = SongAssembler(onSong: onSong)
    }

    func read(_ bytes: Data) throws {
        try LibXML2TextReader.read(bytes, options: Int32(XML_PARSE_NONET.rawValue)) { reader in try visit(reader) }
        guard assembler.openElements == 0 else {
            throw FeedParseError(
                parser: LibXML2TextReader.name, message: "the document ended inside an element", line: 0, column: 0)
        }
    }

    /// Feeds the node the reader is on to the assembler.
    private func visit(_ reader: xmlTextReaderPtr) throws {
        switch xmlTextReaderNodeType(reader) {
        case Int32(XML_READER_TYPE_ELEMENT.rawValue):
            guard let local = xmlTextReaderConstLocalName(reader) else { break }
            let element = local.withMemoryRebound(to: CChar.self, capacity: 1) { local in
                xmlTextReaderConstNamespaceUri(reader).withMemoryRebound(to: CChar.self) { uri in
                    FeedElement.classify(namespace: uri, local: local)
                }
            }
            if assembler.startElement(element) {
                // The Atom category's `term` (no namespace); a copy that is ours to free.
                let term = xmlTextReaderGetAttribute(reader, "term")
                defer { if let term { CLibXML2_free(term) } }
                let bytes = UnsafeRawBufferPointer(start: term, count: length(UnsafePointer(term)))
                if !assembler.categoryTerm(bytes) {
                    throw FeedParseError(
                        parser: LibXML2TextReader.name, message: assembler.fieldTooLongMessage,
                        line: Int(xmlTextReaderGetParserLineNumber(reader)),
                        column: Int(xmlTextReaderGetParserColumnNumber(reader)))
                }
            }
            if xmlTextReaderIsEmptyElement(reader) == 1 { assembler.endElement() }
        case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
            assembler.endElement()
        case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue),
            Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue), Int32(XML_READER_TYPE_WHITESPACE.rawValue):
            guard assembler.isCollectingText, let value = xmlTextReaderConstValue(reader) else { break }
            if !assembler.characters(UnsafeRawBufferPointer(start: value, count: strlen(value))) {
                throw FeedParseError(
                    parser: LibXML2TextReader.name, message: assembler.fieldTooLongMessage,
                    line: Int(xmlTextReaderGetParserLineNumber(reader)),
                    column: Int(xmlTextReaderGetParserColumnNumber(reader)))
            }
        default:
            break
        }
    }
}

extension Optional where Wrapped == UnsafePointer<xmlChar> {
    /// The pointer as `UnsafePointer<CChar>?`, for `body`'s duration.
    fileprivate func withMemoryRebound<R>(to: CChar.Type, _ body: (UnsafePointer<CChar>?) throws -> R) rethrows -> R {
        guard let self else { return try body(nil) }
        return try self.withMemoryRebound(to: CChar.self, capacity: 1) { try body($0) }
    }
}
