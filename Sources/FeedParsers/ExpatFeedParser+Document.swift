import CExpat
import CReferenceParsers

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The document workload over expat: every element, attribute, namespace declaration, run of text
/// and processing instruction reported to the ``DocumentSink``, chunk by chunk as the bytes come.
///
/// The song parser's guards (no external entity, no parameter entity), plus prefixes: with
/// `XML_SetReturnNSTriplet` expat names an element or attribute "URI" U+0001 "local" U+0001 "prefix".
/// Namespace declarations come through their own handler, before the start tag they belong to;
/// attributes defaulted by the internal DTD are among the attributes. A processing instruction
/// inside the DOCTYPE declaration is not an event.
extension ExpatFeedParser: DocumentParser {
    package convenience init(sink: DocumentSink) throws {
        try self.init(sink: sink, onSong: nil) { parser in
            XML_SetReturnNSTriplet(parser, 1)
            XML_SetElementHandler(parser, ExpatFeedParser.startDocumentElement, ExpatFeedParser.endDocumentElement)
            XML_SetCharacterDataHandler(parser, ExpatFeedParser.documentText)
            XML_SetStartNamespaceDeclHandler(parser, ExpatFeedParser.namespaceDeclaration)
            XML_SetProcessingInstructionHandler(parser, ExpatFeedParser.processingInstruction)
            XML_SetDoctypeDeclHandler(
                parser, { userData, _, _, _, _ in ExpatFeedParser.with(userData) { $0.inDoctype = true } },
                { userData in ExpatFeedParser.with(userData) { $0.inDoctype = false } })
        }
    }

    package func finishDocument() throws {
        _ = try finish()
        try sink?.finish(parser: Self.name)
    }

    private static let startDocumentElement: XML_StartElementHandler = { userData, name, attributes in
        ExpatFeedParser.with(userData) { parser in
            guard let sink = parser.sink, let name else { return }
            let element = ExpatName(name)
            var status = sink.start(
                uri: element.uri, element.uriCount, local: element.local, element.localCount, prefix: element.prefix,
                element.prefixCount)
            var index = 0
            while status == DOC_STATUS_OK, let attributes, let attributeName = attributes[index],
                let value = attributes[index + 1]
            {
                let attribute = ExpatName(attributeName)
                status = sink.attribute(
                    uri: attribute.uri, attribute.uriCount, local: attribute.local, attribute.localCount,
                    prefix: attribute.prefix, attribute.prefixCount, value: value, strlen(value))
                index += 2
            }
            parser.report(status == DOC_STATUS_OK ? sink.startDone() : status)
        }
    }

    private static let endDocumentElement: XML_EndElementHandler = { userData, _ in
        ExpatFeedParser.with(userData) { parser in parser.report(parser.sink?.end()) }
    }

    private static let documentText: XML_CharacterDataHandler = { userData, bytes, length in
        ExpatFeedParser.with(userData) { parser in parser.report(parser.sink?.text(bytes, Int(length))) }
    }

    private static let namespaceDeclaration: XML_StartNamespaceDeclHandler = { userData, prefix, uri in
        ExpatFeedParser.with(userData) { parser in
            parser.report(
                parser.sink?.namespace(
                    prefix: prefix, prefix.map { strlen($0) } ?? 0, uri: uri, uri.map { strlen($0) } ?? 0))
        }
    }

    private static let processingInstruction: XML_ProcessingInstructionHandler = { userData, target, data in
        ExpatFeedParser.with(userData) { parser in
            guard !parser.inDoctype else { return }
            parser.report(
                parser.sink?.processingInstruction(
                    target: target, target.map { strlen($0) } ?? 0, data: data, data.map { strlen($0) } ?? 0))
        }
    }

    /// Stops expat on the sink's first refusal.
    @inline(__always)
    private func report(_ status: DocStatus?) {
        guard let status, status != DOC_STATUS_OK, error == nil else { return }
        let (line, column) = position()
        error = DocumentSink.failure(status, parser: Self.name, line: line, column: column)
        _ = XML_StopParser(parser, XML_Bool(XML_FALSE))
    }
}

/// expat's name with namespace triplets: "URI" U+0001 "local" U+0001 "prefix", "URI" U+0001
/// "local" (a default namespace), or the local name alone.
private struct ExpatName {
    var uri: UnsafePointer<CChar>?
    var uriCount = 0
    var local: UnsafePointer<CChar>
    var localCount: Int
    var prefix: UnsafePointer<CChar>?
    var prefixCount = 0

    @inline(__always)
    init(_ name: UnsafePointer<CChar>) {
        let separator = Int32(ExpatFeedParser.separator)
        guard let first = strchr(name, separator) else {
            local = name
            localCount = strlen(name)
            return
        }
        uri = name
        uriCount = UnsafePointer(first) - name
        local = UnsafePointer(first) + 1
        if let second = strchr(local, separator) {
            localCount = UnsafePointer(second) - local
            prefix = UnsafePointer(second) + 1
            prefixCount = strlen(UnsafePointer(second) + 1)
        } else {
            localCount = strlen(local)
        }
    }
}
