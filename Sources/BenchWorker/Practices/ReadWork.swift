import FeedParsers
import Foundation
import SongFeed
import SongStore

/// The worker's side of the `read` scenario (`ReadScenario`, in the engine): what an iteration does.
package enum ReadWork {
    /// Untimed, once per worker: parses the feed from memory and stocks a fresh store at `path`.
    ///
    /// - Parameters:
    ///   - bytes: the feed.
    ///   - parser: the parser.
    ///   - path: the store's file (created; the caller removes it).
    /// - Returns: the shelf and the parsed songs' digest.
    /// - Throws: a parse or store error.
    package static func shelve(_ bytes: [UInt8], parser: any SongFeedParser.Type, path: String) throws -> (
        SongShelf, String
    ) {
        let songs = try parser.parse(bytes, chunkSize: 16_384)
        return (try SongShelf.stock(songs, at: path), SongDigest.sha256(of: songs))
    }

    /// One iteration: the session's visits from the `first`-th, timed (or counted) whole, then every
    /// song shown checked against the feed's.
    ///
    /// - Parameters:
    ///   - reader: the screens' reader, kept for the worker's life.
    ///   - first: the session's first visit, counted over the worker's life.
    ///   - countingAllocations: count the session's `malloc` calls (the interposer is loaded).
    /// - Returns: the session's figures.
    /// - Throws: a database error, or a screen that showed other songs than the feed's.
    package static func session(_ reader: SongShelfReader, first: Int, countingAllocations: Bool) throws
        -> ReadMeasurement
    {
        let count = SongShelf.visitsPerIteration
        let visits = (first..<first + count).map { reader.shelf.visit($0, choice: reader.choice) }
        var shown: [(key: Int64, song: Song)] = []
        shown.reserveCapacity(count * SongShelf.screenSize)
        let pagesBefore = reader.pagesRead
        let queriesBefore = reader.queries
        if countingAllocations { AllocationCounter.start() }
        let start = monotonicNanoseconds()
        var failure: (any Error)?
        for visit in visits {
            do {
                try reader.show(visit, into: &shown)
            } catch {
                failure = error
                break
            }
        }
        let ns = Int(monotonicNanoseconds() - start)
        let counts = countingAllocations ? AllocationCounter.stop() : nil
        if let failure { throw failure }
        if let wrong = reader.shelf.check(shown, visits: visits) { throw SongShelfError(wrong) }
        return ReadMeasurement(
            visits: count, ns: ns, pagesRead: reader.pagesRead - pagesBefore, queries: reader.queries - queriesBefore,
            allocations: counts)
    }
}
