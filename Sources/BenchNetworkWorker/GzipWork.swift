import BenchResults
import BenchWorker
import FeedParsers
import FeedTransport
import Foundation
import SongFeed

/// The worker's side of the `gzip` scenario (`GzipScenario`, in the engine): what an iteration does.
enum GzipWork {
    /// One iteration, in the worker: the whole feed, compressed when `on`.
    static func fetch(
        on: Bool, parser: any SongFeedParser.Type, url: URL, timeout: Double
    ) throws -> (PagedFetchMeasurement, [Song]) {
        try URLSessionWork.fetchWhole(url, parser: parser, gzip: on, timeout: timeout)
    }
}
