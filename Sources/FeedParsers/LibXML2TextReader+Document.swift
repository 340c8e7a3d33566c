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
    package static func walk(_ bytes: Data, into sink: DocumentSink) throws {
        let walk = ReaderWalk(sink: sink)
        try read(bytes, options: Int32(XML_PARSE_NONET.rawValue | XML_PARSE_DTDATTR.rawValue)) { try walk.visit($0) }
    }
}

/// One pull over a document into the sink.
private struct ReaderWalk {
    let sink: DocumentSink

    /// Reports the node the reader is on.
    func visit(_ reader: xmlTextReaderPtr) throws {
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
                sink.processingInstruction(target: cString(target), length(target), data: cString(data), length(data)),
                reader)
        default:
            break
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
