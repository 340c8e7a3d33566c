import FeedParsers
import FeedTransport
import Foundation
import SongFeed

/// `queue`: every page through a bounded queue of width N (`queue-1`, `queue-2`, `queue-4`); a
/// plan that asks for `queue` also measures its ``CancelScenario`` cells.
struct QueueScenario: PracticeScenario {
    func practices(in plan: RunPlan) -> [Practice] {
        plan.queueWidths.map { .queue(width: $0, pageSize: plan.queuePageSize, cancel: false) }
            + CancelScenario().practices(in: plan)
    }

    var ownOptions: Set<ScenarioOption> { CancelScenario().ownOptions }

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
