import BenchResults

extension BenchSession {
    /// A store as a run uses it: it records the run as it goes, and gives the host's earlier runs.
    package typealias RunStore = RunRecorder & RunHistorySource

    /// What ``measure(environment:openStore:historyRuns:checking:progress:iterationProgress:)``
    /// produced: the run, assessed against the store's history, and what its page shows beside it.
    package struct Measured: Sendable {
        /// The run, its host state and run-to-run intervals set (`RunAssessment`).
        package var outcome: Outcome
        /// The store the run was recorded in; `nil` for a run not recorded (`--no-store`).
        package var store: (any RunStore)?
        /// The store's newest runs for the parsers and scenarios measured (`RunAssessment/pageHistory(of:from:lastRuns:)`).
        package var history: [RunFigures]
    }

    /// A run as `bench run` makes it, its steps in their order.
    ///
    /// The agreement check; the store, opened only once the check has passed (an input no parser
    /// can read leaves nothing measured, written or stored); the run, recorded as it goes; its
    /// assessment against the host's earlier runs; the history its page shows. What the run writes
    /// and says is the caller's.
    ///
    /// - Parameters:
    ///   - environment: the run's environment (its ID names it in the store).
    ///   - openStore: opens the store (`nil`: the run is not recorded); called after the check, once.
    ///   - historyRuns: how many of the store's newest runs ``Measured/history`` holds.
    ///   - checking: called before the agreement check starts.
    ///   - progress: called before each worker and, with `iterationProgress`, after each iteration.
    ///   - iterationProgress: ask workers to report each finished iteration (for a terminal only).
    /// - Returns: the run, assessed, with its store and its page's history.
    /// - Throws: ``UnusableInputs`` and ``Interrupted`` from the check, with the store not opened;
    ///   what `openStore` throws; what ``run(checks:environment:recorder:progress:iterationProgress:)``
    ///   throws when the run begins.
    package func measure(
        environment: RunEnvironment, openStore: () throws -> (any RunStore)?, historyRuns: Int,
        checking: () -> Void = {}, progress: (RunProgress) -> Void = { _ in }, iterationProgress: Bool = false
    ) throws -> Measured {
        let checks = try check(checking: checking, stopOnUnusable: true)
        let store = try openStore()
        var outcome = try run(
            checks: checks, environment: environment, recorder: store, progress: progress,
            iterationProgress: iterationProgress)
        RunAssessment.assess(&outcome.result, history: store)
        let history = RunAssessment.pageHistory(of: outcome.result, from: store, lastRuns: historyRuns)
        return Measured(outcome: outcome, store: store, history: history)
    }
}
