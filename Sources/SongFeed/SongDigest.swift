/// A SHA-256 digest of a list of songs, to tell at a glance whether two parsers built the same ones.
///
/// The digest is taken over a canonical encoding that cannot be ambiguous: for each song in order,
/// each field in the order of ``Song/fieldNames`` is written as its UTF-8 byte count in decimal, a
/// colon, then its UTF-8 bytes; `releaseDate` is written as "YYYY-MM-DD", or as `-` when it is `nil`.
/// Each song ends with a newline. The digest of no songs is the SHA-256 of no bytes.
package enum SongDigest {
    /// The lowercase hexadecimal SHA-256 of the canonical encoding of `songs`.
    package static func sha256(of songs: [Song]) -> String {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(songs.count * 128)
        for song in songs {
            for field in [song.title, song.category, song.artist, song.album] {
                buffer.append(contentsOf: String(field.utf8.count).utf8)
                buffer.append(UInt8(ascii: ":"))
                buffer.append(contentsOf: field.utf8)
            }
            buffer.append(contentsOf: (song.releaseDate?.description ?? "-").utf8)
            buffer.append(UInt8(ascii: "\n"))
        }
        return SHA256Digest.hex(of: buffer)
    }

    /// The lowercase hexadecimal SHA-256 of raw bytes (a feed file, say).
    package static func sha256<Bytes: Sequence>(bytes: Bytes) -> String where Bytes.Element == UInt8 {
        SHA256Digest.hex(of: Array(bytes))
    }
}
