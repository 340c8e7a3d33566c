import BenchEngine
import BenchTestSupport
import FeedParsers
import Foundation
import SongFeed
import Testing

/// Bad input gives a typed error with the parser's name and a position, never a crash or a hang.
@Suite("Malformed input")
struct MalformedInputTests {
    static let good = Samples.feed([Samples.item(), Samples.item(title: "Second")])

    /// Named malformed documents: every parser must reject them.
    static let malformed: [(String, [UInt8])] = [
        ("unclosed element", Array(good.replacingOccurrences(of: "</channel>", with: "").utf8)),
        ("mismatched end tag", Array(good.replacingOccurrences(of: "</title>", with: "</titel>").utf8)),
        (
            "undefined entity",
            Array(good.replacingOccurrences(of: "Harakiri</itms:album>", with: "&nosuch;</itms:album>").utf8)
        ),
        (
            "invalid UTF-8 in text",
            Array(good.utf8.split(separator: UInt8(ascii: "R"), maxSplits: 1).joined(separator: [0xFF, 0xFE]))
        ),
        ("unbound prefix", Array(good.replacingOccurrences(of: "xmlns:itms", with: "xmlns:other").utf8)),
        ("two root elements", Array((good + "<rss/>").utf8)),
        ("empty document", []),
        ("text only", Array("just text".utf8)),
        ("blank line before the XML declaration", Array(("\n" + good).utf8)),
    ]

    @Test(arguments: inProcessParsers, malformed.indices)
    func inProcessParsersReject(parser: String, index: Int) throws {
        let (name, bytes) = Self.malformed[index]
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
        let bytes = Array(Self.good.utf8)
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
        let bytes = Array(Self.good.utf8).replacingFirst(
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
            let truncated = Array(Self.good.utf8.dropLast(40))
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

    @Test(
        "Foundation-based parsers reject malformed input (in a worker: they may crash)",
        arguments: foundationBasedParsers.filter { !KnownDeviation.errorsNotDetected.contains($0) }, malformed.indices)
    func foundationRejects(parser: String, index: Int) throws {
        let (name, bytes) = Self.malformed[index]
        let verdict = try verifyInWorker(parser, bytes, chunkSizes: [0, 7])
        if KnownDeviation.acceptsMalformed[parser, default: []].contains(name) {
            // It accepts it alone: no parser that meets the contract confirms what it built.
            guard case .unverified = verdict.status else {
                Issue.record("\(name): \(parser) now rejects it (\(verdict.status)): update KnownDeviation")
                return
            }
            return
        }
        guard case .failed(let error) = verdict.status else {
            Issue.record("\(name): \(parser) gave \(verdict.status)")
            return
        }
        #expect(error.parser == parser)
    }

    @Test("Foundation rejects truncated documents, even where parse() returns true")
    func foundationRejectsTruncation() throws {
        for document in ["<a>", "<a><b></a>", String(Self.good.dropLast(20)), String(Self.good.prefix(100))] {
            let instance = try FoundationFeedParser(onSong: nil)
            try Array(document.utf8).withUnsafeBytes { try instance.consume($0) }
            #expect(throws: FeedParseError.self, "\(document.prefix(40))") { try instance.finish() }
        }
    }
}

extension Array where Element == UInt8 {
    func replacingFirst(_ target: [UInt8], with replacement: [UInt8]) -> [UInt8] {
        guard target.count <= count else { return self }
        for start in 0...(count - target.count) where Array(self[start..<(start + target.count)]) == target {
            return Array(self[..<start]) + replacement + Array(self[(start + target.count)...])
        }
        return self
    }
}
