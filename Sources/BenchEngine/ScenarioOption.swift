import BenchResults

/// The options of `bench run` that set some scenarios only (`--threads`, the concurrent scenario's).
///
/// One given for a run that has none of those scenarios would change nothing:
/// ``RunRequest/check()`` refuses it rather than ignore it.
package enum ScenarioOption: String, CaseIterable, Sendable {
    case pageSize = "--page-size"
    case maxConcurrent = "--max-concurrent"
    case queuePageSize = "--queue-page-size"
    case threads = "--threads"
    case downloadRounds = "--download-rounds"
    case downloadsAtOnce = "--downloads-at-once"
    case network = "--network"
}

extension ScenarioID {
    /// The options that set this scenario: its engine type's own (`--page-size` for `paged`), the
    /// network's when it fetches the feed, the download rounds' when its workers run in some rounds
    /// only, and the downloads at once when they run side by side.
    package var options: Set<ScenarioOption> {
        var options = engine.ownOptions
        if engine.fetchesFeed { options.insert(.network) }
        if !traits.runsEveryRound { options.insert(.downloadRounds) }
        if traits.workersSideBySide { options.insert(.downloadsAtOnce) }
        return options
    }
}
