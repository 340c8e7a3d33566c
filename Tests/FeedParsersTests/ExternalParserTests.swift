import BenchTestSupport
import FeedParsers
import Foundation
import ParserTestSupport
import SongFeed
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A parser from outside the suite, in the shape of the pure-Swift parsers of 2026: a whole-document
/// reader that calls a handler value (here over Foundation's `XMLParser`, which hands strings over;
/// a byte parser hands its borrowed bytes straight on).
enum ForwardingReader: XMLEventReader {
    static let name = "test-forwarding"
    static let summary = "Foundation's XMLParser, its events forwarded to the suite's handler"
    static let contractGaps: Set<ContractGap> = [.dtdEntities, .carriageReturnInCDATA]

    static func read<Events: XMLEventHandler>(_ document: UnsafeRawBufferPointer, into handler: inout Events) throws {
        let forward = Forward(handler)
        let parser = XMLParser(data: Data(document))
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.delegate = forward
        let parsed = parser.parse()
        handler = forward.handler
        if let error = forward.error { throw error }
        guard parsed, parser.parserError == nil else {
            throw FeedParseError(
                parser: name, message: "not well-formed", line: parser.lineNumber, column: parser.columnNumber)
        }
    }

    /// The delegate: a class, as XMLParser asks, holding the handler value until the parse ends.
    final class Forward<Wrapped: XMLEventHandler>: NSObject, XMLParserDelegate {
        var handler: Wrapped
        var error: (any Error)?
        private var declarations: [(prefix: String, uri: String)] = []

        init(_ handler: Wrapped) {
            self.handler = handler
        }

        private func forward(_ parser: XMLParser, _ body: () throws -> Void) {
            guard error == nil else { return }
            do {
                try body()
            } catch {
                self.error = error
                parser.abortParsing()
            }
        }

        func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
            declarations.append((prefix, namespaceURI))
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            forward(parser) {
                let prefix = qualifiedName.flatMap { $0.contains(":") ? String($0.prefix { $0 != ":" }) : nil } ?? ""
                try handler.startElement(namespaceURI: namespaceURI ?? "", localName: elementName, prefix: prefix)
                for declaration in declarations {
                    try handler.namespaceDeclaration(prefix: declaration.prefix, namespaceURI: declaration.uri)
                }
                declarations.removeAll()
                for (name, value) in attributes.sorted(by: { $0.key < $1.key }) where !name.hasPrefix("xmlns") {
                    try handler.attribute(namespaceURI: "", localName: name, value: value)
                }
                try handler.startElementEnded()
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            forward(parser) { try handler.characters(string) }
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            forward(parser) { try CDATABlock.withUnsafeBytes { try handler.characters($0) } }
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            forward(parser) { try handler.endElement() }
        }

        func parser(_ parser: XMLParser, foundProcessingInstructionWithTarget target: String, data: String?) {
            forward(parser) { try handler.processingInstruction(target: target, data: data ?? "") }
        }
    }
}

/// A reader whose name is a built-in parser's.
enum NameTakenReader: XMLEventReader {
    static let name = "libxml2"
    static let summary = "takes a name that is taken"
    static func read<Events: XMLEventHandler>(_ document: UnsafeRawBufferPointer, into handler: inout Events) throws {
    }
}

/// A reader whose name is not one word.
enum BadNameReader: XMLEventReader {
    static let name = "my parser"
    static let summary = "a name with a space"
    static func read<Events: XMLEventHandler>(_ document: UnsafeRawBufferPointer, into handler: inout Events) throws {
    }
}

/// A parser over `Span<UInt8>`, given the document as the DocC article says
/// (`document.assumingMemoryBound(to: UInt8.self).span`): it reports the root's text, the bytes
/// between its tags, so that the test sees the span held the document.
enum SpanReader: XMLEventReader {
    static let name = "test-span"
    static let summary = "a parser over Span<UInt8>"

    static func read<Events: XMLEventHandler>(_ document: UnsafeRawBufferPointer, into handler: inout Events) throws {
        try readSpan(document.assumingMemoryBound(to: UInt8.self).span, into: &handler)
    }

    private static func readSpan<Events: XMLEventHandler>(_ bytes: Span<UInt8>, into handler: inout Events) throws {
        var open = 0
        while open < bytes.count, bytes[open] != UInt8(ascii: ">") { open += 1 }
        var close = open
        while close < bytes.count, bytes[close] != UInt8(ascii: "<") { close += 1 }
        guard open > 1, close < bytes.count else {
            throw FeedParseError(parser: name, message: "no root element", line: 1, column: 1)
        }
        let text = (open + 1..<close).map { bytes[$0] }
        try handler.startElement(namespaceURI: "", localName: "r")
        try handler.startElementEnded()
        try text.withUnsafeBytes { try handler.characters($0) }
        try handler.endElement()
    }
}

/// A reader whose author keeps it out of the default set and says it is a tree.
enum OptInTreeReader: XMLEventReader {
    static let name = "test-opt-in"
    static let summary = "measured only when --parsers names it"
    static let kind = ParserKind.tree
    static let inDefaultSet = false
    static func read<Events: XMLEventHandler>(_ document: UnsafeRawBufferPointer, into handler: inout Events) throws {
    }
}

@Suite("A parser from outside: XMLEventReader, and registering it")
struct ExternalParserTests {
    typealias Parser = XMLEventParser<ForwardingReader>

    @Test func anEventReaderBuildsTheSongsEveryParserBuilds() throws {
        let feed = FeedGenerator(songs: 300).generate()
        let songs = try Parser.parse(Array(feed.bytes), chunkSize: 4_096)
        #expect(songs == feed.songs)
        #expect(Parser.name == "test-forwarding" && Parser.kind == .event)
        #expect(Parser.contractGaps == [.dtdEntities, .carriageReturnInCDATA])
    }

    @Test func itsKindAndItsPlaceInTheDefaultSetAreWhatItsAuthorSays() {
        #expect(Parser.kind == .event && Parser.inDefaultSet)
        #expect(XMLEventParser<OptInTreeReader>.kind == .tree && !XMLEventParser<OptInTreeReader>.inDefaultSet)
        let names = ParserRegistry.defaultNames(registered: [Parser.self, XMLEventParser<OptInTreeReader>.self])
        #expect(names.contains("test-forwarding") && !names.contains("test-opt-in"))
        #expect(names.starts(with: ParserRegistry.defaultNames(registered: [])))
    }

    @Test func aParserOverASpanTakesTheDocumentAsTheArticleSays() throws {
        let document = Array("<r>span text</r>".utf8)
        let ours = try DocumentSink()
        try XMLEventParser<SpanReader>.walk(document, chunkSize: 4, into: ours, recording: true)
        let expat = try DocumentSink()
        try ExpatFeedParser.walk(document, into: expat, recording: true)
        #expect(ours.recordedEvents() == expat.recordedEvents())
    }

    @Test func anEventReaderWalksADocumentAsExpatDoes() throws {
        let document = Array(
            """
            <?xml version="1.0"?>
            <r xmlns="urn:a" xmlns:p="urn:p"><p:x a="1" b="two">text &amp; more<![CDATA[ <c> ]]></p:x>\
            <?target some data?><y/></r>
            """.utf8)
        let ours = try DocumentSink()
        try Parser.walk(document, chunkSize: 7, into: ours, recording: true)
        let expat = try DocumentSink()
        try ExpatFeedParser.walk(document, into: expat, recording: true)
        #expect(ours.recordedEvents() == expat.recordedEvents())
        #expect(ours.digest == expat.digest)
    }

    @Test func aMalformedDocumentIsAnErrorOfTheParser() throws {
        #expect {
            try Parser.parse(Array("<rss><channel><item><title>x</titl></item></channel></rss>".utf8))
        } throws: { error in
            (error as? FeedParseError)?.parser == "test-forwarding"
        }
    }

    @Test func aNameThatIsTakenOrNotOneWordIsRefusedAndNothingIsAdded() {
        let before = ParserRegistry.registeredParsers.map { $0.name }
        #expect(throws: ParserRegistry.RegistrationError.self) {
            try ParserRegistry.register([XMLEventParser<NameTakenReader>.self])
        }
        #expect(throws: ParserRegistry.RegistrationError.self) {
            try ParserRegistry.register([Parser.self, XMLEventParser<BadNameReader>.self])
        }
        #expect(ParserRegistry.registeredParsers.map { $0.name } == before)
    }
}

/// The fuzz entry point an outside package's fuzzer calls (Examples/AppFeedParser/Fuzz): its cuts
/// cover the document, in order, without a gap, and a parser that holds returns from it (it traps
/// on anything else, so a test can only show that it returns).
@Suite("The fuzz entry point for outside parsers")
struct FuzzEntryPointTests {
    @Test func theCutsCoverTheDocumentInOrder() {
        for (count, seed) in [(0, UInt8(0)), (1, 7), (4_096, 1), (100_000, 255)] {
            let cuts = fuzzChunks(count: count, seed: seed)
            #expect(cuts.first?.lowerBound ?? 0 == 0)
            #expect(cuts.last?.upperBound ?? 0 == count)
            #expect(zip(cuts, cuts.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
            #expect(cuts.allSatisfy { (1...4_096).contains($0.count) })
        }
        #expect(fuzzChunks(count: 100_000, seed: 3) != fuzzChunks(count: 100_000, seed: 4))
    }

    @Test func aParserThatHoldsReturnsOnAFeedAndOnGarbage() throws {
        let feed = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestPaths.top300)))
        for input in [[UInt8(42)] + feed, [9] + Array(feed.prefix(5_000)), [1, 0xFF, 0xFE, 0x3C]] {
            input.withUnsafeBytes { fuzzSongFeedParser(ExpatFeedParser.self, input: $0) }
        }
    }
}
