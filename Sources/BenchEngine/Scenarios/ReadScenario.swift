import BenchWorker
import FeedParsers
import Foundation
import SongFeed
import SongStore

/// `read`: the feed's songs stored once, then read back by an app's screens.
///
/// One cell per way of reading them (`SongShelf.Choice`): `read-shared`, `read-per-screen`,
/// `read-batch`, `read-faults`, `read-cache-default`, `read-cache-table`. No network.
///
/// The parse and the store are outside the timed region, once per worker; an iteration is a session
/// of `SongShelf.visitsPerIteration` screens, timed whole, its figure the time per visit. The
/// reading does not depend on the parser: the cells run for one parser only (``parsers(_:)``).
struct ReadScenario: PracticeScenario {
    func practices(in plan: RunPlan) -> [Practice] { plan.readChoices.map { .read($0) } }

    var fetchesFeed: Bool { false }

    /// One parser builds the songs the screens read: libxml2 when it agreed, else the first that
    /// builds songs.
    func parsers(_ candidates: [String]) -> [String] {
        let builders = candidates.filter { ParserRegistry.buildsSongs($0) }
        return builders.contains("libxml2") ? ["libxml2"] : Array(builders.prefix(1))
    }

}
