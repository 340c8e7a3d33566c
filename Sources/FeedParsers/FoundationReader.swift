import Foundation
import SongFeed

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The `foundation` adapter: the chunks gathered, then ``FoundationReader`` over the whole document.
package typealias FoundationFeedParser = WholeDocumentParser<FoundationReader>

/// Foundation's event parser, `XMLParser(data:)`, run once the whole document is in, as the classic
/// sample's "NSXMLParser" path did.
///
/// The adapter (``WholeDocumentParser``) only buffers; then the document is parsed with `shouldProcessNamespaces` on and
/// `shouldResolveExternalEntities` off. `parse()` alone is not trusted: on Linux it can return
/// `true` for a truncated or broken document without an error, so the adapter also requires that
/// no error callback fired and that the root element was opened and closed.
///
/// Known limits of Foundation on Linux (swift-corelibs-foundation over libxml2), reported, never
/// hidden: `XMLParser(data:)` fails on documents over 10,000,000 bytes ("Huge input lookup");
/// with a delegate set it crashes the process on some well-formed DTDs (`<!ATTLIST … #IMPLIED>`)
/// and on invalid UTF-8 in a name. Run it on untrusted input in a worker process.
///
/// The cost of Foundation's design is part of what is measured: every event builds `String`s and
/// an attribute dictionary before this adapter sees it.
package enum FoundationReader: WholeDocumentReader {
    package static func songs(in bytes: Data, onSong: ((Song) -> Void)?) throws -> [Song] {
        try explainingTheSizeLimit(of: bytes) { try parse(with: XMLParser(data: bytes), name: name, onSong: onSong) }
    }

    /// The size over which `XMLParser(data:)` fails on Linux (libxml2's limit without `XML_PARSE_HUGE`).
    static let sizeLimit = 10_000_000

    /// Runs `body`; an error of a document over ``sizeLimit`` says that limit is the likely cause:
    /// `XMLParser` reports it as an internal error (libxml2's code 1) at the document's end.
    static func explainingTheSizeLimit<T>(of bytes: Data, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch var error as FeedParseError where bytes.count > sizeLimit && error.code == 1 {
            error.message +=
                " — Foundation's XMLParser(data:) refuses documents over \(sizeLimit) bytes on Linux (this one has "
                + "\(bytes.count)); foundation-stream parses in pieces"
            throw error
        }
    }

    /// Runs `parser` with namespaces on, external entities off and the shared song-building delegate,
    /// and checks what `parse()` alone does not (see the type's notes); errors carry `name`.
    static func parse(with parser: XMLParser, name: String, onSong: ((Song) -> Void)?) throws -> [Song] {
        let delegate = Delegate(name: name, onSong: onSong)
        try run(
            parser, name: name, delegate: delegate, reportPrefixes: false, failure: { delegate.failure },
            sawRoot: { delegate.sawRoot }, balanced: { delegate.assembler.openElements == 0 })
        return delegate.assembler.songs
    }

    /// Runs `parser` with namespaces on, external entities off and `delegate`.
    ///
    /// It then checks what `parse()` alone does not: that no error callback fired (`failure`), and
    /// that the root element was opened (`sawRoot`) and closed (`balanced`). Errors carry `name`.
    static func run(
        _ parser: XMLParser, name: String, delegate: some XMLParserDelegate, reportPrefixes: Bool,
        failure: () -> FeedParseError?, sawRoot: () -> Bool, balanced: () -> Bool
    ) throws {
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = reportPrefixes
        // `false` keeps XML_PARSE_DTDLOAD off; under `.never` Foundation's own loader would load
        // nothing. The loader in force is the suite's, which refuses every load (ExternalLoads).
        parser.shouldResolveExternalEntities = false
        parser.externalEntityResolvingPolicy = .never
        ExternalLoads.refuse()
        parser.delegate = delegate
        let succeeded = withExtendedLifetime(delegate) { parser.parse() }
        parser.delegate = nil
        if let failure = failure() { throw failure }
        if !succeeded {
            let nsError = parser.parserError as NSError?
            throw FeedParseError(
                parser: name, message: nsError.map(Self.describe) ?? "XMLParser.parse() returned false",
                line: parser.lineNumber, column: parser.columnNumber, code: nsError?.code)
        }
        guard sawRoot(), balanced() else {
            throw FeedParseError(
                parser: name,
                message: sawRoot()
                    ? "the document ended inside an element (XMLParser.parse() returned true)"
                    : "the document has no root element: it is empty, or ends before one starts (XMLParser.parse() returned true)",
                // XMLParser says line 0 before it has read a line: the start of the document.
                line: max(1, parser.lineNumber), column: max(1, parser.columnNumber))
        }
    }

    /// The error `XMLParser` reported to a delegate, with its position, as `name`'s.
    static func failure(_ error: any Error, of parser: XMLParser, name: String) -> FeedParseError {
        let nsError = error as NSError
        return FeedParseError(
            parser: name, message: describe(nsError), line: parser.lineNumber, column: parser.columnNumber,
            code: nsError.code)
    }

    /// "an end tag does not match the element it closes (XMLParser.ErrorCode.tagNameMismatchError, 76)".
    ///
    /// On Linux, Foundation's localized description says only "The operation could not be
    /// completed", and the code is libxml2's own error number (``XMLParserErrorWords``).
    static func describe(_ error: NSError) -> String {
        guard error.domain == XMLParser.errorDomain else { return error.localizedDescription }
        #if os(Linux)
            return XMLParserErrorWords.describe(code: error.code) ?? "XMLParser error \(error.code)"
        #else
            return "XMLParser error \(error.code): \(error.localizedDescription)"
        #endif
    }

    /// Receives `XMLParser`'s events and feeds the shared ``SongAssembler``.
    private final class Delegate: NSObject, XMLParserDelegate {
        let assembler: SongAssembler
        let name: String
        var failure: FeedParseError?
        var sawRoot = false

        init(name: String, onSong: ((Song) -> Void)?) {
            self.name = name
            assembler = SongAssembler(onSong: onSong)
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            sawRoot = true
            var local = elementName
            var namespace = namespaceURI ?? ""
            let element = namespace.withUTF8 { uri in
                local.withUTF8 { name in
                    FeedElement.classify(namespace: UnsafeRawBufferPointer(uri), local: UnsafeRawBufferPointer(name))
                }
            }
            if assembler.startElement(element), !assembler.categoryTerm(attributeDict["term"]) { tooLong(parser) }
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
        ) {
            assembler.endElement()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard assembler.isCollectingText else { return }
            if !assembler.characters(string) { tooLong(parser) }
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            guard assembler.isCollectingText else { return }
            let fits = CDATABlock.withUnsafeBytes { assembler.characters($0) }
            if !fits { tooLong(parser) }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            guard failure == nil else { return }
            failure = FoundationReader.failure(parseError, of: parser, name: name)
        }

        private func tooLong(_ parser: XMLParser) {
            guard failure == nil else { return }
            failure = FeedParseError(
                parser: name, message: assembler.fieldTooLongMessage,
                line: parser.lineNumber, column: parser.columnNumber)
            parser.abortParsing()
        }
    }

    // MARK: Identity

    package static let name = "foundation"

    package static let contractGaps: Set<ContractGap> = [.dtdEntities, .carriageReturnInCDATA]

    package static var summary: String {
        "Foundation XMLParser(data:) with namespaces, parsing once all bytes are in"
    }

    package static let kind = ParserKind.event
}
