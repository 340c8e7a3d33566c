import BenchTestSupport
import FeedParsers
import Foundation
import ParserTestSupport
import SongFeed
import Testing

@Suite("Every parser builds the same songs")
struct ConformanceTests {
    static let groundTruth = FeedGenerator(songs: 300).generate()

    @Test("Data/top300.rss.xml gives the generator's songs", arguments: songParserChunks)
    func committedFeed(parser: String, chunkSize: Int?) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestPaths.top300)))
        let songs = try parserType(parser).parse(bytes, chunkSize: chunkSize)
        #expect(songs.count == 300)
        if songs != Self.groundTruth.songs {
            let difference = OutputDifference.first(
                songs, Self.groundTruth.songs, parser: parser, reference: "generator")
            Issue.record("\(difference)")
        }
    }

    @Test(
        "The real 2012 iTunes feed",
        .enabled(if: TestPaths.hasSharedData, Comment(rawValue: TestPaths.sharedDataMissing)),
        arguments: songParserChunks)
    func realFeed(parser: String, chunkSize: Int?) throws {
        let path = try #require(TestPaths.realITunesFeed)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let songs = try parserType(parser).parse(bytes, chunkSize: chunkSize)
        #expect(songs.count == 100)
        let first = try #require(songs.first)
        #expect(first.title == "Harakiri (Deluxe Version) - Serj Tankian")
        #expect(first.artist == "Serj Tankian")
        #expect(first.album == "Harakiri (Deluxe Version)")
        #expect(first.category == "Rock")
        #expect(first.releaseDate == SongDate(year: 2012, month: 7, day: 10))
        #expect(songs.contains { $0.title == "There's No Leaving Now - The Tallest Man On Earth" }, "&#39; decoded")
        #expect(songs.contains { $0.category == "R&B/Soul" }, "&amp; decoded")
        #expect(songs.allSatisfy { $0.releaseDate != nil })
        // The reference is expat with the whole feed; every parser and chunk size must match it.
        let reference = try ExpatFeedParser.parse(bytes)
        #expect(songs == reference)
    }

    @Test(
        "The real 2013 iTunes Atom feed: 10 entries, the im: fields and the category's term",
        .enabled(if: TestPaths.hasSharedData, Comment(rawValue: TestPaths.sharedDataMissing)),
        arguments: songParserChunks)
    func realAtomFeed(parser: String, chunkSize: Int?) throws {
        let path = try #require(TestPaths.realITunesAtomFeed)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let songs = try parserType(parser).parse(bytes, chunkSize: chunkSize)
        // The entries are albums: im:name is the title, and there is no im:collection (no album).
        #expect(
            songs.first
                == Song(
                    title: "The Gifted", category: "Hip Hop/Rap", artist: "Wale", album: "",
                    releaseDate: SongDate(year: 2013, month: 6, day: 24)))
        #expect(songs.map(\.title).contains("Rescue & Restore"), "&amp; decoded")
        #expect(songs.map(\.category).contains("R&B/Soul"), "&amp; in the term attribute decoded")
        #expect(songs.count == 10 && songs.allSatisfy { $0.releaseDate != nil && !$0.artist.isEmpty })
        #expect(songs == (try ExpatFeedParser.parse(bytes)))
    }

    /// The album is an `im:name` directly inside the entry's `im:collection` only: not one nested
    /// deeper in it, nor one inside another child that comes after the collection.
    @Test("An Atom album comes from im:collection's own im:name", arguments: songParsers)
    func atomAlbumOnlyFromTheCollection(parser: String) throws {
        let document = """
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:im="http://itunes.apple.com/rss"><entry>\
            <im:collection><im:name>Album</im:name><link><im:name>deeper</im:name></link></im:collection>\
            <link><im:name>not an album</im:name></link><im:name>Song</im:name></entry></feed>
            """
        let songs = try parserType(parser).parse(Array(document.utf8), chunkSize: 7)
        #expect(songs.map(\.album) == ["Album"])
        #expect(songs.map(\.title) == ["Song"])
    }

    static let atomGroundTruth = FeedGenerator(songs: 300, format: .atom).generate()

    @Test("The generator's Atom form gives the same songs as its RSS form", arguments: songParserChunks)
    func generatedAtomFeed(parser: String, chunkSize: Int?) throws {
        let songs = try parserType(parser).parse(Self.atomGroundTruth.bytes, chunkSize: chunkSize)
        #expect(Self.atomGroundTruth.songs == Self.groundTruth.songs)
        if songs != Self.groundTruth.songs {
            let difference = OutputDifference.first(
                songs, Self.groundTruth.songs, parser: parser, reference: "generator")
            Issue.record("\(difference)")
        }
    }

    @Test("Songs are delivered as they complete", arguments: songParsers)
    func songsAreDeliveredInOrder(parser: String) throws {
        var delivered: [Song] = []
        let songs = try parserType(parser).parse(Self.groundTruth.bytes, chunkSize: 16_384) { delivered.append($0) }
        #expect(delivered == songs)
        #expect(delivered == Self.groundTruth.songs)
    }

    @Test("A push parser delivers the first song before the document ends", arguments: pushParsers)
    func pushParsersStream(parser: String) throws {
        var firstSongAtChunk: Int?
        var chunk = 0
        var count = 0
        var counting = try parserType(parser).init { _ in count += 1 }
        try Self.groundTruth.bytes.withUnsafeBytes { all in
            var offset = 0
            while offset < all.count {
                let end = min(offset + 16_384, all.count)
                try counting.consume(UnsafeRawBufferPointer(rebasing: all[offset..<end]))
                chunk += 1
                if count > 0 && firstSongAtChunk == nil { firstSongAtChunk = chunk }
                offset = end
            }
        }
        let totalChunks = chunk
        let songs = try counting.finish()
        #expect(songs.count == 300)
        let first = try #require(firstSongAtChunk)
        #expect(first <= 2, "first song after chunk \(first) of \(totalChunks)")
    }

    /// `foundation-stream` is not among them: it parses on a thread of its own as the chunks arrive
    /// (`FoundationStreamTests`), so whether a song has come when `consume` returns is a race.
    @Test(
        "The other parsers parse once the document is complete",
        arguments: songParsers.filter { !pushParsers.contains($0) && $0 != FoundationStreamFeedParser.name })
    func othersWaitForTheWholeDocument(parser: String) throws {
        var count = 0
        var instance = try parserType(parser).init { _ in count += 1 }
        try Self.groundTruth.bytes.withUnsafeBytes { try instance.consume($0) }
        #expect(count == 0)
        #expect(try instance.finish().count == 300)
        #expect(count == 300)
    }

    @Test("The harness's first-song signal comes once per song", arguments: songParsers)
    func songEndedSignal(parser: String) throws {
        var ended = 0
        var instance = try parserType(parser).init(songEnded: SongEndSignal { ended += 1 })
        try Self.groundTruth.bytes.withUnsafeBytes { try instance.consume($0) }
        var songs = try instance.finishParsing()
        if songs == nil { songs = try instance.finish() }
        #expect(ended == 300)
        #expect(songs == Self.groundTruth.songs)
    }

    @Test(
        "A C reference ends its parse with the fields in C, and makes the songs after",
        arguments: ["c-libxml2", "c-expat"])
    func cReferenceMakesSongsAfterTheParse(parser: String) throws {
        var instance = try parserType(parser).init(songEnded: SongEndSignal {})
        try Self.groundTruth.bytes.withUnsafeBytes { try instance.consume($0) }
        let pending = try instance.finishParsing()
        #expect(pending == nil)
        let songs = try instance.finish()
        #expect(songs == Self.groundTruth.songs)
        #expect(throws: FeedParseError.self) { try instance.finish() }
    }

    @Test("The memchr floor counts every '<' and builds no songs")
    func floorCountsTags() throws {
        let floor = try MemchrFloorParser(onSong: nil)
        try Self.groundTruth.bytes.withUnsafeBytes { all in
            for start in stride(from: 0, to: all.count, by: 1_000) {
                try floor.consume(UnsafeRawBufferPointer(rebasing: all[start..<min(start + 1_000, all.count)]))
            }
        }
        #expect(floor.tagCount == Self.groundTruth.bytes.filter { $0 == UInt8(ascii: "<") }.count)
        #expect(try floor.finish().isEmpty)
        #expect(!MemchrFloorParser.buildsSongs)
        #expect(MemchrFloorParser.kind == .floor)
    }

    /// The protocols take a value: the `null` baseline is a struct, so that its parse allocates
    /// nothing of its own (its allocation count, 0, is in `AllocationCountTests`).
    @Test("The null baseline is a value that takes the chunks, through either protocol")
    func nullBaselineIsAValue() throws {
        let baseline: Any.Type = NullFeedParser.self
        #expect(!(baseline is AnyClass), "NullFeedParser must stay a struct (no allocation of its own)")
        #expect(ParserRegistry.baseline is NullFeedParser.Type)
        #expect(ParserRegistry.documentBaseline is NullFeedParser.Type)
        var parser = try NullFeedParser(onSong: nil)
        try Self.groundTruth.bytes.withUnsafeBytes { try parser.consume($0, inChunksOf: 1_000) }
        // A copy carries on from where it was copied; the parser itself is not shared.
        var copy = parser
        #expect(try copy.finish().isEmpty)
        #expect(parser.consumedBytes == Self.groundTruth.bytes.count)
        #expect(try parser.finish().isEmpty)
        #expect(throws: FeedParseError.self) { try parser.finish() }
        #expect(throws: FeedParseError.self) { try Self.groundTruth.bytes.withUnsafeBytes { try parser.consume($0) } }
        // Through the existentials the engine uses, as the measuring worker does.
        var songs: any SongFeedParser = try ParserRegistry.baseline.init(onSong: nil)
        try Self.groundTruth.bytes.withUnsafeBytes { try songs.consume($0, inChunksOf: 4_096) }
        #expect(try songs.finishParsing() == [])
        let sink = try DocumentSink()
        try NullFeedParser.walk(Self.groundTruth.bytes, chunkSize: 4_096, into: sink)
        #expect(sink.eventCount == 0)
    }

    @Test("Every parser has a kind, and the adapters with a C reference name one that exists")
    func kindsAndReferences() {
        for parser in ParserRegistry.all {
            if let reference = parser.cReference {
                #expect(ParserRegistry.parser(named: reference)?.kind == .reference, "\(parser.name)")
            }
        }
        #expect(LibXML2FeedParser.cReference == "c-libxml2")
        #expect(ExpatFeedParser.cReference == "c-expat")
        #expect(Set(ParserRegistry.defaultNames).isSubset(of: Set(ParserRegistry.names)))
        #expect(Set(ParserRegistry.names).count == ParserRegistry.names.count)
    }
}
