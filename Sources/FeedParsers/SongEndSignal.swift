import SongFeed

/// What the benchmark gives a parser to learn when each song ends, made once before the clocks start:
/// the moment alone (``ended``), and the same as a song callback (``onSong``) for the parsers that
/// call one anyway.
public final class SongEndSignal: @unchecked Sendable {
    /// Called as each song's item ends.
    public let ended: () -> Void
    /// Calls ``ended``, whatever the song.
    public let onSong: (Song) -> Void

    public init(_ ended: @escaping () -> Void) {
        self.ended = ended
        onSong = { _ in ended() }
    }
}
