import SongFeed

/// The body of a libFuzzer target for a song parser: a package's own parser held to what the suite's
/// fuzzing holds the built-in adapters to.
///
/// The input's first byte seeds the chunk boundaries (each chunk 1 to 4,096 bytes long) and the rest
/// is the document. The document is pushed to a fresh `parserType` in those chunks, then to another
/// in one chunk. Each parse must end in songs or a ``FeedParseError``, and both in the same: the
/// process traps (a libFuzzer finding) on any other error type, on a document that one chunking
/// accepts and the other refuses, and on songs that differ between the two. A crash or a hang of the
/// parser itself is libFuzzer's to catch.
///
/// A target is one function (see `Examples/AppFeedParser/Fuzz/AppParserFuzzer.swift`, and the DocC
/// article "Measuring your own parser" for the build command):
///
/// ```swift
/// @_cdecl("LLVMFuzzerTestOneInput")
/// public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
///     fuzzSongFeedParser(MyParser.self, input: UnsafeRawBufferPointer(start: data, count: size))
///     return 0
/// }
/// ```
///
/// - Parameters:
///   - parserType: the parser to fuzz.
///   - input: the fuzzer's bytes: a seed byte, then the document.
public func fuzzSongFeedParser(_ parserType: any SongFeedParser.Type, input: UnsafeRawBufferPointer) {
    guard let seed = input.first else { return }
    let document = UnsafeRawBufferPointer(rebasing: input.dropFirst())
    // The chunks cut by the seed, then the whole document as one.
    let cuts = fuzzChunks(count: document.count, seed: seed)
    var outcomes: [Result<[Song], FeedParseError>] = []
    for chunks in [cuts, [0..<document.count]] {
        do {
            var parser = try parserType.init(onSong: nil)
            for range in chunks { try parser.consume(UnsafeRawBufferPointer(rebasing: document[range])) }
            outcomes.append(.success(try parser.finishParsing() ?? parser.finish()))
        } catch let error as FeedParseError {
            outcomes.append(.failure(error))
        } catch {
            fatalError("\(parserType.name) threw \(type(of: error)), not a FeedParseError: \(error)")
        }
    }
    switch (outcomes[0], outcomes[1]) {
    case (.success(let chunked), .success(let whole)) where chunked != whole:
        fatalError(
            "\(parserType.name) built other songs from the document in \(cuts.count) chunks (\(chunked.count) songs) "
                + "than in one (\(whole.count) songs)")
    case (.success, .failure(let error)), (.failure(let error), .success):
        let refused = outcomes[0].isSuccess ? "one chunk" : "\(cuts.count) chunks"
        fatalError("\(parserType.name) refused the document in \(refused) only: \(error)")
    default:
        break
    }
}

extension Result {
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}

/// A document of `count` bytes cut into chunks of 1 to 4,096 bytes by `seed` (xorshift): the same
/// cuts for every parser, here and in the suite's own fuzzer (Fuzz/FeedParserFuzzer.swift).
package func fuzzChunks(count: Int, seed: UInt8) -> [Range<Int>] {
    var state = UInt32(seed) &* 2_654_435_761 | 1
    var cuts: [Range<Int>] = []
    var offset = 0
    while offset < count {
        state ^= state << 13
        state ^= state >> 17
        state ^= state << 5
        let length = min(count - offset, Int(state % 4_096) + 1)
        cuts.append(offset..<(offset + length))
        offset += length
    }
    return cuts
}
