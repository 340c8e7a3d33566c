import CReferenceParsers
import Foundation
import SongFeed

/// A parser of a whole document held in memory that reports what it reads to a handler: the shape
/// of the XML parsers written in Swift in 2026, adapted to the suite in one short file.
///
/// The reader is a type with one static function: no instance, no class. It reads the document's
/// bytes and calls its handler, a value (`inout`), for each event in document order, handing names
/// and text over as borrowed bytes (valid only during the call). The suite's adapter
/// ``XMLEventParser`` turns it into a parser of both workloads: songs (the handler builds them)
/// and documents (the handler reports canonical events), gathering the pushed chunks first.
///
/// ```swift
/// enum MyReader: XMLEventReader {
///     static let name = "my-parser"
///     static let summary = "MyXML 1.0 SAX over the whole document"
///
///     static func read<Events: XMLEventHandler>(
///         _ document: UnsafeRawBufferPointer, into handler: inout Events
///     ) throws {
///         // Drive the parser; forward each of its events to `handler`.
///     }
/// }
/// // Registered as XMLEventParser<MyReader>.self.
/// ```
public protocol XMLEventReader {
    /// The parser's name on the command line and in every report ("my-parser").
    static var name: String { get }
    /// One line about what it drives and how.
    static var summary: String { get }
    /// What kind of parser it is, as every report shows it. Default: ``ParserKind/event`` (shown
    /// "push/event": a parser that calls back for each event, whether fed in chunks or, as here, the
    /// whole document); a reader over a tree or a pull parser says ``ParserKind/tree`` or ``ParserKind/pull``.
    static var kind: ParserKind { get }
    /// Whether `bench run` measures it when `--parsers` is not given. Default: `true`.
    static var inDefaultSet: Bool { get }
    /// The parts of the contract it does not meet (see ``SongFeedParser/contractGaps``). Default: none.
    static var contractGaps: Set<ContractGap> { get }

    /// Reads the whole `document`, reporting each event to `handler` in document order.
    ///
    /// Names and text are UTF-8; text has its entity and character references resolved and CDATA
    /// sections included, in as many ``XMLEventHandler/characters(_:)`` calls as the parser likes.
    /// An error the handler throws must end the read and be thrown again. The whole contract is
    /// ``XMLEventHandler``'s; `bench verify --contract` checks it.
    ///
    /// - Throws: the handler's error, or the parser's for a malformed document (a
    ///   ``FeedParseError`` carries its line and column; any other error is reported with its text).
    static func read<Events: XMLEventHandler>(_ document: UnsafeRawBufferPointer, into handler: inout Events) throws
}

extension XMLEventReader {
    public static var kind: ParserKind { .event }
    public static var inDefaultSet: Bool { true }
    public static var contractGaps: Set<ContractGap> { [] }
}

/// What an ``XMLEventReader`` reports, as borrowed UTF-8 bytes (each valid only during its call).
///
/// A start tag is ``startElement(namespaceURI:localName:prefix:)``, then its namespace
/// declarations and attributes in any order, then ``startElementEnded()``.
///
/// ## The contract
///
/// Every rule a reader keeps, as `bench verify --contract` checks them (each rule that a document
/// can show, over a small document of its own, against expat's events) and the article "Measuring
/// your own parser" lists them with an example each:
///
/// - An element or attribute in no namespace is reported with an empty namespace URI, and a name without a prefix
///   with an empty prefix.
/// - An unprefixed element is in the default namespace in scope, with an empty prefix.
/// - A prefixed element or attribute is reported with its prefix's namespace URI, its local name and its prefix
///   as written.
/// - An unprefixed attribute is in no namespace, even where a default namespace is in scope.
/// - Each namespace declaration (`xmlns`, `xmlns:p`) is reported once, with
///   `namespaceDeclaration(prefix:namespaceURI:)`, and never as an attribute.
/// - `xmlns=""` takes the default namespace away: it is reported as a declaration with an empty URI, and its
///   element is in no namespace.
/// - A start tag is `startElement`, then its namespace declarations and attributes in any order, then
///   `startElementEnded()`; an end tag is `endElement()`.
/// - An empty-element tag is a start tag and an end tag.
/// - An attribute value is normalised: a literal tab, line feed or carriage return is a space, and references are
///   resolved (`&#10;` stays a line feed).
/// - Character references and the predefined entity references in text are resolved.
/// - An internal entity declared in the DTD is expanded where it is referenced.
/// - A CDATA section's content goes to `characters(_:)` as text, unmarked, and merges with the text around it.
/// - Text may be handed over in as many `characters(_:)` calls as the parser likes: the text between two pieces
///   of markup is merged.
/// - A carriage return and line feed, or a carriage return alone, is reported as one line feed.
/// - A carriage return in a CDATA section is a line end too.
/// - Whitespace between elements inside the root element is character data, and is reported.
/// - Text outside the root element must not be reported: the line ends and spaces before and after it are not
///   character data.
/// - Comments are not reported, and the text on either side of a comment is one text.
/// - The XML declaration is not a processing instruction, and is not reported.
/// - A processing instruction is reported with its target and its data, without the spaces between them.
/// - A processing instruction without data is reported with empty data.
/// - A processing instruction outside the root element is reported, in document order.
/// - Nothing in the DTD is reported: no declaration, and no processing instruction or comment inside it.
/// - Names and text are UTF-8, whatever the document's encoding.
/// - A malformed document ends the read with an error: throw any error (a `FeedParseError` with a line and column
///   is shown with its position, any other with its text).
/// - A document that ends inside an element is malformed.
/// - A document without a root element is malformed.
/// - Markup after the root element's end, other than comments and processing instructions, is malformed.
/// - The events do not depend on how the document's bytes are divided: a push parser is given each document in
///   one piece and one byte at a time.
/// - An error the handler throws ends the read and is thrown again, as it is.
/// - The handler is the caller's value, given `inout`: report every event to it in place, never to a copy kept or
///   made (a copy's state is not the handler's).
/// - The bytes given to a handler are valid only during the call: the handler copies what it keeps, and the
///   reader may reuse its buffers after the call.
public protocol XMLEventHandler {
    /// An element starts: its namespace URI (empty for none), local name and prefix (empty for none).
    mutating func startElement(
        namespaceURI: UnsafeRawBufferPointer, localName: UnsafeRawBufferPointer, prefix: UnsafeRawBufferPointer
    ) throws
    /// An attribute of the element just started (not a namespace declaration), its value normalised.
    mutating func attribute(
        namespaceURI: UnsafeRawBufferPointer, localName: UnsafeRawBufferPointer, prefix: UnsafeRawBufferPointer,
        value: UnsafeRawBufferPointer
    ) throws
    /// A namespace declaration (`xmlns`, `xmlns:p`) of the element just started; the prefix is empty
    /// for the default namespace.
    mutating func namespaceDeclaration(prefix: UnsafeRawBufferPointer, namespaceURI: UnsafeRawBufferPointer) throws
    /// The element just started has no more attributes or declarations.
    mutating func startElementEnded() throws
    /// The innermost open element ends.
    mutating func endElement() throws
    /// Character data (text and CDATA), references resolved.
    mutating func characters(_ text: UnsafeRawBufferPointer) throws
    /// A processing instruction (not the XML declaration).
    mutating func processingInstruction(target: UnsafeRawBufferPointer, data: UnsafeRawBufferPointer) throws
}

extension XMLEventHandler {
    /// ``startElement(namespaceURI:localName:prefix:)`` from strings.
    public mutating func startElement(namespaceURI: String, localName: String, prefix: String = "") throws {
        try Self.withBytes(namespaceURI, localName, prefix) {
            try startElement(namespaceURI: $0, localName: $1, prefix: $2)
        }
    }

    /// ``attribute(namespaceURI:localName:prefix:value:)`` from strings.
    public mutating func attribute(namespaceURI: String, localName: String, prefix: String = "", value: String) throws {
        var value = value
        try value.withUTF8 { value in
            try Self.withBytes(namespaceURI, localName, prefix) {
                try attribute(namespaceURI: $0, localName: $1, prefix: $2, value: UnsafeRawBufferPointer(value))
            }
        }
    }

    /// ``namespaceDeclaration(prefix:namespaceURI:)`` from strings.
    public mutating func namespaceDeclaration(prefix: String, namespaceURI: String) throws {
        try Self.withBytes(prefix, namespaceURI, "") { prefix, uri, _ in
            try namespaceDeclaration(prefix: prefix, namespaceURI: uri)
        }
    }

    /// ``characters(_:)`` from a string.
    public mutating func characters(_ text: String) throws {
        var text = text
        try text.withUTF8 { try characters(UnsafeRawBufferPointer($0)) }
    }

    /// ``processingInstruction(target:data:)`` from strings.
    public mutating func processingInstruction(target: String, data: String) throws {
        try Self.withBytes(target, data, "") { target, data, _ in
            try processingInstruction(target: target, data: data)
        }
    }

    private static func withBytes(
        _ first: String, _ second: String, _ third: String,
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var (first, second, third) = (first, second, third)
        try first.withUTF8 { a in
            try second.withUTF8 { b in
                try third.withUTF8 { c in
                    try body(UnsafeRawBufferPointer(a), UnsafeRawBufferPointer(b), UnsafeRawBufferPointer(c))
                }
            }
        }
    }
}

/// The suite's parser over an ``XMLEventReader``: songs and documents alike.
///
/// The chunks are gathered first (see ``WholeDocumentParser``). Register it as
/// `XMLEventParser<MyReader>.self`.
public typealias XMLEventParser<Reader: XMLEventReader> = WholeDocumentParser<EventReaderBridge<Reader>>

/// An ``XMLEventReader`` as a ``WholeDocumentWalker``: what ``XMLEventParser`` is made of.
public enum EventReaderBridge<Reader: XMLEventReader>: WholeDocumentWalker {
    public static var name: String { Reader.name }
    public static var summary: String { Reader.summary }
    public static var kind: ParserKind { Reader.kind }
    public static var inDefaultSet: Bool { Reader.inDefaultSet }
    public static var contractGaps: Set<ContractGap> { Reader.contractGaps }

    public static func songs(in bytes: Data, onSong: ((Song) -> Void)?) throws -> [Song] {
        var handler = SongEvents(assembler: SongAssembler(onSong: onSong), parser: Reader.name)
        try read(bytes, into: &handler)
        guard handler.assembler.openElements == 0 else {
            throw FeedParseError(
                parser: Reader.name, message: "the document ended inside an element", line: 0, column: 0)
        }
        return handler.assembler.songs
    }

    public static func walk(_ bytes: Data, into sink: DocumentSink) throws {
        var handler = SinkEvents(sink: sink, parser: Reader.name)
        try read(bytes, into: &handler)
    }

    /// Runs the reader; an error that is not a ``FeedParseError`` becomes one, with its text.
    private static func read<Events: XMLEventHandler>(_ bytes: Data, into handler: inout Events) throws {
        do {
            try bytes.withUnsafeBytes { try Reader.read($0, into: &handler) }
        } catch let error as FeedParseError {
            throw error
        } catch {
            throw FeedParseError(parser: Reader.name, message: "\(error)", line: 0, column: 0)
        }
    }
}

/// Events to songs: the shared ``SongAssembler`` behind the handler protocol, for a parser that
/// reports events as it reads (a push adapter of its own uses it as ``XMLEventParser`` does).
public struct SongEvents: XMLEventHandler {
    /// The songs so far: ``SongAssembler/songs``.
    public let assembler: SongAssembler
    let parser: String
    /// Whether the element just started is an Atom `category`, whose `term` is the song's category.
    private var wantsTerm = false
    private var termSeen = false

    /// Events of `parser` (its name, for errors) into `assembler`.
    public init(assembler: SongAssembler, parser: String) {
        self.assembler = assembler
        self.parser = parser
    }

    public mutating func startElement(
        namespaceURI: UnsafeRawBufferPointer, localName: UnsafeRawBufferPointer, prefix: UnsafeRawBufferPointer
    ) throws {
        wantsTerm = assembler.startElement(FeedElement.classify(namespace: namespaceURI, local: localName))
        termSeen = false
    }

    public mutating func attribute(
        namespaceURI: UnsafeRawBufferPointer, localName: UnsafeRawBufferPointer, prefix: UnsafeRawBufferPointer,
        value: UnsafeRawBufferPointer
    ) throws {
        guard wantsTerm, namespaceURI.isEmpty, localName.elementsEqual("term".utf8) else { return }
        termSeen = true
        guard assembler.categoryTerm(value) else { throw tooLong() }
    }

    public mutating func namespaceDeclaration(prefix: UnsafeRawBufferPointer, namespaceURI: UnsafeRawBufferPointer)
        throws
    {}

    public mutating func startElementEnded() throws {
        // A category with no term: an empty category, as every other adapter gives it.
        if wantsTerm, !termSeen, !assembler.categoryTerm(UnsafeRawBufferPointer(start: nil, count: 0)) {
            throw tooLong()
        }
        wantsTerm = false
    }

    public mutating func endElement() throws { assembler.endElement() }

    public mutating func characters(_ text: UnsafeRawBufferPointer) throws {
        guard assembler.isCollectingText else { return }
        guard assembler.characters(text) else { throw tooLong() }
    }

    public mutating func processingInstruction(target: UnsafeRawBufferPointer, data: UnsafeRawBufferPointer) throws {}

    private func tooLong() -> FeedParseError {
        FeedParseError(parser: parser, message: assembler.fieldTooLongMessage, line: 0, column: 0)
    }
}

/// Events to the shared canonical ``DocumentSink``, for a parser that reports events as it reads
/// (a push adapter's ``DocumentParser`` conformance uses it as ``XMLEventParser`` does).
public struct SinkEvents: XMLEventHandler {
    let sink: DocumentSink
    let parser: String

    /// Events of `parser` (its name, for errors) into `sink`.
    public init(sink: DocumentSink, parser: String) {
        self.sink = sink
        self.parser = parser
    }

    public mutating func startElement(
        namespaceURI: UnsafeRawBufferPointer, localName: UnsafeRawBufferPointer, prefix: UnsafeRawBufferPointer
    ) throws {
        try check(
            sink.start(
                uri: chars(namespaceURI), namespaceURI.count, local: chars(localName), localName.count,
                prefix: chars(prefix), prefix.count))
    }

    public mutating func attribute(
        namespaceURI: UnsafeRawBufferPointer, localName: UnsafeRawBufferPointer, prefix: UnsafeRawBufferPointer,
        value: UnsafeRawBufferPointer
    ) throws {
        try check(
            sink.attribute(
                uri: chars(namespaceURI), namespaceURI.count, local: chars(localName), localName.count,
                prefix: chars(prefix), prefix.count, value: chars(value), value.count))
    }

    public mutating func namespaceDeclaration(prefix: UnsafeRawBufferPointer, namespaceURI: UnsafeRawBufferPointer)
        throws
    {
        try check(sink.namespace(prefix: chars(prefix), prefix.count, uri: chars(namespaceURI), namespaceURI.count))
    }

    public mutating func startElementEnded() throws { try check(sink.startDone()) }

    public mutating func endElement() throws { try check(sink.end()) }

    public mutating func characters(_ text: UnsafeRawBufferPointer) throws {
        try check(sink.text(chars(text), text.count))
    }

    public mutating func processingInstruction(target: UnsafeRawBufferPointer, data: UnsafeRawBufferPointer) throws {
        try check(sink.processingInstruction(target: chars(target), target.count, data: chars(data), data.count))
    }

    private func chars(_ bytes: UnsafeRawBufferPointer) -> UnsafePointer<CChar>? {
        bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
    }

    private func check(_ status: DocStatus) throws {
        try sink.check(status, parser: parser, line: 0, column: 0)
    }
}
