import CLibXML2
import CReferenceParsers
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The document workload over libxml2's pull parser: node after node into the sink.
///
/// An element's attributes are read by moving the reader over them (a namespace declaration is
/// one of them, `xmlTextReaderIsNamespaceDecl`); attributes the internal DTD defaults are included
/// (`XML_PARSE_DTDATTR`). Text, CDATA and whitespace nodes are text; processing instructions are
/// reported (the reader does not enter the DTD). As for songs, entities declared in the DTD are not
/// expanded: their references are nodes of their own whose text is missing.
extension LibXML2TextReader: WholeDocumentWalker {
    public static func walk(_ bytes: Data, into sink: DocumentSink) throws {
        guard bytes.count <= Int(Int32.max) else {
            throw FeedParseError(parser: name, message: "documents over 2 GiB are not supported", line: 0, column: 0)
        }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_DTDATTR.rawValue)
        let walk = ReaderWalk(sink: sink)
        try bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress,
                let reader = xmlReaderForMemory(
                    base.assumingMemoryBound(to: CChar.self), Int32(raw.count), nil, nil, options)
            else {
                throw FeedParseError(
                    parser: name, message: "xmlReaderForMemory failed (empty document?)", line: 0, column: 0)
            }
            defer { xmlFreeTextReader(reader) }
            try walk.read(reader)
        }
    }
}

/// One pull over a document: the sink and the reader's first error, which its error handler sets.
private final class ReaderWalk {
    let sink: DocumentSink
    var readerError: FeedParseError?

    init(sink: DocumentSink) {
        self.sink = sink
    }

    func read(_ reader: xmlTextReaderPtr) throws {
        xmlTextReaderSetStructuredErrorHandler(
            reader,
            { context, error in
                guard let context, let error else { return }
                let walk = Unmanaged<ReaderWalk>.fromOpaque(context).takeUnretainedValue()
                guard error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue, walk.readerError == nil else { return }
                let raw = error.pointee.message.map { String(cString: $0) } ?? "error \(error.pointee.code)"
                walk.readerError = FeedParseError(
                    parser: LibXML2TextReader.name,
                    message: raw.split(whereSeparator: \.isNewline).joined(separator: "; "),
                    line: Int(error.pointee.line), column: Int(error.pointee.int2), code: Int(error.pointee.code))
            }, Unmanaged.passUnretained(self).toOpaque())
        var status = xmlTextReaderRead(reader)
        while status == 1 {
            if let readerError { throw readerError }
            switch xmlTextReaderNodeType(reader) {
            case Int32(XML_READER_TYPE_ELEMENT.rawValue):
                try start(reader)
                if xmlTextReaderIsEmptyElement(reader) == 1 { try check(sink.end(), reader) }
            case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
                try check(sink.end(), reader)
            case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue),
                Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue), Int32(XML_READER_TYPE_WHITESPACE.rawValue):
                let value = xmlTextReaderConstValue(reader)
                try check(sink.text(cString(value), length(value)), reader)
            case Int32(XML_READER_TYPE_PROCESSING_INSTRUCTION.rawValue):
                let target = xmlTextReaderConstName(reader)
                let data = xmlTextReaderConstValue(reader)
                try check(
                    sink.processingInstruction(
                        target: cString(target), length(target), data: cString(data), length(data)),
                    reader)
            default:
                break
            }
            status = xmlTextReaderRead(reader)
        }
        if let readerError { throw readerError }
        if status != 0 {
            throw FeedParseError(
                parser: LibXML2TextReader.name, message: "xmlTextReaderRead failed",
                line: Int(xmlTextReaderGetParserLineNumber(reader)),
                column: Int(xmlTextReaderGetParserColumnNumber(reader)))
        }
    }

    /// Reports the element the reader is on, with its attributes and namespace declarations.
    private func start(_ reader: xmlTextReaderPtr) throws {
        let uri = xmlTextReaderConstNamespaceUri(reader)
        let local = xmlTextReaderConstLocalName(reader)
        let prefix = xmlTextReaderConstPrefix(reader)
        try check(
            sink.start(
                uri: cString(uri), length(uri), local: cString(local), length(local), prefix: cString(prefix),
                length(prefix)), reader)
        while xmlTextReaderMoveToNextAttribute(reader) == 1 {
            let value = xmlTextReaderConstValue(reader)
            let local = xmlTextReaderConstLocalName(reader)
            let prefix = xmlTextReaderConstPrefix(reader)
            if xmlTextReaderIsNamespaceDecl(reader) == 1 {
                // `xmlns` (local name "xmlns", no prefix) or `xmlns:p` (local name "p").
                let declared = prefix == nil ? nil : local
                try check(
                    sink.namespace(prefix: cString(declared), length(declared), uri: cString(value), length(value)),
                    reader)
            } else {
                let uri = xmlTextReaderConstNamespaceUri(reader)
                try check(
                    sink.attribute(
                        uri: cString(uri), length(uri), local: cString(local), length(local), prefix: cString(prefix),
                        length(prefix), value: cString(value), length(value)), reader)
            }
        }
        _ = xmlTextReaderMoveToElement(reader)
        try check(sink.startDone(), reader)
    }

    private func check(_ status: DocStatus, _ reader: xmlTextReaderPtr) throws {
        try sink.check(
            status, parser: LibXML2TextReader.name, line: Int(xmlTextReaderGetParserLineNumber(reader)),
            column: Int(xmlTextReaderGetParserColumnNumber(reader)))
    }
}
