import Crypto

/// A SHA-256 digest of a list of songs, to tell at a glance whether two parsers built the same ones.
///
/// The digest is taken over a canonical encoding that cannot be ambiguous: for each song in order,
/// each field in the order of ``Song/fieldNames`` is written as its UTF-8 byte count in decimal, a
/// colon, then its UTF-8 bytes; `releaseDate` is written as "YYYY-MM-DD", or as `-` when it is `nil`.
/// Each song ends with a newline. The digest of no songs is the SHA-256 of no bytes.
package enum SongDigest {
    /// The lowercase hexadecimal SHA-256 of the canonical encoding of `songs`.
    package static func sha256(of songs: [Song]) -> String {
        var hasher = SHA256()
        var buffer: [UInt8] = []
        buffer.reserveCapacity(512)
        for song in songs {
            buffer.removeAll(keepingCapacity: true)
            for field in [song.title, song.category, song.artist, song.album] {
                buffer.append(contentsOf: String(field.utf8.count).utf8)
                buffer.append(UInt8(ascii: ":"))
                buffer.append(contentsOf: field.utf8)
            }
            buffer.append(contentsOf: (song.releaseDate?.description ?? "-").utf8)
            buffer.append(UInt8(ascii: "\n"))
            hasher.update(data: buffer)
        }
        return hex(hasher.finalize())
    }

    /// The lowercase hexadecimal SHA-256 of raw bytes (a feed file, say).
    package static func sha256<Bytes: Sequence>(bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(data: Array(bytes))
        return hex(hasher.finalize())
    }

    private static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
