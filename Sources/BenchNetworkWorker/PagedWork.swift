import BenchResults
import BenchWorker
import FeedParsers
import FeedTransport
import Foundation
import SongFeed

/// The worker's side of the `paged` scenario (`PagedScenario`, in the engine): what an iteration does.
enum PagedWork {
    /// One iteration, in the worker: the first page, then every next link.
    static func fetch(
        pageSize: Int, parser: any SongFeedParser.Type, url: URL, timeout: Double
    ) throws -> (PagedFetchMeasurement, [Song]) {
        let first = PagedFetch.pageURLs(url, entries: 1, pageSize: pageSize)[0]
        return try PagedFetch.followingNextLinks(
            from: first, parser: parser, downloader: FeedDownloader(timeout: timeout))
    }
}
