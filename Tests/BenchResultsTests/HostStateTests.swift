import BenchResults
import Foundation
import BenchTestSupport
import Testing

/// The host's state against its history: constructed calibrations with known medians and spreads.
@Suite("Host state")
struct HostStateTests {
    /// A run whose every parse had a calibration from `calibrations` (cycled), on document `feed`.
    func run(_ calibrations: [Int], feed: String = "feedsha", debug: Bool = false) -> RunResult {
        var run = SyntheticRuns.run(
            id: "now", started: "2026-11-25T08:00:00Z", rounds: ["expat": [3_000_000, 3_100_000]], feedSHA256: feed,
            debug: debug)
        for index in run.samples.indices {
            run.samples[index].calibrationNs = calibrations[index % calibrations.count]
        }
        return run
    }

    /// Earlier runs, one per median, each with three calibrations around it.
    func history(_ medians: [Int], feed: String = "feedsha") -> [RunCalibration] {
        medians.enumerated().map { index, median in
            RunCalibration(
                runID: "run-\(index)", startedAt: "2026-11-24T10:00:00Z", feedSHA256: feed,
                calibrationNs: [median - 5_000, median, median + 5_000])
        }
    }

    @Test func withoutHistoryTheRunSaysItHasNone() {
        let state = HostState.assess(run([240_000]), history: [])
        #expect(!state.moved && state.historyRuns == 0 && state.ratio == nil)
        #expect(state.message.contains("no earlier run of test") && state.message.contains("calibration 240 µs"))
        // Another document's history does not count: the workload scans the document's bytes.
        let elsewhere = HostState.assess(run([240_000]), history: history([240_000, 241_000], feed: "other"))
        #expect(elsewhere.historyRuns == 0 && !elsewhere.moved)
    }

    @Test func aSlowRunWithLittleHistoryIsMeasuredAgainstTenPercent() throws {
        let state = HostState.assess(run([412_000]), history: history([241_000, 240_000, 243_000]))
        #expect(state.moved && !state.fromHistorySpread && state.threshold == 0.10 && state.historyRuns == 3)
        let ratio: Double = try #require(state.ratio)
        #expect(abs(ratio - 412.0 / 241.0) < 1e-9)
        #expect(
            state.message
                == "HOST STATE: this run's machine ran 1.71× slower than its usual (calibration 412 µs against a median of "
                + "241 µs over 3 runs; beyond ±10%, with fewer than 5 earlier runs to learn its spread from): its absolute "
                + "times are not comparable with other runs' — ratios between parsers of this run still are.")
        // 8% off with little history is within the 10%.
        #expect(!HostState.assess(run([260_000]), history: history([241_000, 240_000, 243_000])).moved)
    }

    @Test func withEnoughHistoryItsOwnSpreadIsTheLimit() throws {
        // A history spread ±10% around 200 µs: median 200, absolute log deviations' median log(1.05).
        let spread = history([180_000, 190_000, 200_000, 210_000, 220_000, 200_000, 195_000])
        let limit = HostState.assess(run([200_000]), history: spread)
        #expect(limit.fromHistorySpread && limit.historyRuns == 7 && !limit.moved)
        let logs = [180.0, 190, 200, 210, 220, 200, 195].map { abs(log($0 / 200)) }.sorted()
        let expected = exp(3 * 1.4826 * logs[3]) - 1
        #expect(abs(limit.threshold - expected) < 1e-9)
        #expect(limit.message.contains("within its history's spread of ±\(Int((expected * 100).rounded()))%"))
        // Just inside the limit and just beyond it.
        let inside = HostState.assess(run([Int(200_000 * (1 + expected * 0.9))]), history: spread)
        let outside = HostState.assess(run([Int(200_000 * (1 + expected * 1.1))]), history: spread)
        #expect(!inside.moved && outside.moved)
        // Faster than usual is a move too.
        let faster = HostState.assess(run([Int(200_000 / (1 + expected * 1.2))]), history: spread)
        #expect(faster.moved && faster.message.contains("faster than its usual"))
    }

    @Test func aSteadyHistoryStillAllowsFivePercent() {
        let steady = history([200_000, 200_100, 199_900, 200_050, 199_950, 200_000])
        let state = HostState.assess(run([208_000]), history: steady)
        #expect(state.threshold == HostState.minimumThreshold && !state.moved)
        #expect(HostState.assess(run([212_000]), history: steady).moved)
    }

    @Test func theRunItselfAndDebugBuildsAreNotCompared() {
        var mine = history([100_000, 100_000, 100_000, 100_000, 100_000])
        mine.append(RunCalibration(runID: "now", startedAt: "", feedSHA256: "feedsha", calibrationNs: [1]))
        #expect(HostState.assess(run([100_000]), history: mine).historyRuns == 5)
        let debug = HostState.assess(run([100_000], debug: true), history: mine)
        #expect(debug.ratio == nil && debug.message.contains("debug build"))
    }
}
