import BenchResults
import BenchTestSupport
import Foundation
import GRDB
import StatsStore
import Testing

@Suite("Stats store")
struct StatsDatabaseTests {
    static func environment(_ id: String, startedAt: String, configuration: String = "release") -> RunEnvironment {
        RunEnvironment(
            runID: id, startedAt: startedAt, commandLine: "bench run", buildConfiguration: configuration,
            gitCommit: nil,
            host: "host", os: "Linux", cpuModel: "CPU", cores: 2, swiftVersion: "6.3.1", libxml2Version: "2.9.14",
            expatVersion: "2.5.0")
    }

    static func samples(
        parser: String, walls: [Int], debug: Bool = false, feed: String = "Data/top300.rss.xml", error: String? = nil
    ) -> [Sample] {
        let cell = CellKey(
            parser: parser, scenario: .parse, feedPath: feed, feedSHA256: "sha-\(feed)", feedBytes: 901_440,
            chunkSize: 16_384)
        return walls.enumerated().map { index, wall in
            Sample(
                cell: cell, songs: 300, round: 1, iteration: index + 1, wallNs: wall, cpuNs: wall - 1, firstSongNs: 10,
                peakResidentBytes: 30 << 20, error: error, debug: debug)
        }
    }

    @Test func migratesFromEmptyAndRoundTrips() throws {
        let store = try StatsDatabase(writer: DatabaseQueue())
        let env = Self.environment("run-1", startedAt: "2026-11-22T10:00:00Z")
        try store.beginRun(env, settings: nil)
        #expect(try store.runs() == [env])
        #expect(try store.runs().first?.complete == false)
        var counted = Self.samples(parser: "foundation", walls: [7])[0]
        counted.wallNs = nil
        counted.cpuNs = nil
        counted.instructions = 61_815_951
        let samples =
            Self.samples(parser: "expat", walls: [3, 1, 2])
            + Self.samples(parser: "libxml2", walls: [5], error: "x, \"y\"")
            + [counted]
        try store.record(samples, runID: "run-1")
        try store.finishRun("run-1", endedAt: "2026-11-22T10:01:00Z", noise: nil, rounds: nil)
        let stored = try store.samples()
        #expect(stored.map(\.sample) == samples)
        #expect(stored.allSatisfy { $0.runID == "run-1" && $0.runStartedAt == "2026-11-22T10:00:00Z" })
        let finished = try #require(try store.runs().first)
        #expect(finished.complete && finished.endedAt == "2026-11-22T10:01:00Z")
    }

    @Test func allocationCountsRoundTrip() throws {
        let store = try StatsDatabase(writer: DatabaseQueue())
        try store.beginRun(Self.environment("run-a", startedAt: "2026-11-22T10:00:00Z"), settings: nil)
        var counted = Self.samples(parser: "expat", walls: [1])[0]
        counted.wallNs = nil
        counted.cpuNs = nil
        counted.round = 0
        counted.allocations = 743
        counted.allocatedBytes = 208_097
        counted.keptBytes = 98_704
        try store.record([counted], runID: "run-a")
        #expect(try store.samples().map(\.sample) == [counted])
    }

    /// Every stored metric has its column, and a sample with every metric set comes back whole
    /// (the record reads and writes the columns from ``Metric``'s table).
    @Test func everyMetricRoundTrips() throws {
        let store = try StatsDatabase(writer: DatabaseQueue())
        try store.beginRun(Self.environment("run-m", startedAt: "2026-11-22T10:00:00Z"), settings: nil)
        var sample = Self.samples(parser: "expat", walls: [1])[0]
        for (index, metric) in Metric.stored.enumerated() { sample[metric] = 1_000 + index }
        sample.preempted = true
        #expect(Metric.stored.allSatisfy { sample[$0] != nil })
        try store.record([sample], runID: "run-m")
        #expect(try store.samples().map(\.sample) == [sample])
        #expect(Set(Metric.stored.map(\.column)).count == Metric.stored.count)
    }

    @Test func reopeningAFileKeepsItsRunsAndAppliesNoMigrationTwice() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("nested/stats.sqlite")
        do {
            let store = try StatsDatabase(path: path)
            try store.beginRun(Self.environment("a", startedAt: "2026-11-22T10:00:00Z"), settings: nil)
        }
        let again = try StatsDatabase(path: path)
        #expect(try again.runs().map(\.runID) == ["a"])
        #expect(try again.runs().first?.complete == false, "an unfinished run stays incomplete")
    }

    @Test func averagesQueryFiltersAndAggregates() throws {
        let store = try StatsDatabase(writer: DatabaseQueue())
        try store.beginRun(Self.environment("r1", startedAt: "2026-11-20T10:00:00Z"), settings: nil)
        try store.record(Self.samples(parser: "expat", walls: [10, 20, 30]), runID: "r1")
        try store.record(Self.samples(parser: "libxml2", walls: [5, 6]), runID: "r1")
        try store.beginRun(Self.environment("r2", startedAt: "2026-11-22T10:00:00Z"), settings: nil)
        try store.record(
            Self.samples(parser: "expat", walls: [40], error: nil)
                + Self.samples(parser: "expat", walls: [99], error: "crash"), runID: "r2")
        try store.beginRun(
            Self.environment("r3", startedAt: "2026-11-23T10:00:00Z", configuration: "debug"), settings: nil)
        try store.record(Self.samples(parser: "expat", walls: [1_000], debug: true), runID: "r3")

        let rows = HistoryRow.aggregate(try store.samples())
        let expat = try #require(rows.first { $0.parser == "expat" })
        #expect(expat.runs == 2)  // the debug run is left out
        #expect(expat.samples == 4 && expat.failed == 1)
        #expect(expat.wall?.mean == 25 && expat.wall?.median == 25)
        #expect(rows.first { $0.parser == "libxml2" }?.wall?.median == 5.5)

        #expect(
            HistoryRow.aggregate(try store.samples(matching: SampleFilter(includeDebug: true))).first {
                $0.parser == "expat"
            }?.runs == 3)
        #expect(try store.samples(matching: SampleFilter(parsers: ["libxml2"])).count == 2)
        #expect(try store.samples(matching: SampleFilter(since: "2026-11-21")).map(\.runID) == ["r2", "r2"])
        #expect(Set(try store.samples(matching: SampleFilter(lastRuns: 2)).map(\.runID)) == ["r2"])
        #expect(try store.samples(matching: SampleFilter(feed: "top300.rss.xml")).count == 7)
        #expect(try store.samples(matching: SampleFilter(feed: "other.xml")).isEmpty)
        #expect(try store.samples(matching: SampleFilter(scenarios: ["download"])).isEmpty)
    }

    @Test func twoWritersAtOnce() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("stats.sqlite")
        _ = try StatsDatabase(path: path)
        // Two stores on one file (as two bench processes would have), writing at the same time.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<2 {
                group.addTask {
                    let store = try StatsDatabase(path: path)
                    let id = "writer-\(writer)"
                    try store.beginRun(Self.environment(id, startedAt: "2026-11-22T10:00:0\(writer)Z"), settings: nil)
                    for cell in 0..<25 {
                        try store.record(Self.samples(parser: "p\(cell)", walls: Array(1...20)), runID: id)
                    }
                    try store.finishRun(id, endedAt: "2026-11-22T10:01:00Z", noise: nil, rounds: nil)
                }
            }
            try await group.waitForAll()
        }
        let store = try StatsDatabase(path: path)
        let written: Int = 2 * 25 * 20
        #expect(try store.samples().count == written)
        #expect(try store.runs().allSatisfy(\.complete))
    }

    @Test func anUnwritablePathIsAClearError() {
        #expect(throws: StatsStoreError.self) { try StatsDatabase(path: "/proc/no/such/dir/stats.sqlite") }
    }
}

@Suite("Stats store: settings, noise, and what history never pools")
struct StoredSettingsTests {
    @Test func aRunKeepsItsSettingsAndItsNoiseReport() throws {
        let store = try StatsDatabase(writer: DatabaseQueue())
        let settings = RunSettings(
            iterations: 5, warmup: 1, rounds: 20, chunkSize: 4_096, timeoutSeconds: 30, counter: nil,
            slowdownPercent: nil,
            reference: "expat", retryPreempted: true, downloadIterations: 3, downloadRounds: 5, downloadWarmup: 3)
        try store.beginRun(StatsDatabaseTests.environment("r", startedAt: "2026-11-22T10:00:00Z"), settings: settings)
        var sample = StatsDatabaseTests.samples(parser: "expat", walls: [6_000_000])[0]
        sample.preempted = true
        sample.parsePeakBytes = 1_234_567
        try store.record([sample], runID: "r")
        let noise = NoiseReport(
            noisy: true, warnings: ["busy"], unranked: [], preemptedShare: 0.3, largestSpread: 0.1,
            load: MachineLoad(cpuPressure: 0.4, loadAverage: 2.5, cores: 2))
        try store.finishRun("r", endedAt: "2026-11-22T10:01:00Z", noise: noise, rounds: nil)
        let details = try #require(try store.details(of: "r"))
        #expect(details.settings == settings)
        #expect(details.noise == noise)
        let stored = try store.samples()
        #expect(stored.first?.sample == sample)
        #expect(stored.first?.runNoisy == true)
        // The parse that lost the CPU is kept, and left out of the figures.
        let row = try #require(HistoryRow.aggregate(stored).first)
        #expect(row.samples == 0 && row.noisyRuns == 1)
        #expect(row.parsePeakMedianBytes == 1_234_567)
    }

    @Test func gateTestsAreLeftOutUnlessAsked() throws {
        let store = try StatsDatabase(writer: DatabaseQueue())
        let real = RunSettings(iterations: 5, warmup: 1, rounds: 1, chunkSize: 16_384, timeoutSeconds: 30)
        var injected = real
        injected.slowdownPercent = 10
        try store.beginRun(StatsDatabaseTests.environment("real", startedAt: "2026-11-22T10:00:00Z"), settings: real)
        try store.record(StatsDatabaseTests.samples(parser: "expat", walls: [6_000_000]), runID: "real")
        try store.beginRun(
            StatsDatabaseTests.environment("gate", startedAt: "2026-11-22T10:01:00Z"), settings: injected)
        try store.record(StatsDatabaseTests.samples(parser: "expat", walls: [6_600_000]), runID: "gate")
        #expect(try store.samples().map(\.runID) == ["real"])
        #expect(try store.samples(matching: SampleFilter(includeGateTests: true)).map(\.runID) == ["real", "gate"])
    }

    @Test func historyNeverPoolsDifferentChunkSizesOrCounters() {
        func stored(_ chunk: Int, wall: Int?, instructions: Int? = nil) -> StoredSample {
            var sample = Sample(
                cell: CellKey(
                    parser: "expat", scenario: .parse, feedPath: "f", feedSHA256: "s", feedBytes: 1, chunkSize: chunk),
                songs: 1, round: 1, iteration: 1, wallNs: wall, cpuNs: wall, firstSongNs: nil, peakResidentBytes: nil,
                error: nil, debug: false)
            sample.instructions = instructions
            return StoredSample(runID: "r\(chunk)", runStartedAt: "t", sample: sample)
        }
        let rows = HistoryRow.aggregate([
            stored(512, wall: 9), stored(16_384, wall: 6), stored(16_384, wall: nil, instructions: 40),
        ])
        #expect(rows.count == 3)
        #expect(Set(rows.compactMap(\.chunkSize)) == [512, 16_384])
    }
}

@Suite("Stats store: opened by several processes at once")
struct ConcurrentOpenTests {
    /// Several `bench` processes may open a new store at the same moment (two runs started together,
    /// or `bench report` while a run creates it): each applies the migrations it lacks, and none fails
    /// because another applied them first.
    @Test func manyOpenAFreshStoreAtOnce() async throws {
        for trial in 0..<5 {
            let directory = try TemporaryDirectory()
            let path = directory.path("stats-\(trial).sqlite")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<6 {
                    group.addTask { _ = try StatsDatabase(path: path) }
                }
                try await group.waitForAll()
            }
            let store = try StatsDatabase(path: path)
            #expect(try store.runs().isEmpty)
        }
    }
}

/// A store this `bench` must not write to.
@Suite("Stats store: stores it refuses")
struct RefusedStoreTests {
    @Test func aStoreFromANewerSchemaIsRefusedUntouched() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("stats.sqlite")
        _ = try StatsDatabase(path: path)
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')")
                try db.execute(sql: "CREATE TABLE future (x INTEGER)")
            }
        }
        #expect {
            _ = try StatsDatabase(path: path)
        } throws: { error in
            let text = "\(error)"
            return text.contains("made by a newer bench") && text.contains("v99: from the future")
        }
        let queue = try DatabaseQueue(path: path)
        let identifiers = try queue.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(identifiers.last == "v99: from the future")
        #expect(try queue.read { try $0.tableExists("future") })
    }
}
