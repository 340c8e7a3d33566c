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
        let runs = Self.hostRuns(placeholder: placeholder)
        sql = """
            SELECT s.run_id, r.started_at, s.feed_sha256, s.calibration_ns
            FROM samples s JOIN runs r ON r.run_id = s.run_id
            WHERE s.run_id IN (\(runs)) AND s.calibration_ns IS NOT NULL AND s.debug = FALSE
            ORDER BY r.started_at, s.run_id, s.id
            """
        arguments = Self.hostRunsArguments(host: host, excluding: runID, lastRuns: lastRuns)
    }

    /// The subquery of a host's newest runs of its usual work, other than one: release builds, no
    /// instruction counts, no injected slowdown; its parameters are the first three
    /// (``hostRunsArguments(host:excluding:lastRuns:)``).
    static func hostRuns(placeholder: (Int) -> String) -> String {
        """
        SELECT run_id FROM runs WHERE host = \(placeholder(1)) AND run_id <> \(placeholder(2))
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
