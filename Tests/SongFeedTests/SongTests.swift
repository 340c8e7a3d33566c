import Foundation
import SongFeed
import Testing

@Suite("Song: JSON form and digest")
struct SongTests {
    let song = Song(
        title: "Harakiri - Serj Tankian", category: "Rock", artist: "Serj Tankian", album: "Harakiri",
        releaseDate: SongDate(year: 2012, month: 7, day: 10))

    @Test func jsonHasTheFiveKeysAndAnISODate() throws {
        let data = try JSONEncoder().encode([song])
        let objects = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(objects.count == 1)
        #expect(Set(objects[0].keys) == ["title", "category", "artist", "album", "releaseDate"])
        #expect(objects[0]["releaseDate"] as? String == "2012-07-10")
    }

    @Test func jsonWritesAMissingDateAsNull() throws {
        var undated = song
        undated.releaseDate = nil
        let text = String(decoding: try JSONEncoder().encode(undated), as: UTF8.self)
        #expect(text.contains("\"releaseDate\":null"))
        #expect(try JSONDecoder().decode(Song.self, from: Data(text.utf8)) == undated)
    }

    @Test func jsonRoundTrips() throws {
        let songs = [song, Song(title: "東京 & <3", category: "", artist: "Beyoncé", album: "℗", releaseDate: nil)]
        #expect(try JSONDecoder().decode([Song].self, from: JSONEncoder().encode(songs)) == songs)
    }

    @Test func digestIsStableAndSensitiveToEveryField() {
        let base = SongDigest.sha256(of: [song])
        #expect(base == SongDigest.sha256(of: [song]))
        #expect(base.count == 64)
        var changed: [Song] = []
        for keyPath in [\Song.title, \Song.category, \Song.artist, \Song.album] as [WritableKeyPath<Song, String>] {
            var copy = song
            copy[keyPath: keyPath] += "x"
            changed.append(copy)
        }
        var undated = song
        undated.releaseDate = nil
        changed.append(undated)
        let digests = Set(changed.map { SongDigest.sha256(of: [$0]) })
        #expect(digests.count == changed.count)
        #expect(!digests.contains(base))
        #expect(SongDigest.sha256(of: [song, undated]) != SongDigest.sha256(of: [undated, song]))
    }

    @Test func digestEncodingIsUnambiguous() {
        let a = Song(title: "ab", category: "c", artist: "", album: "", releaseDate: nil)
        let b = Song(title: "a", category: "bc", artist: "", album: "", releaseDate: nil)
        #expect(SongDigest.sha256(of: [a]) != SongDigest.sha256(of: [b]))
    }

    @Test func sha256OfBytesMatchesAKnownVector() {
        #expect(
            SongDigest.sha256(bytes: Array("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SongDigest.sha256(of: []) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        // FIPS 180-2's long vector: a million "a", many blocks through one context.
        #expect(
            SongDigest.sha256(bytes: [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
