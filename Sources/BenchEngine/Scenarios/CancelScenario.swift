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

    /// Before the iterations, in the worker: the whole uncancelled fetch, whose digest is the
    /// worker's and whose first page the cancelled fetches must keep.
    static func firstPage(
        width: Int, pageSize: Int, parser: any SongFeedParser.Type, url: URL, entries: Int, timeout: Double
    ) throws -> (digest: String, firstPage: [Song]) {
        let whole = try QueueScenario.fetch(
            width: width, pageSize: pageSize, cancel: false, parser: parser, url: url, entries: entries,
            timeout: timeout)
        return (SongDigest.sha256(of: whole.1), Array(whole.1.prefix(pageSize)))
    }

    /// Why a cancelled fetch's songs are wrong: they must be the first page's.
    static func check(kept songs: [Song], firstPage: [Song]) -> String? {
        songs == firstPage
            ? nil : "after the cancel, the kept songs are not the first page's (\(songs.count) songs kept)"
    }
}
