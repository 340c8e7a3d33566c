import BenchResults

/// A sweep made up for the tests, with known costs.
public enum SyntheticSweep {
    /// A timing run of a scale sweep made up with known costs: parser time = a + b·bytes, its
    /// peak = c + d·bytes, its allocations e per song; `foundation` refused the largest feed.
    public static func scaleRun(sizes: [(songs: Int, bytes: Int)], chunkSizes: [Int] = []) -> RunResult {
        var samples: [Sample] = []
        var cells: [CellSummary] = []
        let costs: [String: (a: Double, b: Double, c: Int, d: Double, e: Int)] = [
            "libxml2": (100_000, 7, 600_000, 0.1, 3), "foundation": (0, 18, 1_000_000, 3, 49),
        ]
        for (index, size) in sizes.enumerated() {
            let feed = "feeds/songs-\(size.songs).xml"
            for parser in costs.keys.sorted() {
                for chunk in [16_384] + (index == 0 ? chunkSizes : []) {
                    let key = CellKey(
                        parser: parser, scenario: .parse, feedPath: feed, feedSHA256: "sha\(index)",
                        feedBytes: size.bytes, chunkSize: chunk)
                    if parser == "foundation" && index == sizes.count - 1 {
                        cells.append(
                            CellSummary.notTimed(
                                parser: parser, feedPath: feed, feedSHA256: "sha\(index)", feedBytes: size.bytes,
                                chunkSize: 16_384, why: "FAILED: the document is over 10,000,000 bytes"))
                        continue
                    }
                    guard let cost = costs[parser] else { continue }
                    let calls = chunk == 0 ? 1 : (size.bytes + chunk - 1) / chunk
                    let time = Int(cost.a + cost.b * Double(size.bytes)) + (chunk == 16_384 ? 0 : 1_000 * calls)
                    var cellSamples = (1...3).map { round in
                        var sample = Sample(
                            cell: key, songs: size.songs, round: round, iteration: round, wallNs: time, cpuNs: time,
                            firstSongNs: nil,
                            peakResidentBytes: 40_000_000, error: nil, debug: false)
                        sample.parsePeakBytes = cost.c + Int(cost.d * Double(size.bytes))
                        return sample
                    }
                    var counted = Sample(
                        cell: key, songs: size.songs, round: 0, iteration: 4, wallNs: nil, cpuNs: nil, firstSongNs: nil,
                        peakResidentBytes: nil, error: nil, debug: false)
                    counted.allocations = cost.e * size.songs
                    counted.allocatedBytes = 100 * size.songs
                    counted.keptBytes = 330 * size.songs
                    cellSamples.append(counted)
                    samples += cellSamples
                    cells.append(
                        CellSummary.summarise(
                            key, samples: cellSamples, peakResidentBytes: 40_000_000, baselinePeakBytes: nil,
                            outcome: nil))
                }
            }
        }
        let environment = RunEnvironment(
            runID: "sweep-1", startedAt: "2026-11-22T10:00:00Z", commandLine: "bench sweep",
            buildConfiguration: "release",
            gitCommit: nil, host: "test", os: "Linux", cpuModel: "CPU", cores: 2, swiftVersion: "6.3.1",
            libxml2Version: "2.9.14",
            expatVersion: "2.5.0", complete: true)
        let settings = RunSettings(iterations: 1, warmup: 1, rounds: 3, chunkSize: 16_384, timeoutSeconds: 30)
        return RunResult(environment: environment, settings: settings, cells: cells, samples: samples)
    }

    public static let sizes = [
        (songs: 300, bytes: 900_000), (songs: 3_000, bytes: 9_000_000), (songs: 30_000, bytes: 90_000_000),
    ]

    /// The sweep of ``scaleRun(sizes:)`` over ``sizes``, with a chunk sweep when `chunks` is set.
    public static func result(chunks: [Int] = []) -> SweepResult {
        let plan = SweepPlan(
            sizes: [300, 3_000, 30_000], chunkSize: 16_384, chunkSizes: chunks, chunkDocumentSize: 300,
            instructionsUpTo: 0)
        var feeds: [Int: String] = [:]
        for size in sizes { feeds[size.songs] = "feeds/songs-\(size.songs).xml" }
        return SweepResult.analyse(
            plan: plan, timed: scaleRun(sizes: sizes, chunkSizes: chunks.filter { $0 != 16_384 }), counted: nil,
            scaleFeeds: feeds,
            chunkFeed: chunks.isEmpty ? nil : feeds[300],
            parsers: ["libxml2", "foundation"])
    }
}
