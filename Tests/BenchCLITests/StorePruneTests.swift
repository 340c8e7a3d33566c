import BenchResults
import BenchTestSupport
import Foundation
import StatsStore
import Testing

/// `bench store prune` end to end: what history and report print is the same after it (they read
/// the runs' summaries, which it keeps), a dry run changes nothing, and what needs the raw samples
/// of a pruned run says they were pruned.
@Suite("bench store prune, end to end")
struct StorePruneTests {
    /// Twelve runs of one host, two parsers, expat 5% slower from run 7 (a change history finds).
    static func store(_ path: String) throws -> [String] {
        let store = try StatsStores.open(path)
        var ids: [String] = []
        for run in 0..<12 {
            var walls: [String: [Double]] = [:]
            for (index, parser) in ["expat", "libxml2"].enumerated() {
                let slow = parser == "expat" && run >= 6 ? 1.05 : 1.0
                walls[parser] = SyntheticRuns.noisy(
                    3_000_000 * slow, count: 5, noise: 0.01, seed: UInt64(run * 2 + index + 1) &* 0x9E37_79B9_7F4A_7C15)
            }
            var result = SyntheticRuns.run(
                id: String(format: "20261122T10%02d00Z-p", run), started: String(format: "2026-11-22T10:%02d:00Z", run),
                rounds: walls, calibrationNs: 900_000)
            result.environment.gitCommit = run >= 6 ? "slow" : "fast\(run)"
            let id = result.environment.runID
            let cells = CellRecord.of(result.cells, samples: result.samples)
            try store.beginRun(result.environment, settings: result.settings)
            try store.record(result.samples, cells: cells, runID: id)
            try store.finishRun(id, endedAt: result.environment.startedAt, noise: nil, rounds: nil, cells: cells)
            ids.append(id)
        }
        return ids
    }

    @Test func historyAndReportPrintTheSameAfterItAndAPrunedRunSaysSo() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("stats.sqlite")
        let ids = try Self.store(path)
        let commands = [
            ["history", "--store", path], ["history", "--store", path, "--metric", "wall"],
            ["report", "--store", path], ["report", "--store", path, "--format", "csv"],
        ]
        let before = try commands.map { try runBench($0) }
        for output in before { #expect(output.status == 0, "\(output.standardError)") }
        #expect(before[1].standardOutput.contains("expat, parse"), "\(before[1].standardOutput)")

        let dry = try runBench(["store", "prune", "--keep-runs", "4", "--dry-run", "--store", path])
        #expect(dry.status == 0, "\(dry.standardError)")
        #expect(words(dry.standardOutput).contains("8 run(s) lose theirs: 400 of the store's 600 samples"))
        #expect(dry.standardOutput.contains("Nothing was changed (--dry-run)."))
        #expect(try StatsStores.open(path).samples(matching: SampleFilter()).count == 600)

        let prune = try runBench(["store", "prune", "--keep-runs", "4", "--store", path])
        #expect(prune.status == 0, "\(prune.standardError)")
        #expect(words(prune.standardOutput).contains("Removed the raw samples of 8 run(s) (400 samples)"))
        #expect(try StatsStores.open(path).samples(matching: SampleFilter()).count == 200)

        // History and report read the runs' summaries, which retention keeps: the same output.
        for (command, earlier) in zip(commands, before) {
            let after = try runBench(command)
            #expect(after.status == 0, "\(after.standardError)")
            #expect(after.standardOutput == earlier.standardOutput, "bench \(command.joined(separator: " "))")
        }

        // Compare needs each worker's samples: a pruned run says where they went.
        let compare = try runBench(["compare", ids[0], ids[11], "--store", path])
        #expect(compare.status == 1)
        #expect(
            words(compare.standardError).contains("the raw samples of run \(ids[0]) (50) were removed by retention"),
            "\(compare.standardError)")
        // Runs retention kept compare as before.
        #expect(try runBench(["compare", ids[8], ids[11], "--store", path]).status != 1)

        // Which runs: one of the two options, each at least 1.
        #expect(try runBench(["store", "prune", "--store", path]).status != 0)
        #expect(try runBench(["store", "prune", "--keep-runs", "0", "--store", path]).status != 0)
    }
}
