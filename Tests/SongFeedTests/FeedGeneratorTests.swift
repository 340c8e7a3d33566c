import BenchTestSupport
import Foundation
import SongFeed
import Testing

@Suite("FeedGenerator: deterministic synthetic feeds shaped like the real one")
struct FeedGeneratorTests {
    @Test func sameSeedSameBytes() {
        let a = FeedGenerator(songs: 50, seed: 7).generate()
        let b = FeedGenerator(songs: 50, seed: 7).generate()
        #expect(a.bytes == b.bytes)
        #expect(a.songs == b.songs)
        #expect(a.songs.count == 50)
        #expect(FeedGenerator(songs: 50, seed: 8).generate().bytes != a.bytes)
    }

    @Test func committedFeedIsTheGeneratorsOutput() throws {
        let committed = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestPaths.top300)))
        let generated = FeedGenerator(songs: 300, seed: FeedGenerator.defaultSeed).generate()
        #expect(
            committed == generated.bytes,
            "regenerate with: swift run bench generate --songs 300 --output Data/top300.rss.xml")
        #expect((850_000...950_000).contains(committed.count), "size \(committed.count)")
    }

    @Test func dataReadmeGivesTheCommittedSHA256() throws {
        let readme = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("Data/README.md"), encoding: .utf8)
        let committed = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestPaths.top300)))
        let sha = SongDigest.sha256(bytes: committed)
        #expect(readme.contains(sha), "Data/README.md must give the feed's SHA-256 \(sha)")
        #expect(readme.contains("--seed \(FeedGenerator.defaultSeed)"))
    }

    @Test func songsHaveTheVarietyOfRealOnes() {
        let feed = FeedGenerator(songs: 300).generate()
        let text = String(decoding: feed.bytes, as: UTF8.self)
        let songs = feed.songs
        #expect(songs.contains { $0.artist.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) } }, "CJK")
        #expect(songs.contains { $0.artist.contains("é") || $0.album.contains("é") }, "accents")
        #expect(songs.contains { $0.title.contains("&") }, "ampersand")
        #expect(songs.contains { $0.title.contains("<") }, "less-than")
        #expect(songs.contains { $0.album.contains("℗") } || text.contains("℗"), "℗")
        #expect(songs.contains { $0.category.isEmpty }, "an item without category")
        #expect(songs.contains { $0.releaseDate == nil }, "an item without release date")
        #expect(text.contains("&amp;") && text.contains("&lt;") && text.contains("&#39;"))
        #expect(text.range(of: "&#[0-9]{3,};", options: .regularExpression) != nil, "numeric references to non-ASCII")
        #expect(text.contains("<itms:rights></itms:rights>"), "an empty itms:rights")
    }

    @Test func itemsHaveTheRealFeedsElementsInOrder() throws {
        let generated = String(decoding: FeedGenerator(songs: 3).generate().bytes, as: UTF8.self)
        let expected = [
            "item", "title", "link", "description", "pubDate", "content:encoded", "category", "itms:artist",
            "itms:artistLink", "itms:album", "itms:albumLink", "itms:albumPrice", "itms:coverArt", "itms:coverArt",
            "itms:coverArt", "itms:rights", "itms:releasedate",
        ]
        #expect(Self.itemTags(generated).first == expected)
        if let real = TestPaths.realITunesFeed {
            let text = try String(contentsOfFile: real, encoding: .utf8)
            #expect(Self.itemTags(text).first == expected, "the real 2012 feed's first item")
        }
        #expect(generated.contains("<![CDATA[<TABLE"))
        #expect(generated.contains("xmlns:itms=\"http://phobos.apple.com/rss/1.0/modules/itms/\""))
        #expect(generated.contains("<itms:coverArt height=\"100\" width=\"100\">"))
    }

    @Test func itemsAreAboutThreeKilobytes() {
        let bytes = FeedGenerator(songs: 1_000).generate().bytes.count
        #expect((2_700...3_300).contains(bytes / 1_000), "\(bytes / 1_000) bytes an item")
    }

    /// The start tags of each item (outside CDATA), in order.
    static func itemTags(_ text: String) -> [[String]] {
        var items: [[String]] = []
        var rest = Substring(text)
        while let start = rest.range(of: "<item>") {
            guard let end = rest.range(of: "</item>", range: start.upperBound..<rest.endIndex) else { break }
            var body = String(rest[start.lowerBound..<end.lowerBound])
            body = body.replacingOccurrences(of: "(?s)<!\\[CDATA\\[.*?\\]\\]>", with: "", options: .regularExpression)
            let names = body.matches(of: /<([A-Za-z:]+)[\s>]/).map { String($0.1) }
            items.append(names)
            rest = rest[end.upperBound...]
        }
        return items
    }
}
