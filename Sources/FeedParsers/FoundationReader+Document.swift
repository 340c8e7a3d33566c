import CReferenceParsers
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The document workload over `XMLParser(data:)`: its events, as strings, reported to the sink.
///
/// Namespaces processed and their prefixes reported (`shouldReportNamespacePrefixes`): a mapping
/// of a prefix comes before the start tag that declares it and becomes that tag's namespace
/// declaration; an attribute's namespace URI is resolved from the mappings in scope (Foundation
/// gives an attribute only its name as written). Text, ignorable whitespace and CDATA are text.
extension FoundationReader: WholeDocumentWalker {
    package static func walk(_ bytes: Data, into sink: DocumentSink) throws {
        try explainingTheSizeLimit(of: bytes) { try walk(with: XMLParser(data: bytes), name: name, into: sink) }
    }

    /// Runs `parser` with the walking delegate, as `parse(with:name:onSong:)` runs the song delegate.
    static func walk(with parser: XMLParser, name: String, into sink: DocumentSink) throws {
        let delegate = DocumentDelegate(name: name, sink: sink)
        try run(
            parser, name: name, delegate: delegate, reportPrefixes: true, failure: { delegate.failure },
            sawRoot: { delegate.sawRoot }, balanced: { sink.depth == 0 })
    }

    /// Receives `XMLParser`'s events and reports them to the sink.
    private final class DocumentDelegate: NSObject, XMLParserDelegate {
        static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

        let name: String
        let sink: DocumentSink
        var failure: FeedParseError?
        var sawRoot = false
        /// The declarations of the next start tag (prefix, URI).
        var declared: [(String, String)] = []
        /// The URIs of each prefix in scope, innermost last.
        var scopes: [String: [String]] = [:]

        init(name: String, sink: DocumentSink) {
            self.name = name
            self.sink = sink
        }

        func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
            declared.append((prefix, namespaceURI))
            scopes[prefix, default: []].append(namespaceURI)
        }

        func parser(_ parser: XMLParser, didEndMappingPrefix prefix: String) {
            scopes[prefix]?.removeLast()
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            sawRoot = true
            let (prefix, _) = Self.split(qName ?? elementName)
            var status = sink.start(uri: namespaceURI ?? "", local: elementName, prefix: prefix)
            for (prefix, uri) in declared where status == DOC_STATUS_OK {
                status = sink.namespace(prefix: prefix, uri: uri)
            }
            declared.removeAll(keepingCapacity: true)
            for (written, value) in attributeDict where status == DOC_STATUS_OK {
                let (prefix, local) = Self.split(written)
                // Declarations came as mappings.
                if written == "xmlns" || prefix == "xmlns" { continue }
                let uri = prefix.isEmpty ? "" : prefix == "xml" ? Self.xmlNamespace : scopes[prefix]?.last ?? ""
                status = sink.attribute(uri: uri, local: local, prefix: prefix, value: value)
            }
            report(status == DOC_STATUS_OK ? sink.startDone() : status, parser)
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
        ) {
            report(sink.end(), parser)
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            report(sink.text(string), parser)
        }

        func parser(_ parser: XMLParser, foundIgnorableWhitespace whitespaceString: String) {
            report(sink.text(whitespaceString), parser)
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            let status = CDATABlock.withUnsafeBytes { bytes in
                sink.text(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count)
            }
            report(status, parser)
        }

        func parser(_ parser: XMLParser, foundProcessingInstructionWithTarget target: String, data: String?) {
            report(sink.processingInstruction(target: target, data: data ?? ""), parser)
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            guard failure == nil else { return }
            failure = FoundationReader.failure(parseError, of: parser, name: name)
        }

        private func report(_ status: DocStatus, _ parser: XMLParser) {
            guard status != DOC_STATUS_OK, failure == nil else { return }
            failure = DocumentSink.failure(status, parser: name, line: parser.lineNumber, column: parser.columnNumber)
            parser.abortParsing()
        }

        /// "p:local" as ("p", "local"); a name without a colon has no prefix.
        static func split(_ name: String) -> (prefix: String, local: String) {
            guard let colon = name.firstIndex(of: ":") else { return ("", name) }
            return (String(name[..<colon]), String(name[name.index(after: colon)...]))
        }
    }
}
