import BenchTestSupport
import ParserTestSupport
import FeedParsers
import Foundation
import SongFeed
import Testing

/// Bad input gives a typed error with the parser's name and a position, never a crash or a hang.
@Suite("Malformed input")
struct MalformedInputTests {
    @Test(arguments: inProcessParsers, MalformedDocuments.all.indices)
    func inProcessParsersReject(parser: String, index: Int) throws {
        let (name, bytes) = MalformedDocuments.all[index]
        for size in [1, 7, 4_096, nil] as [Int?] {
            let error = try parseError(parser, bytes, chunkSize: size)
            #expect(error.parser == parser, "\(name)")
            #expect(error.line >= 1, "\(name): \(error)")
            #expect(error.column >= 1, "\(name): \(error)")
            #expect(!error.message.isEmpty && !error.message.contains("\n"))
        }
    }

    @Test("Truncation anywhere is an error", arguments: inProcessParsers)
    func truncationIsAnError(parser: String) throws {
        let bytes = Array(MalformedDocuments.good.utf8)
        // Cut inside the declaration, a start tag, text, an end tag, and just before the last '>'.
        for cut in [1, 5, 30, 60, 120, bytes.count / 2, bytes.count - 20, bytes.count - 3, bytes.count - 2] {
            for size in [1, 64, nil] as [Int?] {
                let error = try parseError(parser, Array(bytes[0..<cut]), chunkSize: size)
                #expect(error.parser == parser)
                #expect(error.line >= 1, "cut at \(cut): \(error)")
            }
        }
    }

    @Test("Invalid UTF-8 in a name", arguments: inProcessParsers)
    func invalidUTF8InAName(parser: String) throws {
        let bytes = Array(MalformedDocuments.good.utf8).replacingFirst(
            Array("<title>".utf8), with: [0x3C, 0x74, 0xFF, 0x74, 0x6C, 0x65, 0x3E])
        let error = try parseError(parser, bytes)
        #expect(error.parser == parser && error.line >= 1)
    }

    @Test("A song field longer than the limit stops the parser", arguments: songParsers)
    func overlongField(parser: String) throws {
        let long = String(repeating: "x", count: SongAssembler.maximumFieldBytes + 10)
        let bytes = Array(Samples.feed([Samples.item(title: long)]).utf8)
        let error = try parseError(parser, bytes, chunkSize: 65_536)
        #expect(error.parser == parser)
        #expect(error.message == "song field <title> of item 1 is longer than \(SongAssembler.maximumFieldBytes) bytes")
        // A tree or a decoder checks the limit once the parse is over: no position then.
        #expect(error.line >= 1 || KnownDeviation.fieldLimitAfterParse.contains(parser))
        // Long text outside the song fields is not collected, so it is no error.
        let elsewhere = Array(Samples.feed([Samples.item() + "<description>\(long)</description>"]).utf8)
        #expect(try parserType(parser).parse(elsewhere, chunkSize: 65_536) == [Samples.harakiri])
    }

    @Test(
        "After an error, every call throws the same error",
        arguments: songParsers.filter { !KnownDeviation.errorsNotDetected.contains($0) })
    func errorsAreSticky(parser: String) throws {
        var instance = try parserType(parser).init(onSong: nil)
        let bad = Array("<rss><a></b></rss>".utf8)
        var first: FeedParseError?
        do {
            try bad.withUnsafeBytes { try instance.consume($0) }
            _ = try instance.finish()
        } catch let error as FeedParseError {
            first = error
        }
        let error = try #require(first)
        #expect(throws: error) { try bad.withUnsafeBytes { try instance.consume($0) } }
        #expect(throws: error) { try instance.finish() }
    }

    // SWXMLHash: in a build with the suite's trait CodableParsers.
    #if CodableParsers
        @Test("Pinned: SWXMLHash's lazy parser ignores XMLParser's errors and returns what it read")
        func swxmlhashIgnoresErrors() throws {
            let truncated = Array(MalformedDocuments.good.utf8.dropLast(40))
            #expect(try SWXMLHashFeedParser.parse(truncated).first == Samples.harakiri)
            #expect(try SWXMLHashFeedParser.parse(Array("<rss><a></b></rss>".utf8)) == [])
        }
    #endif

    @Test("Misuse is an error, not a crash", arguments: ParserRegistry.names)
    func finishTwice(parser: String) throws {
        var instance = try parserType(parser).init(onSong: nil)
        try Array(Samples.feed([]).utf8).withUnsafeBytes { try instance.consume($0) }
        #expect(try instance.finish() == [])
        #expect(throws: FeedParseError.self) { try instance.finish() }
        #expect(throws: FeedParseError.self) { try Array("<a/>".utf8).withUnsafeBytes { try instance.consume($0) } }
    }

    @Test("Foundation rejects truncated documents, even where parse() returns true")
    func foundationRejectsTruncation() throws {
        for document in [
            "<a>", "<a><b></a>", String(MalformedDocuments.good.dropLast(20)),
            String(MalformedDocuments.good.prefix(100)),
        ] {
            let instance = try FoundationFeedParser(onSong: nil)
            try Array(document.utf8).withUnsafeBytes { try instance.consume($0) }
            #expect(throws: FeedParseError.self, "\(document.prefix(40))") { try instance.finish() }
        }
    }
}
