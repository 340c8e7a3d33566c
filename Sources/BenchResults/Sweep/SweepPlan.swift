/// What a sweep measures: the feed sizes of the scale sweep and the chunk sizes of the chunk sweep.
public struct SweepPlan: Codable, Sendable, Equatable {
    /// Songs of each feed of the scale sweep (each generated, deterministic).
    public var songs: [Int]
    /// The chunk size of the scale sweep.
    public var chunkSize: Int
    /// The chunk sizes of the chunk sweep (0: the whole feed in one call); empty for none.
    public var chunkSizes: [Int]
    /// Songs of the chunk sweep's feed.
    public var chunkSongs: Int
    /// Instructions are counted (callgrind) at the sizes up to this many songs; 0 for none.
    public var instructionsUpToSongs: Int

    public init(songs: [Int], chunkSize: Int, chunkSizes: [Int], chunkSongs: Int, instructionsUpToSongs: Int) {
        self.songs = songs
        self.chunkSize = chunkSize
        self.chunkSizes = chunkSizes
        self.chunkSongs = chunkSongs
        self.instructionsUpToSongs = instructionsUpToSongs
    }
}
