import BenchTestSupport
import FeedParsers
import Foundation
import SongFeed
import Testing

// What the tests of the parsers know of them, shared by FeedParsersTests and by the tests that run the
// parsers in worker processes (BenchEngineTests).

/// The chunk sizes a document is pushed in by the conformance tests; `nil` is the whole document
/// in one chunk.
package let chunkSizes: [Int?] = [1, 2, 3, 7, 64, 4_096, 16_384, nil]

/// The parsers that build songs (all but the `memchr` floor); asked of the registry each time, as
/// metatypes are not `Sendable` to keep in a global.
package var songParserTypes: [any SongFeedParser.Type] { ParserRegistry.all.filter { $0.buildsSongs } }

/// Their names.
package let songParsers = songParserTypes.map { $0.name }

/// Each song parser with the chunk sizes a conformance test pushes a document in: every size for a
/// parser that reads the chunks as they come; for one that gathers them and parses the document
/// once (`GathersWholeDocument`), 1 byte and the whole document, as every other size parses the
/// same gathered bytes again.
package let songParserChunks: [(String, Int?)] = songParserTypes.flatMap { parser in
    (parser is any GathersWholeDocument.Type ? [1, nil] : chunkSizes).map { (parser.name, $0) }
}

/// The parsers built on Foundation's `XMLParser`, which share its crashes on Linux (see
/// `FoundationCrashTests`): they run in this process only on well-formed documents.
package let foundationBasedParsers = ["foundation", "foundation-stream", "xmlcoder", "swxmlhash"]

/// The parsers that can run in this process on any input.
package let inProcessParsers = songParsers.filter { !foundationBasedParsers.contains($0) }

/// The parsers that consume the bytes as they arrive (and may be given a document piece by piece
/// on any input): the SAX adapters and their C references.
package let pushParsers = ["libxml2", "expat", "c-libxml2", "c-expat"]

/// Where an adapter cannot do what the contract of `SongFeedParser` asks, as its summary says: the
/// variant tests pin that it gives other songs there (so that a change is noticed), instead of
/// leaving it out.
package enum KnownDeviation {
    /// Matches elements by local name, not namespace URI (XMLCoder's keys, SWXMLHash's names).
    package static let localNamesOnly: Set<String> = ["xmlcoder", "swxmlhash"]
    /// Takes a field's own character data only, not that of elements nested in it.
    package static let ownTextOnly: Set<String> = ["xmlcoder", "swxmlhash"]
    /// Keeps only part of a field's text when comments or CDATA sections split it.
    package static let splitTextCut: Set<String> = ["xmlcoder"]
    /// Does not expand entities declared in an internal DTD.
    package static let noDTDEntities: Set<String> = ["libxml2-reader"]
    /// Fails a document whose DTD references a parameter entity (`%p;`), whatever the entity.
    ///
    /// Foundation's SAX handler on Linux has no `getParameterEntity`, so libxml2 finds none, declared
    /// or not, internal or external ("PEReference not found", XML_ERR_UNDECLARED_ENTITY, 26).
    /// SWXMLHash does not report the error.
    package static let noParameterEntities: Set<String> = ["foundation", "foundation-stream", "xmlcoder"]
    /// Malformed documents a parser accepts (by the names of `MalformedDocuments.all`):
    /// XMLCoder stops reading at the end of the root element and ignores XMLParser's namespace errors.
    package static let acceptsMalformed: [String: Set<String>] = ["xmlcoder": ["unbound prefix", "two root elements"]]
    /// Does not report a malformed document: returns the songs read before the error.
    package static let errorsNotDetected: Set<String> = ["swxmlhash"]
    /// Has no bound of its own on a field's text while parsing: it checks the limit once the
    /// library hands over the whole text (trees and decoders hold the document anyway).
    package static let fieldLimitAfterParse: Set<String> = ["libxml2-dom", "xmlcoder", "swxmlhash"]
}

package func parserType(_ name: String) throws -> any SongFeedParser.Type {
    try #require(ParserRegistry.parser(named: name), "no parser named \(name)")
}

package func parse(_ name: String, _ text: String, chunkSize: Int? = nil) throws -> [Song] {
    try parserType(name).parse(Array(text.utf8), chunkSize: chunkSize)
}

/// The error a parse throws, or a test failure when it succeeds or throws something else.
package func parseError(
    _ name: String, _ bytes: [UInt8], chunkSize: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation
) throws -> FeedParseError {
    do {
        let songs = try parserType(name).parse(bytes, chunkSize: chunkSize)
        Issue.record(
            "\(name) accepted a malformed document and built \(songs.count) songs", sourceLocation: sourceLocation)
        throw CancellationError()
    } catch let error as FeedParseError {
        return error
    }
}

/// Documents that are not well-formed, each named: every parser must reject them (`MalformedInputTests`).
package enum MalformedDocuments {
    package static let good = Samples.feed([Samples.item(), Samples.item(title: "Second")])

    /// Named malformed documents: every parser must reject them.
    package static let all: [(String, [UInt8])] = [
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
}

extension Array where Element == UInt8 {
    /// The array with the first run of `target` in it replaced by `replacement`.
    package func replacingFirst(_ target: [UInt8], with replacement: [UInt8]) -> [UInt8] {
        guard target.count <= count else { return self }
        for start in 0...(count - target.count) where Array(self[start..<(start + target.count)]) == target {
            return Array(self[..<start]) + replacement + Array(self[(start + target.count)...])
        }
        return self
    }
}
