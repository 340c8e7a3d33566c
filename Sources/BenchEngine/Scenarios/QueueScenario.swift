import BenchWorker
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

}
