import BenchResults
import BenchWorker
import FeedParsers
import Foundation
import SongFeed

/// The worker's side of the `cancel` scenario (`CancelScenario`, in the engine): what an iteration does.
enum CancelWork {
    /// Before the iterations, in the worker: the whole uncancelled fetch, whose digest is the
    /// worker's and whose first page the cancelled fetches must keep.
    static func firstPage(
        width: Int, pageSize: Int, parser: any SongFeedParser.Type, url: URL, entries: Int, timeout: Double
    ) throws -> (digest: String, firstPage: [Song]) {
        let whole = try QueueWork.fetch(
            width: width, pageSize: pageSize, cancel: false, parser: parser, url: url, entries: entries,
            timeout: timeout)
        return (SongDigest.sha256(of: whole.1), Array(whole.1.prefix(pageSize)))
    }
}
