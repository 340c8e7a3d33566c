import BenchResults
import BenchTestSupport
import Foundation
import Testing

/// E-Divisive means on constructed series: a known shift is found where it is, noise alone and a
/// single outlying run are not changes, and the false-alarm rate on noise is what the significance
/// promises.
@Suite("Change points in the history")
struct ChangePointTests {
    /// Uniform noise of relative half-width `noise` around each part's level (the logarithms), seeded.
    static func series(_ levels: [(count: Int, level: Double)], noise: Double, seed: UInt64) -> [Double] {
        var generator = SyntheticRuns.Noise(seed: seed &* 0x9E37_79B9_7F4A_7C15)
        _ = generator.next()
        return levels.flatMap { part in
            (0..<part.count).map { _ in Foundation.log(part.level * (1 + noise * generator.next())) }
        }
    }

    @Test func aKnownShiftIsFoundWhereItIs() {
        for seed in UInt64(1)...10 {
            let values = Self.series([(19, 1.0), (11, 1.05)], noise: 0.01, seed: seed)
            let changes = ChangePoints().changes(values)
            #expect(changes.count == 1, "seed \(seed): \(changes)")
            if let change = changes.first {
                #expect(abs(change.index - 19) <= 1, "seed \(seed): at \(change.index)")
                #expect(change.pValue < 0.01)
            }
        }
    }

    @Test func twoShiftsAreBothFound() {
        let values = Self.series([(12, 1.0), (12, 1.08), (12, 1.0)], noise: 0.01, seed: 7)
        #expect(ChangePoints().changes(values).map(\.index) == [12, 24])
    }

    @Test func noiseAloneAndOneOutlyingRunAreNoChange() {
        for seed in UInt64(1)...10 {
            var values = Self.series([(30, 1.0)], noise: 0.02, seed: seed)
            #expect(ChangePoints().changes(values).isEmpty, "seed \(seed)")
            // The host's slow state for one run: 1.7× (as measured on these machines).
            values[12 + Int(seed % 5)] += Foundation.log(1.7)
            #expect(ChangePoints().changes(values).isEmpty, "seed \(seed) with an outlier")
        }
    }

    /// A slow drift is a change of level too: it is reported, where the level has moved most.
    @Test func aSlowDriftIsReportedAsAShift() {
        let values = (0..<40).map { Foundation.log(1.0 + 0.004 * Double($0)) }
        let changes = ChangePoints().changes(values)
        #expect(!changes.isEmpty)
        #expect(changes.allSatisfy { (8...32).contains($0.index) }, "\(changes)")
    }

    /// On noise-only series (with the host's occasional slow run), the share with any change found
    /// stays near the significance (0.01): measured here on 100 series of 30 runs.
    @Test func theFalseAlarmRateOnNoiseIsNearTheSignificance() {
        var alarms = 0
        for seed in UInt64(100)..<200 {
            var values = Self.series([(30, 1.0)], noise: 0.02, seed: seed)
            if seed % 3 == 0 { values[Int(seed % 30)] += Foundation.log(1.5) }
            if !ChangePoints().changes(values).isEmpty { alarms += 1 }
        }
        #expect(alarms <= 3, "\(alarms) of 100 noise-only series had a change")
    }

    @Test func tooShortASeriesHasNoChange() {
        #expect(ChangePoints().changes([0, 0, 1, 1, 1]).isEmpty)
        #expect(ChangePoints().changes([]).isEmpty)
    }

    /// Per-run medians from stored samples, per host and cell, and the shift's size with its interval.
    @Test func aSeriesFromStoredRunsSaysWhereAndHowMuch() throws {
        var stored: [StoredSample] = []
        for run in 0..<30 {
            let slow = run >= 20 ? 1.05 : 1.0
            let walls = SyntheticRuns.noisy(
                2_000_000 * slow, count: 5, noise: 0.01, seed: UInt64(run + 1) &* 0x9E37_79B9_7F4A_7C15)
            let result = SyntheticRuns.run(
                id: String(format: "20261122T10%02d00Z-r", run), started: String(format: "2026-11-22T10:%02d:00Z", run),
                rounds: ["expat": walls])
            for sample in result.samples {
                var item = StoredSample(
                    runID: result.environment.runID, runStartedAt: result.environment.startedAt, sample: sample)
                item.runGitCommit = run >= 20 ? "slow" : "fast"
                stored.append(item)
            }
        }
        let series = RunSeries.series(stored, metric: .wallNs).filter { $0.parser == "expat" }
        #expect(series.count == 1 && series.first?.points.count == 30)
        let found = try #require(series.first?.findingShifts())
        let shift = try #require(found.shifts.first)
        #expect(found.shifts.count == 1)
        #expect(abs(shift.index - 20) <= 1 && shift.commit == "slow" && shift.previousCommit == "fast")
        #expect(shift.low < 1.05 && 1.05 < shift.high && shift.low > 1.02, "\(shift) in \(found.points.map(\.value))")
        #expect(found.searchedFrom == nil)

        // Searched over its newest 16 runs (from run 14): the shift at run 20 is found where it is,
        // with the runs before it counted from the first searched.
        let newest = try #require(series.first?.findingShifts(ChangePoints(newestRuns: 16)))
        #expect(newest.searchedFrom == 14 && newest.points.count == 30)
        let late = try #require(newest.shifts.first)
        #expect(abs(late.index - 20) <= 1 && late.runsBefore == late.index - 14, "\(newest.shifts)")
        // Over its newest 8 (from run 22), the level never moves: no change.
        let after = try #require(series.first?.findingShifts(ChangePoints(newestRuns: 8)))
        #expect(after.searchedFrom == 22 && after.shifts.isEmpty, "\(after.shifts)")
    }
}
