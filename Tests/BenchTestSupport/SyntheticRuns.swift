import BenchResults

/// Run files made up for the comparison and report tests: every figure chosen by the test.
public enum SyntheticRuns {
    /// A deterministic stream of noise in [−1, 1] (a linear congruential generator).
    public struct Noise {
        var state: UInt64

        public init(seed: UInt64) {
            state = seed
        }

        public mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53) * 2 - 1
        }
    }

    /// A parse run: for each parser, one worker per value of `rounds` (its median, in ns), each with
    /// `iterations` values spread ±`spread` around it (so the worker's median is exactly its value).
    ///
    /// `metric` says which sample field holds the values; peak memory is `peak` bytes per worker;
    /// every timed sample's calibration figure is `calibrationNs` when given. A counted run's
    /// samples have `cyclesPerInstruction` × their instructions as estimated cycles, when given.
    public static func run(
        id: String, started: String, rounds: [String: [Double]], iterations: Int = 5, spread: Double = 0.002,
        feedSHA256: String = "feedsha", feedPath: String = "Data/top300.rss.xml", debug: Bool = false,
        libxml2: String = "2.9.14", instructions: Bool = false, peak: [String: [Int]] = [:],
        calibrationNs: Int? = nil, cyclesPerInstruction: Double? = nil
    ) -> RunResult {
        var samples: [Sample] = []
        var cells: [CellSummary] = []
        for parser in rounds.keys.sorted() {
            let cell = CellKey(
                parser: parser, scenario: .parse, feedPath: feedPath, feedSHA256: feedSHA256, feedBytes: 901_440,
                chunkSize: 16_384)
            var cellSamples: [Sample] = []
            for (index, value) in (rounds[parser] ?? []).enumerated() {
                for k in 0..<iterations {
                    let offset = iterations == 1 ? 0 : (Double(k) / Double(iterations - 1) * 2 - 1) * spread
                    let number = Int((value * (1 + offset)).rounded())
                    let workerPeak = peak[parser].map { $0[index % $0.count] } ?? 30_000_000
                    var sample = Sample(
                        cell: cell, songs: parser == "null" ? 0 : 300, round: index + 1,
                        iteration: index * iterations + k + 1,
                        wallNs: instructions ? nil : number, cpuNs: instructions ? nil : number, firstSongNs: nil,
                        peakResidentBytes: instructions ? nil : workerPeak, error: nil, debug: debug)
                    if instructions {
                        sample.instructions = number
                        sample.estimatedCycles = cyclesPerInstruction.map { Int((Double(number) * $0).rounded()) }
                    }
                    if !instructions { sample.calibrationNs = calibrationNs }
                    cellSamples.append(sample)
                }
            }
            samples += cellSamples
            cells.append(
                CellSummary.summarise(
                    cell, samples: cellSamples, peakResidentBytes: nil, baselinePeakBytes: nil, outcome: nil))
        }
        let environment = RunEnvironment(
            runID: id, startedAt: started, endedAt: started, commandLine: "bench run",
            buildConfiguration: debug ? "debug" : "release",
            gitCommit: "abc", host: "test", os: "Linux", cpuModel: "CPU", cores: 2, swiftVersion: "6.3.1",
            libxml2Version: libxml2,
            expatVersion: "2.5.0", complete: true)
        if !instructions { RelativeSpeed.rank(&cells, samples: samples, reference: nil, baseline: "null") }
        let rounds = rounds.values.map(\.count).max() ?? 1
        let settings = RunSettings(
            iterations: iterations, warmup: 1, rounds: rounds, chunkSize: 16_384, timeoutSeconds: 30,
            counter: instructions ? RunSettings.instructionCounter : nil)
        return RunResult(environment: environment, settings: settings, cells: cells, samples: samples)
    }

    /// `count` round values around `value`, each off by up to ±`noise` (relative), from `seed`.
    public static func noisy(_ value: Double, count: Int, noise: Double, seed: UInt64) -> [Double] {
        var generator = Noise(seed: seed)
        return (0..<count).map { _ in value * (1 + noise * generator.next()) }
    }
}
