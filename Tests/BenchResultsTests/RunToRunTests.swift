import BenchResults
import BenchTestSupport
import Foundation
import Testing

/// The run-to-run level: Student's t against published values, the variance decomposition on
/// constructed data with known components, the interval's coverage on simulated runs, and a run
/// widened by a constructed history.
@Suite("Run-to-run noise")
struct RunToRunTests {
    @Test func studentQuantilesMatchThePublishedTables() {
        // Two-sided 95% (p = 0.975) from the standard tables.
        let published: [(Double, Double)] = [(1, 12.7062), (2, 4.3027), (5, 2.5706), (10, 2.2281), (30, 2.0423)]
        for (degrees, t) in published {
            #expect(abs(StudentT.quantile(0.975, degrees: degrees) - t) < 5e-4, "ν = \(degrees)")
        }
        #expect(abs(StudentT.quantile(0.995, degrees: 5) - 4.0321) < 5e-4)
        #expect(abs(StudentT.quantile(0.025, degrees: 10) + 2.2281) < 5e-4)
        #expect(abs(StudentT.cdf(0, degrees: 3) - 0.5) < 1e-12)
        #expect(abs(StudentT.cdf(2.2281, degrees: 10) - 0.975) < 1e-4)
        // Many degrees: the normal's 1.96.
        #expect(abs(StudentT.quantile(0.975, degrees: 100_000) - 1.95998) < 1e-3)
    }

    /// Runs r, workers w and parses p at log value base + a_r ± β ± δ: every sum of squares known.
    @Test func theDecompositionOfConstructedDataIsExact() throws {
        let base = log(2_000_000.0)
        let alpha = [0.0, 0.1, 0.0]
        let beta = 0.02
        let delta = 0.01
        let data = alpha.map { a in
            [-1.0, 1.0].map { w in [-1.0, 1.0].map { p in base + a + w * beta + p * delta } }
        }
        let levels = try #require(NoiseLevels.decompose(data))
        // S₁² = 2δ² (each worker: two values ±δ, one degree of freedom) → T₁ = 2δ².
        #expect(abs(levels.parse - 2 * delta * delta) < 1e-12)
        // S₂² = 2β² → T₂ = 2β² − S₁²/2 = 2β² − δ².
        #expect(abs(levels.worker - (2 * beta * beta - delta * delta)) < 1e-12)
        // Run means 0, α, 0: successive differences α, −α → S₃² = 2α²/(2·2) = α²/2; T₃ = α²/2 − S₂²/2.
        #expect(abs((levels.run ?? -1) - (0.1 * 0.1 / 2 - beta * beta)) < 1e-12)
        #expect(levels.runs == 3 && levels.workersPerRun == 2 && levels.parsesPerWorker == 2)
        let shares = try #require(levels.shares)
        #expect(abs(shares.parse + shares.worker + (shares.run ?? 0) - 1) < 1e-12)
        #expect(abs((shares.run ?? 0) - 0.0046 / (0.0002 + 0.0007 + 0.0046)) < 1e-9)
        // One run: no run level; a worker level that its parses explain is 0, not negative.
        let one = try #require(NoiseLevels.decompose([[[1, 1.2], [1.1, 1.3]]]))
        #expect(one.run == nil && one.worker == 0)
        #expect(NoiseLevels.decompose([[[1]]]) == nil)
    }

    /// A normal value from two uniform ones (Box–Muller).
    static func normal(_ noise: inout SyntheticRuns.Noise) -> Double {
        let u = max((noise.next() + 1) / 2, 1e-12)
        let v = (noise.next() + 1) / 2
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }

    @Test func theDecompositionRecoversKnownComponents() throws {
        var noise = SyntheticRuns.Noise(seed: 2013)
        let (run, worker, parse) = (0.05, 0.03, 0.02)
        let data = (0..<400).map { _ -> [[Double]] in
            let a = run * Self.normal(&noise)
            return (0..<10).map { _ in
                let b = worker * Self.normal(&noise)
                return (0..<15).map { _ in 14 + a + b + parse * Self.normal(&noise) }
            }
        }
        let levels = try #require(NoiseLevels.decompose(data))
        #expect(abs(levels.parse / (parse * parse) - 1) < 0.05)
        #expect(abs(levels.worker / (worker * worker) - 1) < 0.15)
        #expect(abs((levels.run ?? 0) / (run * run) - 1) < 0.2)
    }

    /// Runs whose figures are independent normal values: the next one falls in the interval 95% of
    /// the time (the degrees of freedom were chosen for that), with 5, 10 and 30 earlier runs.
    @Test(arguments: [5, 10, 30]) func theIntervalHoldsTheNextRunNinetyFivePercentOfTheTime(earlier: Int) throws {
        var noise = SyntheticRuns.Noise(seed: UInt64(earlier))
        let trials = 3_000
        var held = 0
        for _ in 0..<trials {
            let logs = (0..<(earlier + 2)).map { _ in 0.05 * Self.normal(&noise) }
            let values = logs.map { exp($0) }
            let level = try #require(RunToRun(series: Array(values.dropLast())))
            let now = values[earlier]
            let interval = level.widen(value: now, low: now, high: now)
            if let next = values.last, next >= interval.low && next <= interval.high { held += 1 }
        }
        let coverage = Double(held) / Double(trials)
        #expect(coverage > 0.93 && coverage < 0.975, "coverage \(coverage)")
    }

    @Test func tooFewEarlierRunsGiveNoLevel() {
        #expect(RunToRun(series: [1, 1.1, 1, 1.2, 1]) == nil)
        #expect(RunToRun(series: [1, 1.1, 1, 1.2, 1, 0]) == nil)
        #expect(RunToRun(series: [1, 1.1, 1, 1.2, 1, 1])?.earlierRuns == 5)
    }

    /// Earlier runs, each with expat at `expat[i]` ms and libxml2 at `ratio[i]` times that.
    func history(expat: [Double], ratio: [Double]) -> [StoredSample] {
        zip(expat, ratio).enumerated().flatMap { index, pair in
            let (ms, r) = pair
            let run = SyntheticRuns.run(
                id: "run-\(index)", started: "2026-11-24T10:\(10 + index):00Z",
                rounds: [
                    "expat": [ms * 0.99e6, ms * 1e6, ms * 1.01e6],
                    "libxml2": [ms * r * 0.99e6, ms * r * 1e6, ms * r * 1.01e6],
                ])
            return run.samples.map {
                StoredSample(runID: "run-\(index)", runStartedAt: run.environment.startedAt, sample: $0)
            }
        }
    }

    var now: RunResult {
        SyntheticRuns.run(
            id: "now", started: "2026-11-25T08:00:00Z",
            rounds: ["expat": [2.97e6, 3e6, 3.03e6], "libxml2": [1.485e6, 1.5e6, 1.515e6]])
    }

    @Test func enoughEarlierRunsWidenTheTimeAndTheRatio() throws {
        let expat = [3.0, 3.3, 2.85, 3.15, 3.0, 3.6]
        let ratios = [0.5, 0.52, 0.5, 0.48, 0.5, 0.51]
        var result = now
        RunHistory.include(history(expat: expat, ratio: ratios), in: &result)
        let cell = try #require(result.cells.first { $0.cell.parser == "expat" })
        let estimate = try #require(cell.estimate)
        // The series: the six earlier figures, then this run's 3 ms.
        let logs = (expat + [3.0]).map { log($0) }
        let spread = (zip(logs, logs.dropFirst()).map { ($1 - $0) * ($1 - $0) }.reduce(0, +) / 6).squareRoot()
        let half = StudentT.quantile(0.975, degrees: 0.85 * 6) * spread
        let level = try #require(estimate.runToRun)
        #expect(level.earlierRuns == 6)
        #expect(abs(level.differenceSpread - spread) < 1e-12)
        #expect(abs(estimate.low - 3e6 * exp(-half)) < 1 && abs(estimate.high - 3e6 * exp(half)) < 1)
        #expect(estimate.withinRunLow == 2.97e6 && estimate.withinRunHigh == 3.03e6)
        // libxml2 is the fastest: expat's × fastest interval holds the ratio's run-to-run level.
        let relative = try #require(cell.relative)
        #expect(relative.runToRun?.earlierRuns == 6)
        #expect(
            (relative.low ?? 9) < (relative.withinRunLow ?? 0) && (relative.high ?? 0) > (relative.withinRunHigh ?? 9))
        #expect(cell.noiseLevels?.runs == 7 && cell.noiseLevels?.run != nil)
        #expect(result.runToRun?.whole == true)
        #expect(result.runToRun?.message.contains("learnt from up to 6 earlier runs") == true)
    }

    @Test func withFewEarlierRunsTheIntervalsSayTheyAreWithinRunOnly() throws {
        var result = now
        let before = result.cells
        RunHistory.include(history(expat: [3, 3.3, 2.9, 3.1], ratio: [0.5, 0.5, 0.5, 0.5]), in: &result)
        #expect(result.cells.map(\.estimate) == before.map(\.estimate))
        #expect(result.cells.map(\.relative) == before.map(\.relative))
        #expect(result.cells.allSatisfy { $0.noiseLevels?.runs == 5 })
        let note = try #require(result.runToRun)
        #expect(!note.whole && note.earlierRuns == 4)
        #expect(note.message.contains("within-run noise only") && note.message.contains("5 would add"))
    }

    /// The same runs as `read` cells: expat's figures as a new connection per screen, libxml2's as
    /// the shared connection (both parsed by libxml2), with the pair's ratio.
    static func asRead(_ result: RunResult) -> RunResult {
        var result = result
        func convert(_ cell: CellKey) -> CellKey {
            var read = cell
            read.scenario = CellScenario(.read, choice: cell.parser == "expat" ? "per-screen" : "shared")
            read.parser = "libxml2"
            read.chunkSize = 0
            return read
        }
        result.samples = result.samples.map { sample in
            var read = sample
            read.cell = convert(sample.cell)
            return read
        }
        result.cells = result.cells.map { cell in
            var read = cell
            read.cell = convert(cell.cell)
            read.relative = nil
            return read
        }
        ReadPairs.divide(&result.cells, samples: result.samples)
        return result
    }

    @Test func readCellsLearnFromHistoryTooTheirTimeAndTheirPairsRatio() throws {
        let earlier = history(expat: [3.0, 3.3, 2.85, 3.15, 3.0, 3.6], ratio: [0.5, 0.52, 0.5, 0.48, 0.5, 0.51])
        let readHistory = Dictionary(grouping: earlier, by: \.runID).flatMap { runID, stored in
            let run = Self.asRead(
                RunResult(
                    environment: SyntheticRuns.run(id: runID, started: "x", rounds: [:]).environment,
                    settings: now.settings, cells: [], samples: stored.map(\.sample)))
            return run.samples.map { StoredSample(runID: runID, runStartedAt: stored[0].runStartedAt, sample: $0) }
        }
        var result = Self.asRead(now)
        let perScreen = try #require(result.cells.first { $0.cell.scenario.name == "read-per-screen" })
        let ratio = try #require(perScreen.pairRatio)
        #expect(ratio.reference == "read-shared" && abs(ratio.ratio - 2) < 1e-9)
        RunHistory.include(readHistory, in: &result)
        let widened = try #require(result.cells.first { $0.cell.scenario.name == "read-per-screen" })
        #expect(widened.estimate?.runToRun?.earlierRuns == 6)
        #expect(widened.pairRatio?.runToRun?.earlierRuns == 6)
        #expect((widened.pairRatio?.low ?? 9) < (ratio.low ?? 0) && (widened.pairRatio?.high ?? 0) > (ratio.high ?? 9))
        #expect(result.runToRun?.whole == true)
    }
}
