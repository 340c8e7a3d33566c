import BenchResults
import GRDB

/// The query behind ``StatsStoring/calibrations(host:excluding:lastRuns:)``: every stored
/// calibration figure of a host's recent runs, in the SQL both stores share.
struct CalibrationQuery {
    var sql: String
    var arguments: [DatabaseValue]

    /// The calibrations of `host`'s newest `lastRuns` runs other than `runID`, leaving out debug
    /// builds, instruction counts (no calibration) and the gate's tests (an injected slowdown slows
    /// the parses, not the calibration, but such runs are not the host's usual work).
    ///
    /// - Parameters:
    ///   - host: the host as the runs record it.
    ///   - runID: the run to leave out (the one being assessed).
    ///   - lastRuns: how many of the host's newest runs.
    ///   - placeholder: the text of the n-th parameter (1-based).
    init(host: String, excluding runID: String?, lastRuns: Int, placeholder: (Int) -> String) {
        sql = """
            SELECT s.run_id, h.started_at, s.feed_sha256, s.calibration_ns
            FROM \(Self.hostRunsThenSamples(placeholder: placeholder))
            WHERE s.run_id = h.run_id AND s.calibration_ns IS NOT NULL AND s.debug = FALSE
            ORDER BY h.started_at, s.run_id, s.id
            """
        arguments = Self.hostRunsArguments(host: host, excluding: runID, lastRuns: lastRuns)
    }

    /// The tables of a query of the samples of a host's newest runs: those runs (`h`, from
    /// ``hostRuns(placeholder:)``) first, then their samples (`s`) by run, through the index on
    /// `samples.run_id`; the query's conditions start with `s.run_id = h.run_id` (PostgreSQL allows
    /// no `ON` on a `CROSS JOIN`).
    ///
    /// What it reads is bounded by the runs it uses, however many the store holds. Written as a
    /// `CROSS JOIN`, which SQLite never reorders: with `s.run_id IN (the runs)` and conditions on
    /// the scenario and document, its planner chose the index on the cells (`samples_on_cell`)
    /// and went through every run's samples of those cells. PostgreSQL plans it from its statistics
    /// (a few runs, then an index lookup each).
    static func hostRunsThenSamples(placeholder: (Int) -> String) -> String {
        "(\(hostRuns(placeholder: placeholder))) h CROSS JOIN samples s"
    }

    /// The subquery of a host's newest runs of its usual work, other than one (`run_id` and
    /// `started_at`): release builds, no instruction counts, no injected slowdown; its parameters
    /// are the first three (``hostRunsArguments(host:excluding:lastRuns:)``).
    static func hostRuns(placeholder: (Int) -> String) -> String {
        """
        SELECT run_id, started_at FROM runs WHERE host = \(placeholder(1)) AND run_id <> \(placeholder(2))
            AND COALESCE(slowdown_percent, 0) = 0 AND build_configuration = 'release'
            AND COALESCE(counter, '') <> '\(RunSettings.instructionCounter)'
        ORDER BY started_at DESC LIMIT \(placeholder(3))
        """
    }

    /// The arguments of ``hostRuns(placeholder:)``.
    static func hostRunsArguments(host: String, excluding runID: String?, lastRuns: Int) -> [DatabaseValue] {
        [host.databaseValue, (runID ?? "").databaseValue, lastRuns.databaseValue]
    }

    /// The rows grouped by run and document, in the order they came.
    static func group(_ rows: [Row]) -> [RunCalibration] {
        var grouped: [RunCalibration] = []
        var index: [String: Int] = [:]
        for row in rows {
            let runID: String = row["run_id"]
            let feed: String = row["feed_sha256"]
            let value: Int = row["calibration_ns"]
            let key = runID + "\u{0}" + feed
            if let at = index[key] {
                grouped[at].calibrationNs.append(value)
            } else {
                index[key] = grouped.count
                grouped.append(
                    RunCalibration(runID: runID, startedAt: row["started_at"], feedSHA256: feed, calibrationNs: [value])
                )
            }
        }
        return grouped
    }
}
