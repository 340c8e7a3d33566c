import BenchResults

/// What a run learns from the host's earlier runs in the store, once it has run.
///
/// Whether the host ran as usual (`HostState`), and the run-to-run noise added to its next-run
/// intervals (`RunHistory`): `bench run` and `bench sweep` alike.
///
/// ```swift
/// var outcome = try session.run(checks: checks, environment: environment, recorder: store)
/// RunAssessment.assess(&outcome.result, history: store)
/// print(outcome.result.hostState?.message ?? "")
/// ```
package enum RunAssessment {
    /// Sets `result`'s host state and widens its next-run intervals from `history`; with no history
    /// (`--no-store`), or one that cannot be read, each says why it was not done.
    package static func assess(_ result: inout RunResult, history: (any RunHistorySource)?) {
        result.hostState = hostState(of: result, in: history)
        includeRunToRun(in: &result, from: history)
    }

    /// The host's state against its earlier runs in the store (`HostState`).
    static func hostState(of result: RunResult, in history: (any RunHistorySource)?) -> HostState {
        let host = result.environment.host
        guard let history else { return .unknown(host: host, because: "--no-store, so no history was read") }
        do {
            let calibrations = try history.calibrations(
                host: host, excluding: result.environment.runID, lastRuns: HostState.historyRuns)
            return HostState.assess(result, history: calibrations)
        } catch {
            return .unknown(host: host, because: "the store's history could not be read (\(error))")
        }
    }

    /// The run-to-run noise learnt from the host's earlier runs in the store, added to the next-run
    /// intervals (`RunHistory`).
    static func includeRunToRun(in result: inout RunResult, from history: (any RunHistorySource)?) {
        guard let history else {
            result.runToRun = .withinRunOnly(because: "--no-store, so no earlier run was read")
            return
        }
        do {
            let feeds = Set(result.cells.map(\.cell.feedSHA256)).sorted()
            let samples = try history.parseHistory(
                host: result.environment.host, excluding: result.environment.runID, lastRuns: RunHistory.lastRuns,
                feeds: feeds)
            RunHistory.include(samples, in: &result)
        } catch {
            result.runToRun = .withinRunOnly(because: "the store's history could not be read (\(error))")
        }
    }

    /// The stored history a run's page shows beside it: the stored figures (summaries, not
    /// samples) of the store's newest `lastRuns` runs (debug builds left out), for the parsers and
    /// scenarios this run measured, so that what a run reads from the store is a value a run and
    /// cell of the history it uses, however many runs, cells and samples the store holds; none when
    /// the store cannot be read.
    package static func pageHistory(
        of result: RunResult, from history: (any RunHistorySource)?, lastRuns: Int
    ) -> [RunFigures] {
        let cells = result.cells.map(\.cell).filter { $0.scenario != .notTimed }
        guard let history, !cells.isEmpty else { return [] }
        return
            (try? history.recentFigures(
                parsers: Array(Set(cells.map(\.parser))).sorted(),
                scenarios: Array(Set(cells.map(\.scenario.name))).sorted(), lastRuns: lastRuns)) ?? []
    }
}
