import FeedParsers
import Foundation
import SongFeed
import SongStore

/// The worker's side of the `store` scenario (`StoreScenario`, in the engine): what an iteration does.
package enum StoreWork {
    /// One iteration, in the worker: parses the feed from memory, then writes its songs as the plan
    /// says, into a fresh store at `path`.
    ///
    /// - Parameters:
    ///   - bytes: the feed.
    ///   - parser: the parser.
    ///   - plan: how the songs are written.
    ///   - path: the store's file (created; the caller removes it).
    /// - Returns: the times, the songs and the store's settings.
    /// - Throws: a parse or store error, or a store that does not hold every song.
    package static func store(
        _ bytes: [UInt8], parser: any SongFeedParser.Type, plan: SongStore.Plan, path: String
    ) throws -> (StoreMeasurement, [Song], SongStore.Settings) {
        let parseStart = monotonicNanoseconds()
        let songs = try parser.parse(bytes, chunkSize: 16_384)
        let parseNs = Int(monotonicNanoseconds() - parseStart)
        // Untimed: a fresh database and its table, and the songs put in the plan's order.
        let queue = try SongStore.create(at: path, plan: plan, songs: songs.count)
        let ordered = SongStore.ordered(songs, plan: plan)
        let storeStart = monotonicNanoseconds()
        try SongStore.write(ordered, to: queue, plan: plan)
        let storeNs = Int(monotonicNanoseconds() - storeStart)
        let written = try SongStore.count(queue)
        guard written == songs.count else {
            throw VerifyWorkerError(description: "the store holds \(written) songs, not \(songs.count)")
        }
        return (
            StoreMeasurement(parseNs: parseNs, storeNs: storeNs, songs: songs.count), songs,
            try SongStore.settings(queue)
        )
    }
}
