import FeedParsers
import FeedTransport
import Foundation
import SongFeed

/// `paged`: the feed in pages of N songs, following the next links from the first page to the end.
///
/// One cell per page size of the plan (`paged-25`, `paged-100`, `paged-300`).
struct PagedScenario: PracticeScenario {
    func practices(in plan: RunPlan) -> [Practice] { plan.pageSizes.map { .paged(pageSize: $0) } }

    var ownOptions: Set<ScenarioOption> { [.pageSize] }

    /// One iteration, in the worker: the first page, then every next link.
    static func fetch(
        pageSize: Int, parser: any SongFeedParser.Type, url: URL, timeout: Double
    ) throws -> (PagedFetchMeasurement, [Song]) {
        let first = PagedFetch.pageURLs(url, entries: 1, pageSize: pageSize)[0]
        return try PagedFetch.followingNextLinks(
            from: first, parser: parser, downloader: FeedDownloader(timeout: timeout))
    }
}
