import CLibXML2
import CReferenceParsers

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The document workload over libxml2's SAX2 push parser: every element, attribute, namespace
/// declaration, run of text and processing instruction reported to the ``DocumentSink``, chunk by
/// chunk as the bytes come.
///
/// The song parser's options and DTD handlers, plus `XML_PARSE_DTDATTR` (attributes defaulted by
/// the internal DTD are reported, as the canonical form has them; with it libxml2 would read the
/// external subset and external parameter entities, which ``ExternalLoads`` refuses). Attribute
/// values are decoded as libxml2's tree builder decodes them (`LibXML2FeedParser.withAttributeValue`).
/// A processing instruction inside the DTD is not an event.
extension LibXML2FeedParser: DocumentParser {
    package convenience init(sink: DocumentSink) throws {
        var handler = Self.dtdHandler()
        handler.startElementNs = { ctx, local, prefix, uri, namespaceCount, namespaces, attributeCount, _, attributes in
            LibXML2FeedParser.with(ctx) { parser in
                parser.report(
                    parser.startDocumentElement(
                        ctx, local: local, prefix: prefix, uri: uri, namespaces: (Int(namespaceCount), namespaces),
                        attributes: (Int(attributeCount), attributes)))
            }
        }
        handler.endElementNs = { ctx, _, _, _ in
            LibXML2FeedParser.with(ctx) { parser in parser.report(parser.sink.map { $0.end() }) }
        }
        let characters: charactersSAXFunc = { ctx, bytes, length in
            LibXML2FeedParser.with(ctx) { parser in
                parser.report(parser.sink.map { $0.text(cString(bytes), Int(length)) })
            }
        }
        handler.characters = characters
        handler.cdataBlock = characters
        handler.ignorableWhitespace = characters
        handler.processingInstruction = { ctx, target, data in
            guard let ctx, ctx.assumingMemoryBound(to: xmlParserCtxt.self).pointee.inSubset == 0 else { return }
            LibXML2FeedParser.with(ctx) { parser in
                parser.report(
                    parser.sink.map {
                        $0.processingInstruction(
                            target: cString(target), length(target), data: cString(data), length(data))
                    })
            }
        }
        try self.init(
            handler: handler, options: xmlParserOption(XML_PARSE_NONET.rawValue | XML_PARSE_DTDATTR.rawValue),
            sink: sink,
            onSong: nil)
    }

    package func finishDocument() throws {
        _ = try finish()
        let (line, column) = position()
        do {
            try sink?.finish(parser: Self.name)
        } catch var failure as FeedParseError {
            (failure.line, failure.column) = (line, column)
            throw failure
        }
    }

    /// Reports a start tag: the element's name, its namespace declarations, its attributes.
    private func startDocumentElement(
        _ ctx: UnsafeMutableRawPointer?, local: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?,
        uri: UnsafePointer<xmlChar>?, namespaces: (Int, UnsafeMutablePointer<UnsafePointer<xmlChar>?>?),
        attributes: (Int, UnsafeMutablePointer<UnsafePointer<xmlChar>?>?)
    ) -> DocStatus? {
        guard let sink else { return nil }
        var status = sink.start(
            uri: cString(uri), length(uri), local: cString(local), length(local), prefix: cString(prefix),
            length(prefix))
        if let pairs = namespaces.1 {
            for index in 0..<namespaces.0 where status == DOC_STATUS_OK {
                let declared = pairs[2 * index]
                let target = pairs[2 * index + 1]
                status = sink.namespace(
                    prefix: cString(declared), length(declared), uri: cString(target), length(target))
            }
        }
        if let fields = attributes.1 {
            for index in 0..<attributes.0 where status == DOC_STATUS_OK {
                status = attribute(ctx, fields + 5 * index, sink)
            }
        }
        return status == DOC_STATUS_OK ? sink.startDone() : status
    }

    /// Reports one attribute: libxml2's five fields (local name, prefix, URI, value start, value end).
    private func attribute(
        _ ctx: UnsafeMutableRawPointer?, _ fields: UnsafeMutablePointer<UnsafePointer<xmlChar>?>, _ sink: DocumentSink
    ) -> DocStatus {
        guard fields[3] != nil, fields[4] != nil else { return DOC_STATUS_MISUSE }
        return Self.withAttributeValue(ctx, fields) { value in
            sink.attribute(
                uri: cString(fields[2]), length(fields[2]), local: cString(fields[0]), length(fields[0]),
                prefix: cString(fields[1]), length(fields[1]),
                value: value.baseAddress?.assumingMemoryBound(to: CChar.self), value.count)
        }
    }

    /// Stops the parse on the sink's first refusal.
    @inline(__always)
    private func report(_ status: DocStatus?) {
        guard let status, status != DOC_STATUS_OK else { return }
        let (line, column) = position()
        fail(DocumentSink.failure(status, parser: Self.name, line: line, column: column))
    }
}

/// libxml2's UTF-8 string as C characters.
@inline(__always)
func cString(_ text: UnsafePointer<xmlChar>?) -> UnsafePointer<CChar>? {
    text.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
}

/// The length of libxml2's NUL-terminated string; 0 for none.
@inline(__always)
func length(_ text: UnsafePointer<xmlChar>?) -> Int {
    text.map { strlen(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) } ?? 0
}
