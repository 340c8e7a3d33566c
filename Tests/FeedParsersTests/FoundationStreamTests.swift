import Foundation
import SongFeed
import Testing

@testable import FeedParsers

/// `foundation-stream` parses on a thread of its own as the chunks arrive: its songs come before the
/// document ends, its stream holds a bounded number of bytes, and nothing waits for ever.
@Suite("Foundation over a stream")
struct FoundationStreamTests {
    /// Songs built from the first half of a feed before the second half is pushed: the parse streams.
    @Test func songsComeBeforeTheDocumentEnds() throws {
        let feed = FeedGenerator(songs: 200, seed: 7).generate()
        let seen = SongCount()
        var parser = try FoundationStreamFeedParser(onSong: { _ in seen.add() })
        let half = feed.bytes.count / 2
        try feed.bytes.withUnsafeBytes { all in
            try parser.consume(UnsafeRawBufferPointer(rebasing: all[..<half]), inChunksOf: 4_096)
        }
        // The parse thread reads what was pushed; wait (at most TestWaits.condition) until it has built a song.
        let deadline = Date().addingTimeInterval(60)
        while seen.value == 0 && Date() < deadline { usleep(1_000) }
        #expect(seen.value > 0, "no song before the second half was pushed: the parse does not stream")
        #expect(seen.value < feed.songs.count)
        try feed.bytes.withUnsafeBytes { all in
            try parser.consume(UnsafeRawBufferPointer(rebasing: all[half...]), inChunksOf: 4_096)
        }
        #expect(try parser.finish() == feed.songs)
        #expect(seen.value == feed.songs.count)
    }

    /// A malformed document's error, with its position, at `finish()`; every later call throws it too.
    @Test func aMalformedDocumentFailsAtItsEnd() throws {
        let parser = try FoundationStreamFeedParser(onSong: nil)
        let bytes = Array("<rss><channel><item><title>x</titl></item></channel></rss>".utf8)
        try bytes.withUnsafeBytes { try parser.consume($0) }
        let error = try #require(throws: FeedParseError.self) { try parser.finish() }
        #expect(error.parser == "foundation-stream")
        #expect(error.line == 1)
        #expect(throws: FeedParseError.self) { try bytes.withUnsafeBytes { try parser.consume($0) } }
    }

    /// `XMLParser(data:)` refuses a document over 10,000,000 bytes with an internal error at its end;
    /// the error says so, and the streaming adapter parses the same document.
    @Test func theSizeLimitOfTheWholeDocumentParserIsExplained() throws {
        let document = DocumentShape.wide.generate(bytes: FoundationReader.sizeLimit + 1)
        let whole = #expect(throws: FeedParseError.self) {
            try FoundationReader.walk(Data(document), into: try DocumentSink())
        }
        #expect(
            whole?.message.contains("refuses documents over 10000000 bytes") == true, "\(String(describing: whole))")
        #expect(whole?.parser == FoundationFeedParser.name && (whole?.line ?? 0) > 1)
        var streamed = try FoundationStreamFeedParser(sink: try DocumentSink())
        try document.withUnsafeBytes { try streamed.consume($0, inChunksOf: 65_536) }
        _ = try streamed.finish()
    }

    /// Misuse is an error, not a hang: a chunk after the end, a second end.
    @Test func misuseIsAnError() throws {
        let parser = try FoundationStreamFeedParser(onSong: nil)
        let bytes = Array("<rss><channel></channel></rss>".utf8)
        try bytes.withUnsafeBytes { try parser.consume($0) }
        #expect(try parser.finish().isEmpty)
        #expect(throws: FeedParseError.self) { try bytes.withUnsafeBytes { try parser.consume($0) } }
        #expect(throws: FeedParseError.self) { try parser.finish() }
    }

    /// The stream takes at most its capacity unread (a push then waits for the reader), a chunk
    /// larger than the capacity when nothing is unread, and returns 0 once ended and read.
    @Test func theStreamIsBounded() throws {
        nonisolated(unsafe) let stream = ChunkInputStream(capacity: 8)
        let pushed = SongCount()
        let writer = Thread {
            for byte in UInt8(0)..<UInt8(20) {
                withUnsafeBytes(of: byte) { stream.append($0) }
                pushed.add()
            }
            let big = [UInt8](repeating: 7, count: 100)
            big.withUnsafeBytes { stream.append($0) }
            pushed.add()
            stream.endInput()
        }
        writer.start()
        let deadline = Date().addingTimeInterval(60)
        while pushed.value < 8 && Date() < deadline { usleep(1_000) }
        usleep(50_000)
        #expect(pushed.value == 8, "the writer pushed past the capacity with nothing read")
        var read: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16)
        while true {
            let count = buffer.withUnsafeMutableBufferPointer { stream.read($0.baseAddress!, maxLength: $0.count) }
            if count == 0 { break }
            read += buffer[..<count]
        }
        #expect(read == Array(0..<20) + [UInt8](repeating: 7, count: 100))
        #expect(stream.streamStatus == .atEnd)
    }

    /// A reader that stopped does not leave a writer waiting.
    @Test func aStoppedReaderReleasesTheWriter() {
        let stream = ChunkInputStream(capacity: 4)
        let bytes: [UInt8] = [1, 2, 3, 4]
        bytes.withUnsafeBytes { stream.append($0) }
        stream.readerFinished()
        // Would wait for ever if the reader's end did not release it.
        bytes.withUnsafeBytes { stream.append($0) }
        stream.endInput()
        var buffer = [UInt8](repeating: 0, count: 8)
        let count = buffer.withUnsafeMutableBufferPointer { stream.read($0.baseAddress!, maxLength: $0.count) }
        #expect(count == 0, "the bytes pushed after the reader's end were kept")
    }
}

/// A counter written by one thread and read by another.
private final class SongCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    func add() { lock.withLock { count += 1 } }
}
