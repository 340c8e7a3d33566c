// A libFuzzer target for the app's parser: a template to copy into your package (not built by SwiftPM:
// libFuzzer brings its own `main`). README.md has the command that builds and runs it.
//
// Each input is a seed byte (the chunk boundaries) and a document; `fuzzSongFeedParser` pushes the
// document to the parser in those chunks and in one, and traps (a finding) on anything but songs or a
// `FeedParseError`, and on a document whose songs or verdict depend on the chunking. FUZZ_PARSER=NAME
// fuzzes a built-in adapter instead (libxml2, expat…), to compare.
import FeedParsers
import Foundation

/// The parser under test: the app's, or the built-in one FUZZ_PARSER names.
let fuzzedParser: any SongFeedParser.Type =
    ProcessInfo.processInfo.environment["FUZZ_PARSER"].flatMap { ParserRegistry.parser(named: $0) }
    ?? AppFeedParser.self

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzSongFeedParser(fuzzedParser, input: UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
