import BenchWorker
import FeedParsers
import Foundation
import SongFeed

/// `cancel`: the queue's pages, cancelled once the first page's songs are in (`cancel-1`,
/// `cancel-2`, `cancel-4`): what still arrives and is parsed after the cancel.
struct CancelScenario: PracticeScenario {
    func practices(in plan: RunPlan) -> [Practice] {
        plan.queueWidths.map { .queue(width: $0, pageSize: plan.queuePageSize, cancel: true) }
    }

    var ownOptions: Set<ScenarioOption> { [.maxConcurrent, .queuePageSize] }

}
