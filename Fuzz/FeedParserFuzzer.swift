// libFuzzer target over the push protocol of the suite's adapters (built by scripts/fuzz.sh, not by
// SwiftPM: libFuzzer brings its own `main`).
//
// Each input is split into a document and chunk boundaries: its first byte seeds the boundaries
// (each chunk 1 to 4,096 bytes long), the rest is the document. The adapter named by FUZZ_PARSER is
// fed the document chunk by chunk and must end in songs or a `FeedParseError`: a crash, a hang
// (libFuzzer's -timeout) or an unexpected error type is a finding. With FUZZ_PARSER=libxml2-vs-expat,
// both run and must build the same songs whenever both accept the document.
import FeedParsers
import Foundation
import SongFeed

/// The adapter under test, read once.
let fuzzedParser: String = ProcessInfo.processInfo.environment["FUZZ_PARSER"] ?? "libxml2"

/// The document pushed to `type` in chunks cut by `seed`.
func parse(_ parserType: any SongFeedParser.Type, _ document: UnsafeRawBufferPointer, seed: UInt8) -> Result<
    [Song], FeedParseError
>? {
    var state = UInt32(seed) &* 2_654_435_761 | 1
    do {
        let parser = try parserType.init(onSong: nil)
        var offset = 0
        while offset < document.count {
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            let length = min(document.count - offset, Int(state % 4_096) + 1)
            try parser.consume(UnsafeRawBufferPointer(rebasing: document[offset..<(offset + length)]))
            offset += length
        }
        let songs = try parser.finishParsing() ?? parser.finish()
        return .success(songs)
    } catch let error as FeedParseError {
        return .failure(error)
    } catch {
        fatalError("\(parserType.name) threw \(type(of: error)), not a FeedParseError: \(error)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let document = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    let seed = data[0]
    if fuzzedParser == "libxml2-vs-expat" {
        guard let libxml2 = ParserRegistry.parser(named: "libxml2"), let expat = ParserRegistry.parser(named: "expat"),
            case .success(let a)? = parse(libxml2, document, seed: seed),
            case .success(let b)? = parse(expat, document, seed: seed)
        else { return 0 }
        // Known, pinned in the tests (KnownLibraryDifferences): libxml2 2.9's push parser leaves
        // carriage returns in CDATA sections as they are, where expat (and libxml2's pull parser)
        // read them as line feeds, as XML 1.0 §2.11 asks. Found by this target; compared folded.
        func folded(_ songs: [Song]) -> [[String]] {
            songs.map {
                $0.fieldValues.map {
                    $0.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
                }
            }
        }
        if folded(a) != folded(b) {
            let index = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
            fatalError(
                "libxml2 and expat disagree at song \(index + 1): \(a.count) vs \(b.count) songs; "
                    + "\(index < a.count ? "\(a[index])" : "none") vs \(index < b.count ? "\(b[index])" : "none")")
        }
        return 0
    }
    guard let type = ParserRegistry.parser(named: fuzzedParser) else {
        fatalError("FUZZ_PARSER: no parser named \(fuzzedParser)")
    }
    _ = parse(type, document, seed: seed)
    return 0
}
