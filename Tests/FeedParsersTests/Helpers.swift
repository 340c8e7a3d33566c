import BenchEngine
import BenchTestSupport
import FeedParsers
import Foundation
import SongFeed
import Testing

/// The chunk sizes a document is pushed in by the conformance tests; `nil` is the whole document
/// in one chunk.
let chunkSizes: [Int?] = [1, 2, 3, 7, 64, 4_096, 16_384, nil]

/// The parsers that build songs (all but the `memchr` floor); asked of the registry each time, as
/// metatypes are not `Sendable` to keep in a global.
var songParserTypes: [any SongFeedParser.Type] { ParserRegistry.all.filter { $0.buildsSongs } }

/// Their names.
let songParsers = songParserTypes.map { $0.name }

/// Each song parser with the chunk sizes a conformance test pushes a document in: every size for a
/// parser that reads the chunks as they come; for one that gathers them and parses the document
/// once (`GathersWholeDocument`), 1 byte and the whole document, as every other size parses the
/// same gathered bytes again.
let songParserChunks: [(String, Int?)] = songParserTypes.flatMap { parser in
    (parser is any GathersWholeDocument.Type ? [1, nil] : chunkSizes).map { (parser.name, $0) }
}

/// The parsers built on Foundation's `XMLParser`, which share its crashes on Linux (see
/// `FoundationCrashTests`): they run in this process only on well-formed documents.
let foundationBasedParsers = ["foundation", "foundation-stream", "xmlcoder", "swxmlhash"]

/// The parsers that can run in this process on any input.
let inProcessParsers = songParsers.filter { !foundationBasedParsers.contains($0) }

/// The parsers that consume the bytes as they arrive (and may be given a document piece by piece
/// on any input): the SAX adapters and their C references.
let pushParsers = ["libxml2", "expat", "c-libxml2", "c-expat"]

/// Where an adapter cannot do what the contract of `SongFeedParser` asks, as its summary says: the
/// variant tests pin that it gives other songs there (so that a change is noticed), instead of
/// leaving it out.
enum KnownDeviation {
    /// Matches elements by local name, not namespace URI (XMLCoder's keys, SWXMLHash's names).
    static let localNamesOnly: Set<String> = ["xmlcoder", "swxmlhash"]
    /// Takes a field's own character data only, not that of elements nested in it.
    static let ownTextOnly: Set<String> = ["xmlcoder", "swxmlhash"]
    /// Keeps only part of a field's text when comments or CDATA sections split it.
    static let splitTextCut: Set<String> = ["xmlcoder"]
    /// Does not expand entities declared in an internal DTD.
    static let noDTDEntities: Set<String> = ["libxml2-reader"]
    /// Fails a document whose DTD references a parameter entity (`%p;`), whatever the entity.
    ///
    /// Foundation's SAX handler on Linux has no `getParameterEntity`, so libxml2 finds none, declared
    /// or not, internal or external ("PEReference not found", XML_ERR_UNDECLARED_ENTITY, 26).
    /// SWXMLHash does not report the error.
    static let noParameterEntities: Set<String> = ["foundation", "foundation-stream", "xmlcoder"]
    /// Malformed documents a parser accepts (by the names of `MalformedInputTests.malformed`):
    /// XMLCoder stops reading at the end of the root element and ignores XMLParser's namespace errors.
    static let acceptsMalformed: [String: Set<String>] = ["xmlcoder": ["unbound prefix", "two root elements"]]
    /// Does not report a malformed document: returns the songs read before the error.
    static let errorsNotDetected: Set<String> = ["swxmlhash"]
    /// Has no bound of its own on a field's text while parsing: it checks the limit once the
    /// library hands over the whole text (trees and decoders hold the document anyway).
    static let fieldLimitAfterParse: Set<String> = ["libxml2-dom", "xmlcoder", "swxmlhash"]
}

func parserType(_ name: String) throws -> any SongFeedParser.Type {
    try #require(ParserRegistry.parser(named: name), "no parser named \(name)")
}

func parse(_ name: String, _ text: String, chunkSize: Int? = nil) throws -> [Song] {
    try parserType(name).parse(Array(text.utf8), chunkSize: chunkSize)
}

/// The error a parse throws, or a test failure when it succeeds or throws something else.
func parseError(
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

/// Runs one parser over a document in a worker process, as `bench verify` does.
func verifyInWorker(_ name: String, _ bytes: [UInt8], chunkSizes: [Int] = [0], timeout: Double = 120) throws
    -> ParserVerdict
{
    let directory = try TemporaryDirectory()
    let path = try directory.write("doc.xml", bytes)
    let verification = try FeedVerifier.verify(
        feed: path, parsers: [name], chunkSizes: chunkSizes, executable: TestPaths.workerExecutable, timeout: timeout)
    return verification.verdicts[0]
}
