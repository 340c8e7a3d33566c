import BenchWorker
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

}
