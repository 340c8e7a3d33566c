import BenchWorker
import FeedParsers
import Foundation
import SongFeed
import SongStore

/// `store`: the feed parsed in memory, then its songs written to SQLite.
///
/// One cell per way of writing them (`store-song-ordered`, `store-song-shuffled`, `store-batch-ordered`,
/// `store-batch-shuffled`). No network.
struct StoreScenario: PracticeScenario {
    func practices(in plan: RunPlan) -> [Practice] { plan.storePlans.map { .store($0) } }

    var fetchesFeed: Bool { false }

}
