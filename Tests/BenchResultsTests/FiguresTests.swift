import BenchResults
import BenchTestSupport
import Testing

@Suite("Figures that hold up: the next-run interval, relative speed, noise")
struct FiguresTests {
    // MARK: The prediction interval of the next run's figure

    /// Checked against exact values computed independently (counting all C(2K, K) interleavings of two
    /// samples of K, in Python): the median of a next sample of K falls within [x(l), x(K−l+1)].
    @Test func predictionRanksMatchTheExactCounts() {
        let ten = RunEstimate.predictionRanks(count: 10)
        #expect(ten.lower == 1 && ten.upper == 10)
        #expect(abs(ten.coverage - 0.9674976726060317) < 1e-9)
        let twenty = RunEstimate.predictionRanks(count: 20)
        #expect(twenty.lower == 4 && twenty.upper == 17)
        #expect(abs(twenty.coverage - 0.9592581983596153) < 1e-9)
        // Six workers: no range reaches 95%; the whole range, with what it has.
        let six = RunEstimate.predictionRanks(count: 6)
        #expect(six.lower == 1 && six.upper == 6)
        #expect(abs(six.coverage - 0.8192640692640693) < 1e-9)
        // One worker: the interval is a point, which the next run never hits.
        #expect(RunEstimate.predictionRanks(count: 1).coverage == 0)
    }

    @Test func theEstimateIsTheMedianOfTheWorkersWithTheirPredictionInterval() throws {
        let medians = (1...20).map { Double($0) }
        let estimate = try #require(RunEstimate(workerMedians: medians.reversed()))
        #expect(estimate.value == 10.5)
        #expect(estimate.low == 4 && estimate.high == 17)
        #expect(estimate.workers == 20)
        #expect(RunEstimate(workerMedians: []) == nil)
        // Spread: the sd of the logarithms; equal workers agree exactly.
        #expect(RunEstimate(workerMedians: [5, 5, 5])?.spread == 0)
        #expect(RunEstimate(workerMedians: [5])?.spread == nil)
    }

    // MARK: Summaries from workers

    /// A parse run whose machine drifts by `drift[round]` for every parser alike.
    static func drifting(_ drift: [Double], base: [String: Double], preemptedEvery: Int = 0) -> RunResult {
        var rounds: [String: [Double]] = [:]
        for (parser, value) in base { rounds[parser] = drift.map { value * $0 } }
        var run = SyntheticRuns.run(id: "r", started: "2026-11-22T10:00:00Z", rounds: rounds)
        if preemptedEvery > 0 {
            for index in run.samples.indices where index % preemptedEvery == 0 {
                run.samples[index].preempted = true
                run.samples[index].wallNs = (run.samples[index].wallNs ?? 0) * 3  // the other work's time
            }
        }
        return run
    }

    static func summaries(_ run: RunResult, reference: String? = nil) -> [CellSummary] {
        let cells = Dictionary(grouping: run.samples, by: \.cell)
        var summaries = cells.keys.sorted { $0.parser < $1.parser }.map { cell in
            CellSummary.summarise(
                cell, samples: cells[cell] ?? [], peakResidentBytes: nil, baselinePeakBytes: nil, outcome: nil)
        }
        RelativeSpeed.rank(&summaries, samples: run.samples, reference: reference, baseline: "null")
        return summaries
    }

    @Test func relativeSpeedHoldsWhenTheWholeMachineDrifts() throws {
        // The machine doubles its speed and halves it again across the rounds: absolute times move
        // 2×, the ratios not at all.
        let drift = [1, 1.5, 2, 1.2, 0.8, 1, 1.9, 1.1, 0.9, 1.4]
        let run = Self.drifting(drift, base: ["libxml2": 4e6, "expat": 6e6, "foundation": 9e6, "null": 500])
        let summaries = Self.summaries(run)
        let expat = try #require(summaries.first { $0.cell.parser == "expat" }?.relative)
        #expect(expat.reference == "libxml2")
        #expect(abs(expat.ratio - 1.5) < 1e-3)
        #expect((expat.low ?? 0) > 1.49 && (expat.high ?? 9) < 1.51)
        #expect(expat.rounds == 10)
        let libxml2 = try #require(summaries.first { $0.cell.parser == "libxml2" }?.relative)
        #expect(libxml2.ratio == 1 && libxml2.low == nil)
        #expect(summaries.first { $0.cell.parser == "null" }?.relative == nil)
        // A named reference.
        let againstExpat = Self.summaries(run, reference: "expat")
        #expect(abs((againstExpat.first { $0.cell.parser == "foundation" }?.relative?.ratio ?? 0) - 1.5) < 1e-3)
    }

    @Test func aColdFirstParseIsRankedInATableOfItsOwn() throws {
        // One feed, two tables: warm, libxml2 is the fastest; cold (a fresh process's first parse,
        // one parse a worker), expat is. Neither table's fastest may come from the other.
        let drift = [1, 1.2, 0.9, 1.1, 1, 1.3]
        let warm = Self.drifting(drift, base: ["libxml2": 4e6, "expat": 6e6, "null": 500])
        let firstParses = Self.drifting(drift, base: ["libxml2": 30e6, "expat": 15e6, "null": 9e6])
        let cold = CellScenario(.cold)
        #expect(cold.ranksParsers && !cold.isParseFromMemory)
        var samples = warm.samples
        for var sample in firstParses.samples where sample.iteration % 5 == 1 {
            sample.cell.scenario = cold
            samples.append(sample)
        }
        let run = RunResult(environment: warm.environment, settings: warm.settings, cells: [], samples: samples)
        let summaries = Self.summaries(run)
        func relative(_ parser: String, _ scenario: CellScenario) throws -> RelativeSpeed {
            try #require(summaries.first { $0.cell.parser == parser && $0.cell.scenario == scenario }?.relative)
        }
        #expect(try relative("expat", .parse).reference == "libxml2")
        #expect(abs(try relative("expat", .parse).ratio - 1.5) < 1e-3)
        #expect(try relative("libxml2", cold).reference == "expat")
        #expect(abs(try relative("libxml2", cold).ratio - 2) < 1e-3)
        #expect(try relative("libxml2", cold).rounds == drift.count)
        #expect(try relative("expat", cold).ratio == 1)
        #expect(summaries.first { $0.cell.parser == "null" && $0.cell.scenario == cold }?.relative == nil)
    }
    @Test func parsesThatLostTheCPUAreLeftOutOfTheFigures() throws {
        let run = Self.drifting(Array(repeating: 1, count: 6), base: ["expat": 6e6], preemptedEvery: 3)
        let summary = try #require(Self.summaries(run).first)
        #expect(summary.preempted == run.samples.filter { $0.preempted == true }.count)
        #expect(summary.preempted ?? 0 > 0)
        // The tripled times are not in any figure.
        #expect((summary.wall?.max ?? 0) < 6.1e6)
        #expect((summary.estimate?.high ?? 0) < 6.1e6)
        #expect(summary.wall?.count == run.samples.count - (summary.preempted ?? 0))
    }

    @Test func theParsesOwnPeakIsTheWorkersMedian() throws {
        var run = Self.drifting([1, 1, 1], base: ["expat": 6e6])
        for index in run.samples.indices {
            run.samples[index].parsePeakBytes = [1 << 20, 3 << 20, 2 << 20][run.samples[index].round - 1]
        }
        #expect(Self.summaries(run).first?.parsePeakBytes == 2 << 20)
    }

    // MARK: Noise

    static let settings = RunSettings(
        iterations: 5, warmup: 1, rounds: 10, chunkSize: 16_384, timeoutSeconds: 30, retryPreempted: true)

    @Test func aQuietRunIsNotNoisy() {
        let run = Self.drifting(
            [1, 1.05, 0.97, 1.02, 1, 0.99, 1.01, 1.03, 0.98, 1], base: ["libxml2": 4e6, "expat": 6e6])
        let noise = NoiseReport.assess(
            cells: Self.summaries(run), samples: run.samples, settings: Self.settings,
            load: MachineLoad(cpuPressure: 0.01, loadAverage: 0.3, cores: 2), baseline: "null")
        #expect(!noise.noisy)
        #expect(noise.warnings.isEmpty && noise.unranked.isEmpty)
        #expect(noise.preemptedShare == 0)
    }

    @Test func eachSignPastItsLimitIsNamedWithWhatToDo() {
        // Parses that lost the CPU.
        let busy = Self.drifting(
            Array(repeating: 1, count: 10), base: ["libxml2": 4e6, "expat": 6e6], preemptedEvery: 3)
        let lost = NoiseReport.assess(
            cells: Self.summaries(busy), samples: busy.samples, settings: Self.settings, load: nil, baseline: "null")
        #expect(lost.noisy)
        #expect(lost.warnings.contains { $0.contains("lost the CPU") && $0.contains("run again") })
        // Other tasks waiting for a CPU.
        let quiet = Self.drifting(Array(repeating: 1, count: 10), base: ["libxml2": 4e6, "expat": 6e6])
        let pressed = NoiseReport.assess(
            cells: Self.summaries(quiet), samples: quiet.samples, settings: Self.settings,
            load: MachineLoad(cpuPressure: 0.4, loadAverage: 3.1, cores: 2), baseline: "null")
        #expect(
            pressed.noisy
                && pressed.warnings.contains { $0.contains("waiting for a CPU 40%") && $0.contains("3.10 on 2 cores") })
        // Workers that disagree: half the rounds twice as slow, for one parser only.
        var disagreeing = Self.drifting(Array(repeating: 1, count: 10), base: ["libxml2": 4e6, "expat": 6e6])
        for index in disagreeing.samples.indices
        where disagreeing.samples[index].cell.parser == "expat" && disagreeing.samples[index].round % 2 == 0 {
            disagreeing.samples[index].wallNs = 12_000_000
        }
        let spread = NoiseReport.assess(
            cells: Self.summaries(disagreeing), samples: disagreeing.samples, settings: Self.settings, load: nil,
            baseline: "null")
        #expect(spread.noisy && spread.warnings.contains { $0.contains("expat workers disagree") })
        // …and then the order of expat and libxml2 is not settled either: said as such.
        #expect(spread.warnings.contains { $0.hasPrefix("Too noisy to rank") } == !spread.unranked.isEmpty)
        // A run over several documents names the document of each line: a parser has a cell on each.
        var twoDocuments = disagreeing
        for var sample in disagreeing.samples {
            sample.cell.feedPath = "../shared/data/documents/hamlet.xml"
            sample.cell.feedSHA256 = "hamlet"
            twoDocuments.samples.append(sample)
        }
        let perDocument = NoiseReport.assess(
            cells: Self.summaries(twoDocuments), samples: twoDocuments.samples, settings: Self.settings, load: nil,
            baseline: "null")
        let lines = perDocument.warnings.filter { $0.contains("workers on") && $0.contains("disagree") }
        #expect(lines.count == 2, "\(perDocument.warnings)")
        #expect(lines.contains { $0.hasPrefix("The expat workers on hamlet.xml disagree by") })
        #expect(lines.contains { $0.hasPrefix("The expat workers on top300.rss.xml disagree by") })
    }

    /// A pair of parsers with too few paired workers for a 95% interval: the text gives the pairs it
    /// had and the interval's real coverage, never "95%" (it said "95% interval 1.80–1.80 (too few
    /// rounds for 95%: --rounds 6 or more)" to a run of 6 rounds whose parses had lost the CPU).
    @Test func anIntervalFromTooFewPairsSaysItsCoverage() throws {
        let few = Self.drifting([1, 1.3, 0.9], base: ["libxml2": 4e6, "expat": 4.1e6])
        let report = NoiseReport.assess(
            cells: Self.summaries(few), samples: few.samples, settings: Self.settings, load: nil, baseline: "null")
        let pair = try #require(report.unranked.first, "\(report.unranked)")
        #expect(pair.contains("from 3 pairs of workers"), "\(pair)")
        #expect(pair.contains("interval, not 95% (6 pairs or more give 95%"), "\(pair)")
        #expect(!pair.contains("95% interval"), "\(pair)")
    }

    /// The machine runs 1.5× slower for whole rounds, every parser alike: the relative speeds hold,
    /// the absolute times cannot, and the run says so.
    @Test func aMachineThatRunsAtTwoSpeedsIsSaidToBeNoisy() throws {
        let drift = [1, 1, 1, 1.5, 1.5, 1.5, 1.5, 1, 1, 1, 1, 1, 1.5, 1.5, 1, 1, 1, 1, 1.5, 1.5].map { $0 * 1.0 }
        let run = Self.drifting(drift, base: ["libxml2": 4e6, "expat": 6e6, "foundation": 9e6])
        let summaries = Self.summaries(run)
        let noise = NoiseReport.assess(
            cells: summaries, samples: run.samples, settings: Self.settings, load: nil, baseline: "null")
        #expect(noise.noisy)
        let warning = try #require(noise.warnings.first { $0.contains("two speeds") })
        #expect(warning.contains("in 12 of 20 rounds every parser was 1.50× faster"))
        #expect(abs((summaries.first { $0.cell.parser == "expat" }?.relative?.ratio ?? 0) - 1.5) < 1e-3)
        // A machine that wanders by a few percent does not.
        let steady = Self.drifting((0..<20).map { 1 + 0.02 * Double($0 % 5) }, base: ["libxml2": 4e6, "expat": 6e6])
        let quiet = NoiseReport.assess(
            cells: Self.summaries(steady), samples: steady.samples, settings: Self.settings, load: nil, baseline: "null"
        )
        #expect(!quiet.warnings.contains { $0.contains("two speeds") })
    }

    @Test func parsersTooCloseToTellApartAreListed() {
        // expat alternately 5% faster and 5% slower than libxml2, round by round.
        var run = Self.drifting(Array(repeating: 1, count: 10), base: ["libxml2": 4e6, "expat": 4e6])
        for index in run.samples.indices where run.samples[index].cell.parser == "expat" {
            run.samples[index].wallNs = run.samples[index].round % 2 == 0 ? 4_200_000 : 3_800_000
        }
        let noise = NoiseReport.assess(
            cells: Self.summaries(run), samples: run.samples, settings: Self.settings, load: nil, baseline: "null")
        #expect(noise.unranked.count == 1)
        #expect(noise.unranked.first?.contains("interval") == true)
        #expect(!noise.noisy)
    }
}
