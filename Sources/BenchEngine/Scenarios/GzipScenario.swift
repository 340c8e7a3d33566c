import BenchWorker
import FeedParsers
import FeedTransport
import Foundation
import SongFeed

/// `gzip`: the whole feed with `Accept-Encoding: identity` (`gzip-off`) and `gzip` (`gzip-on`):
/// fewer bytes on the wire against the inflating.
struct GzipScenario: PracticeScenario {
    func practices(in plan: RunPlan) -> [Practice] { [.gzip(on: false), .gzip(on: true)] }

}
