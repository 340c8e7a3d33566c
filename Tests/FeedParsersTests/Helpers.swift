import BenchEngine
import BenchTestSupport
import FeedParsers
import Foundation
import SongFeed
import Testing

/// The chunk sizes every conformance test runs; `nil` is the whole document in one chunk.
let chunkSizes: [Int?] = [1, 2, 3, 7, 64, 4_096, 16_384, nil]

/// The parsers that can run in this process on any input (Foundation crashes on some, see
/// `FoundationCrashTests`; it runs in-process only on well-formed documents).
let pushParsers = ["libxml2", "expat"]

func parserType(_ name: String) throws -> any SongFeedParser.Type {
    try #require(ParserRegistry.parser(named: name), "no parser named \(name)")
}

func parse(_ name: String, _ text: String, chunkSize: Int? = nil) throws -> [Song] {
    try parserType(name).parse(Array(text.utf8), chunkSize: chunkSize)
}

/// The error a parse throws, or a test failure when it succeeds or throws something else.
func parseError(_ name: String, _ bytes: [UInt8], chunkSize: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> FeedParseError {
    do {
        let songs = try parserType(name).parse(bytes, chunkSize: chunkSize)
        Issue.record("\(name) accepted a malformed document and built \(songs.count) songs", sourceLocation: sourceLocation)
        throw CancellationError()
    } catch let error as FeedParseError {
        return error
    }
}

/// Runs one parser over a document in a worker process, as `bench verify` does.
func verifyInWorker(_ name: String, _ bytes: [UInt8], chunkSizes: [Int] = [0], timeout: Double = 120) throws -> ParserVerdict {
    let directory = try TemporaryDirectory()
    let path = try directory.write("doc.xml", bytes)
    let verification = try FeedVerifier.verify(
        feed: path, parsers: [name], chunkSizes: chunkSizes, executable: TestPaths.benchExecutable, timeout: timeout)
    return verification.verdicts[0]
}
