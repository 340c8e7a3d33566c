// A libFuzzer target for the app's parser: a template to copy into your package's Fuzz/ (not built by
// SwiftPM: libFuzzer brings its own `main`). `swift package --allow-writing-to-package-directory
// fuzz-parser --target AppParsers` builds and runs it (README.md).
//
// Each input is a seed byte (the chunk boundaries) and a document; `fuzzSongFeedParser` pushes the
// document to the parser in those chunks and in one, and traps (a finding) on anything but songs or a
// `FeedParseError`, and on a document whose songs or verdict depend on the chunking.
import FeedParsers

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzSongFeedParser(AppFeedParser.self, input: UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
