import BenchTestSupport
import CReferenceParsers
@testable import FeedParsers
import Foundation
import ParserTestSupport
import SongFeed
import Testing

/// The document workload's sink and walks: every parser reports the same events, whatever the chunks.
@Suite("The document workload")
struct DocumentWorkloadTests {
    /// Namespaces (a default one, a prefix, one redeclared), attributes out of order, text split by a
    /// comment, CDATA, references, a processing instruction in the DTD, before and after the root.
    static let sample = Array(
        """
        <?xml version="1.0"?>
        <!DOCTYPE r [<!ENTITY e "entity &#38;#38; text"><?in-dtd not an event?>]>
        <?first data here?>
        <r xmlns="urn:default" xmlns:p="urn:p" z="1" a="2" p:m="3">
          text<!-- a comment -->more &e; &#x41;<![CDATA[<cdata & more>]]>
          <p:child p:x="&amp;" xml:lang="en"><inner xmlns="urn:other"/></p:child>
          <empty/>
        </r>
        <?last?>
        """.utf8)

    /// Everything but Foundation's, which crash on some DTDs on Linux (they run in workers elsewhere).
    static let inProcess = ParserRegistry.documentParsers.filter { $0.reportsEvents }.map { $0.name }
        .filter { !$0.hasPrefix("foundation") }

    static func events(_ parser: String, _ bytes: [UInt8], chunkSize: Int? = nil) throws -> [DocumentEvent] {
        let type = try #require(ParserRegistry.documentParser(named: parser))
        let sink = try DocumentSink()
        try type.walk(bytes, chunkSize: chunkSize, into: sink, recording: true)
        return sink.recordedEvents()
    }

    @Test("libxml2's push parser reports the events, attributes sorted by name as written")
    func events() throws {
        let events = try Self.events("libxml2", Self.sample)
        guard
            case .start(let root, let attributes) = events.first(where: { if case .start = $0 { true } else { false } })
        else {
            Issue.record("no start tag")
            return
        }
        #expect(root == DocumentEvent.Name(uri: "urn:default", local: "r", prefix: ""))
        #expect(attributes.map(\.name.qualified) == ["a", "p:m", "xmlns", "xmlns:p", "z"])
        #expect(attributes.first { $0.name.qualified == "p:m" }?.name.uri == "urn:p")
        #expect(attributes.first { $0.name.qualified == "xmlns:p" }?.value == "urn:p")
        #expect(events.first == .processingInstruction(target: "first", data: "data here"), "the DTD's PI is no event")
        #expect(events.last == .processingInstruction(target: "last", data: ""))
        #expect(events.contains(.text("\n  textmore entity & text A<cdata & more>\n  ")), "text merged across markup")
    }

    @Test("The canonical form, as the W3C suite writes it")
    func canonicalForm() throws {
        let canonical = String(decoding: CanonicalXML.write(try Self.events("expat", Self.sample)), as: UTF8.self)
        #expect(
            canonical
                == "<?first data here?><r a=\"2\" p:m=\"3\" xmlns=\"urn:default\" xmlns:p=\"urn:p\" z=\"1\">&#10;  textmore "
                + "entity &amp; text A&lt;cdata &amp; more&gt;&#10;  <p:child p:x=\"&amp;\" xml:lang=\"en\">"
                + "<inner xmlns=\"urn:other\"></inner></p:child>&#10;  <empty></empty>&#10;</r><?last ?>")
    }

    @Test("Every parser reports the same events with every chunk size", arguments: inProcess)
    func agreement(parser: String) throws {
        // The reader does not expand entities declared in the DTD (pinned): it is held to the rest.
        let expandsEntities = !KnownDeviation.noDTDEntities.contains(parser)
        let sample =
            expandsEntities
            ? Self.sample
            : Array(String(decoding: Self.sample, as: UTF8.self).replacingOccurrences(of: "&e;", with: "").utf8)
        let reference = try Self.events("expat", sample)
        for size in [1, 2, 7, 64, nil] as [Int?] {
            let events = try Self.events(parser, sample, chunkSize: size)
            #expect(events == reference, "\(parser), chunk size \(size.map(String.init) ?? "whole")")
        }
        if !expandsEntities { #expect(try Self.events(parser, Self.sample) != Self.events("expat", Self.sample)) }
    }

    @Test("The digest is the same for the same events, and differs for others")
    func digest() throws {
        let sink = try DocumentSink()
        try LibXML2FeedParser.walk(Self.sample, chunkSize: 3, into: sink)
        let first = sink.digestText
        try CExpatReferenceParser.walk(Self.sample, into: sink)
        #expect(sink.digestText == first)
        #expect(first.count == 16)
        let other = Array(
            String(decoding: Self.sample, as: UTF8.self).replacingOccurrences(of: "z=\"1\"", with: "z=\"2\"").utf8)
        try ExpatFeedParser.walk(other, into: sink)
        #expect(sink.digestText != first)
    }

    @Test(
        "The checksum sink sees the same events as the canonical one, whatever the parser and chunks",
        arguments: inProcess)
    func checksum(parser: String) throws {
        let type = try #require(ParserRegistry.documentParser(named: parser))
        // The reader does not expand the DTD's entities (pinned above): the sample without them.
        let sample = Array(String(decoding: Self.sample, as: UTF8.self).replacingOccurrences(of: "&e;", with: "").utf8)
        let sink = try DocumentSink()
        try ExpatFeedParser.walk(sample, into: sink)
        let (reference, events) = (sink.checksumText, sink.eventCount)
        for size in [1, 2, 7, nil] as [Int?] {
            let chunks = "\(parser), chunk size \(size.map(String.init) ?? "whole")"
            try type.walk(sample, chunkSize: size, into: sink)
            #expect(sink.mode == .canonical)
            #expect(sink.checksumText == reference, "the canonical sink's checksum, \(chunks)")
            try type.walk(sample, chunkSize: size, into: sink, mode: .checksum)
            #expect(sink.mode == .checksum)
            #expect(sink.checksumText == reference, "the checksum sink, \(chunks)")
            #expect(sink.eventCount == events, "\(chunks)")
            #expect(sink.recordedEvents().isEmpty, "the checksum sink keeps nothing")
        }
        // Another attribute value, the text of one element moved to another: another checksum.
        for (old, new) in [("z=\"1\"", "z=\"2\""), ("<empty/>", "<empty>more</empty>")] {
            let other = Array(String(decoding: sample, as: UTF8.self).replacingOccurrences(of: old, with: new).utf8)
            try type.walk(other, into: sink, mode: .checksum)
            #expect(sink.checksumText != reference, "\(parser): \(new)")
        }
        let moved = Array(
            String(decoding: sample, as: UTF8.self).replacingOccurrences(of: "comment -->more", with: "comment -->")
                .replacingOccurrences(of: "<empty/>", with: "<empty>more</empty>").utf8)
        try type.walk(moved, into: sink, mode: .checksum)
        #expect(sink.checksumText != reference, "\(parser): the same text bytes under another element")
    }

    @Test("The checksum sink refuses an unbalanced event stream too")
    func checksumMisuse() throws {
        let sink = try DocumentSink()
        sink.reset(mode: .checksum)
        #expect(sink.end() != DOC_STATUS_OK, "an end tag with no start")
        sink.reset(mode: .checksum)
        #expect(sink.start(uri: "", local: "a", prefix: "") == DOC_STATUS_OK)
        #expect(sink.text("inside the tag") != DOC_STATUS_OK, "text before the start tag is closed")
        sink.reset(mode: .checksum)
        #expect(sink.start(uri: "", local: "a", prefix: "") == DOC_STATUS_OK)
        #expect(sink.startDone() == DOC_STATUS_OK)
        #expect(throws: FeedParseError.self) { try sink.finish(parser: "test") }
    }

    @Test("A malformed document is a typed error with its position", arguments: inProcess)
    func malformed(parser: String) throws {
        let broken = Array("<r>\n<a></b></r>".utf8)
        do {
            _ = try Self.events(parser, broken, chunkSize: 4)
            Issue.record("\(parser) accepted a malformed document")
        } catch let error as FeedParseError {
            #expect(error.parser == parser)
            #expect(error.line == 2 || parser == "libxml2-dom", "\(error)")
        }
    }

    @Test("An unbalanced event stream is refused by the sink")
    func misuse() throws {
        let sink = try DocumentSink()
        try sink.finish(parser: "test")
        #expect(sink.eventCount == 0)
        #expect(throws: FeedParseError.self) { try sink.finish(parser: "test") }
        sink.reset()
        try sink.finish(parser: "test")
    }

    @Test("Parsers with no document walk say why")
    func notApplicable() {
        #expect(ParserRegistry.documentParser(named: "xmlcoder") == nil)
        #expect(ParserRegistry.documentNotApplicable["xmlcoder"]?.contains("Codable") == true)
        #expect(ParserRegistry.documentNotApplicable["swxmlhash"] != nil)
        for parser in ParserRegistry.names {
            #expect(
                (ParserRegistry.documentParser(named: parser) != nil)
                    != (ParserRegistry.documentNotApplicable[parser] != nil),
                "\(parser): a document parser or a reason, not both or neither")
        }
    }

    @Test(
        "Every parser agrees on the real documents and feeds",
        .enabled(if: TestPaths.hasSharedData, Comment(rawValue: TestPaths.sharedDataMissing)), arguments: inProcess)
    func realDocuments(parser: String) throws {
        let data = try #require(TestPaths.sharedData)
        let paths = [
            "documents/hamlet.xml", "documents/mondial.xml", "documents/discogs-artists-50.xml",
            "documents/discogs-labels-56.xml", "itunes/topalbums-10-2013-06-25.atom.xml", "feeds/CRE.xml",
        ]
        for path in paths {
            let bytes = try [UInt8](Data(contentsOf: data.appendingPathComponent(path)))
            let sink = try DocumentSink()
            try ExpatFeedParser.walk(bytes, into: sink)
            let reference = sink.digestText
            let checksum = sink.checksumText
            let type = try #require(ParserRegistry.documentParser(named: parser))
            try type.walk(bytes, chunkSize: 16_384, into: sink)
            #expect(sink.digestText == reference, "\(parser) on \(path)")
            try type.walk(bytes, chunkSize: 16_384, into: sink, mode: .checksum)
            #expect(sink.checksumText == checksum, "\(parser) on \(path), the checksum sink")
        }
    }
}

@Suite("Generated document shapes")
struct DocumentShapeTests {
    @Test("Every parser that walks documents agrees on every shape", arguments: DocumentShape.allCases)
    func agreement(shape: DocumentShape) throws {
        let bytes = shape.generate(bytes: 64 << 10)
        #expect(bytes.count >= 64 << 10)
        #expect(bytes == shape.generate(bytes: 64 << 10), "the same bytes every time")
        let sink = try DocumentSink()
        try ExpatFeedParser.walk(bytes, into: sink)
        let reference = sink.digestText
        #expect(sink.eventCount > 2)
        let checksum = sink.checksumText
        // No DTD: Foundation's parsers can run here too.
        for type in ParserRegistry.documentParsers where type.reportsEvents {
            try type.walk(bytes, chunkSize: 4_096, into: sink)
            #expect(sink.digestText == reference, "\(type.name) on \(shape.rawValue)")
            try type.walk(bytes, chunkSize: 4_096, into: sink, mode: .checksum)
            #expect(sink.checksumText == checksum, "\(type.name) on \(shape.rawValue), the checksum sink")
        }
        // The `sink` baseline replays the very events: the same digest and count, twice in a row.
        let events = sink.eventCount
        try SinkReplayParser.prepare(sink, for: bytes)
        for _ in 0..<2 {
            try SinkReplayParser.walk(bytes, chunkSize: 4_096, into: sink)
            #expect(sink.digestText == reference, "the replay on \(shape.rawValue)")
            #expect(sink.eventCount == events)
            try SinkReplayParser.walk(bytes, chunkSize: 4_096, into: sink, mode: .checksum)
            #expect(sink.checksumText == checksum, "the replay into the checksum sink on \(shape.rawValue)")
            #expect(sink.eventCount == events)
        }
    }

    /// The replay needs its log; a log cut short is an error, not a partial document.
    @Test func theReplayRefusesWhatIsNotALog() throws {
        let sink = try DocumentSink()
        #expect(throws: FeedParseError.self) { try SinkReplayParser(sink: sink) }
        let bytes = Array("<a x='1'><b>text</b><?pi data?></a>".utf8)
        try SinkReplayParser.prepare(sink, for: bytes)
        var log = try #require(sink.replayLog)
        log.events.removeLast(3)
        sink.replayLog = log
        let error = try #require(throws: FeedParseError.self) {
            try SinkReplayParser.walk(bytes, into: sink)
        }
        #expect(error.parser == "sink")
        // Only the first half of the document: half the log, which ends mid-document.
        try SinkReplayParser.prepare(sink, for: bytes)
        #expect(throws: FeedParseError.self) {
            try SinkReplayParser.walk(Array(bytes[..<(bytes.count / 2)]), into: sink)
        }
        try SinkReplayParser.walk(bytes, into: sink)
        #expect(ParserRegistry.documentParser(named: "sink") != nil)
        #expect(!ParserRegistry.documentParsers.contains { $0.name == "sink" }, "a baseline, not a parser")
    }
}

@Suite("A document's measured shape")
struct DocumentProfilerTests {
    /// Every figure on a document whose shape is known by hand: references count as written (not
    /// inside a comment, CDATA section or processing instruction), text with references resolved.
    @Test func theFiguresOfAKnownDocument() throws {
        let document = """
            <?xml version="1.0"?><!-- & --><r xmlns="urn:a" xmlns:b="urn:b" id="1"><b:e x="&amp;" y="2">\
            A&#233;<![CDATA[&]]><?pi &?></b:e><e/><e><f/></e></r>
            """
        let counts = try DocumentProfiler.measure(Array(document.utf8))
        #expect(counts.elements == 5)
        #expect(counts.attributes == 3)
        #expect(counts.maximumDepth == 3)
        #expect(counts.namespaces == 2)
        #expect(counts.references == 2)
        #expect(counts.textBytes == "Aé&".utf8.count)
    }

    @Test func aDocumentExpatRefusesIsAnError() {
        #expect(throws: FeedParseError.self) { try DocumentProfiler.measure(Array("<a><b></a>".utf8)) }
    }
}
