import BenchResults
import BenchWorker
import FeedParsers
import FeedTransport
import Foundation
import SongFeed

/// The worker's side of the `queue` scenario (`QueueScenario`, in the engine): what an iteration does.
enum QueueWork {
    /// One iteration, in the worker: every page of `pageSize` songs, `width` requests at once;
    /// with `cancel`, all of them cancelled once the first page's songs are in.
    static func fetch(
        width: Int, pageSize: Int, cancel: Bool, parser: any SongFeedParser.Type, url: URL, entries: Int,
        timeout: Double
    ) throws -> (PagedFetchMeasurement, [Song]) {
        try PagedFetch.queued(
            PagedFetch.pageURLs(url, entries: entries, pageSize: pageSize), parser: parser, maxConcurrent: width,
            cancelAfterFirstPage: cancel, timeout: timeout)
    }
}
