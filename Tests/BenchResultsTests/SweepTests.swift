import BenchResults
import BenchTestSupport
import Testing

@Suite("Sweeps: fits and points")
struct SweepTests {
    @Test func aLineThroughExactPointsIsFoundExactly() throws {
        let x: [Double] = [1_000, 10_000, 100_000, 1_000_000]
        let fit = try #require(LinearFit(x: x, y: x.map { 3_000 + 7.5 * $0 }))
        #expect(abs(fit.slope - 7.5) < 1e-9)
        #expect(abs(fit.intercept - 3_000) < 1e-4)
        #expect(abs((fit.rSquared ?? 0) - 1) < 1e-12)
        #expect(fit.points == 4)
    }

    @Test func theExponentOnLogLogAxesIsTheGrowth() throws {
        let x: [Double] = [300, 3_000, 30_000]
        #expect(abs((LinearFit.exponent(x: x, y: x.map { 2 * $0 })?.slope ?? 0) - 1) < 1e-9)
        #expect(abs((LinearFit.exponent(x: x, y: x.map { 0.5 * $0 * $0 })?.slope ?? 0) - 2) < 1e-9)
        #expect(abs((LinearFit.exponent(x: x, y: x.map { 40 * $0.squareRoot() })?.slope ?? 0) - 0.5) < 1e-9)
        // A figure that does not grow has exponent 0; one with a zero cannot be put on log axes.
        #expect(abs(LinearFit.exponent(x: x, y: [5, 5, 5])?.slope ?? 1) < 1e-12)
        #expect(LinearFit.exponent(x: x, y: [0, 5, 5]) == nil)
    }

    @Test func noiseLowersRSquaredAndTooFewPointsGiveNoFit() throws {
        var noise = SyntheticRuns.Noise(seed: 7)
        let x = (1...40).map(Double.init)
        let noisy = try #require(LinearFit(x: x, y: x.map { 10 + 2 * $0 + 15 * noise.next() }))
        #expect(abs(noisy.slope - 2) < 0.5)
        #expect((noisy.rSquared ?? 1) < 0.99 && (noisy.rSquared ?? 0) > 0.3)
        #expect(LinearFit(x: [5], y: [1]) == nil)
        #expect(LinearFit(x: [5, 5, 5], y: [1, 2, 3]) == nil)
        #expect(LinearFit(x: [1, 2, 3], y: [4, 4, 4])?.rSquared == nil)
    }

    @Test func theSlopesOfASweepAreTheCostsItWasMadeWith() throws {
        let result = SyntheticSweep.result()
        func slope(_ parser: String, _ figure: String, per: String) -> SweepSlope? {
            result.slopes.first { $0.parser == parser && $0.figure == figure && $0.per == per }
        }
        let time = try #require(slope("libxml2", "time", per: "byte"))
        #expect(abs(time.fit.slope - 7) < 1e-6)
        #expect(abs(time.fit.intercept - 100_000) < 1)
        #expect(time.fit.points == 3 && time.fromSize == 300 && time.toSize == 30_000)
        let peak = try #require(slope("libxml2", "parse peak", per: "byte"))
        #expect(abs(peak.fit.slope - 0.1) < 1e-6)
        #expect(abs((slope("libxml2", "allocations", per: "song")?.fit.slope ?? 0) - 3) < 1e-9)
        #expect(abs((slope("libxml2", "songs' memory", per: "song")?.fit.slope ?? 0) - 330) < 1e-9)
        // Foundation is fitted over the sizes it was timed at only.
        let foundation = try #require(slope("foundation", "time", per: "byte"))
        #expect(foundation.fit.points == 2 && foundation.toSize == 3_000)
        #expect(abs(foundation.fit.slope - 18) < 1e-6)
        // No instruction slope without counts.
        #expect(slope("libxml2", "instructions", per: "byte") == nil)
    }

    @Test func aParserThatFailsAtASizeIsAPointWithItsReasonNotAGap() throws {
        let result = SyntheticSweep.result()
        let refused = try #require(result.points.first { $0.parser == "foundation" && $0.songs == 30_000 })
        #expect(!refused.measured)
        #expect(refused.outcome?.contains("10,000,000 bytes") == true)
        #expect(refused.feedBytes == 90_000_000)
        #expect(result.points.filter { $0.sweep == "scale" }.count == 6)
        let kept = try #require(result.points.first { $0.parser == "libxml2" && $0.songs == 30_000 })
        #expect(kept.keptBytes == Double(330 * 30_000))
        #expect(kept.parsePeakBytes == 600_000 + 9_000_000)
        #expect(abs((kept.peakOverSongs ?? 0) - Double(9_600_000) / Double(9_900_000)) < 1e-9)
        #expect(kept.allocations == 90_000)
    }

    @Test func theStoredHistoryCountsTimedParsesNotAllocationCounts() {
        let run = SyntheticSweep.scaleRun(sizes: [SyntheticSweep.sizes[0]])
        let stored = run.samples.filter { $0.cell.parser == "libxml2" }.map {
            StoredSample(runID: "r", runStartedAt: "2026-11-22T10:00:00Z", sample: $0)
        }
        let rows = HistoryRow.aggregate(stored)
        // Three timed workers and one allocation-counting sample (round 0, no time).
        #expect(rows.count == 1 && rows[0].samples == 3 && rows[0].wall?.count == 3 && rows[0].failed == 0)
    }
}
