import FeedParsers
import FeedTransport
import Foundation
import SongFeed

/// `gzip`: the whole feed with `Accept-Encoding: identity` (`gzip-off`) and `gzip` (`gzip-on`):
/// fewer bytes on the wire against the inflating.
struct GzipScenario: PracticeScenario {
    func practices(in plan: RunPlan) -> [Practice] { [.gzip(on: false), .gzip(on: true)] }

    /// One iteration, in the worker: the whole feed, compressed when `on`.
    static func fetch(
        on: Bool, parser: any SongFeedParser.Type, url: URL, timeout: Double
    ) throws -> (PagedFetchMeasurement, [Song]) {
        try PracticeWorker.fetchWhole(url, parser: parser, gzip: on, timeout: timeout)
    }
}
