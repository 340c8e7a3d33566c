import BenchResults
import BenchTestSupport
import Foundation
import Testing

@testable import BenchEngine

/// Which cells a plan's scenarios make: `queue` brings its cancel cells, and no cell is made twice.
@Suite("Scenario cells")
struct ScenarioCellsTests {
    static let settings = RunSettings(iterations: 1, warmup: 0, rounds: 1, chunkSize: 4_096, timeoutSeconds: 30)

    static func cells(_ scenarios: [ScenarioID]) throws -> [CellKey] {
        let feed = try FeedFile(path: TestPaths.top300)
        let plan = RunPlan(
            parsers: ["expat"], feeds: [feed.path], settings: Self.settings, executable: TestPaths.benchExecutable,
            debugBuild: true, scenarios: scenarios)
        let verification = FeedVerification(
            path: feed.path, bytes: feed.bytes.count, sha256: feed.sha256, chunkSizes: [0], verdicts: [])
        let check = BenchRunner.FeedCheck(feed: feed, verification: verification, agreeing: ["expat"])
        return BenchRunner(plan: plan).cells(for: [check])
    }

    @Test func queueBringsItsCancelCellsAndNothingIsMeasuredTwice() throws {
        let queue = try Self.cells([.queue]).filter { $0.parser == "expat" }.map(\.scenario.name)
        #expect(queue == ["queue-1", "queue-2", "queue-4", "cancel-1", "cancel-2", "cancel-4"])
        let cancel = try Self.cells([.cancel]).filter { $0.parser == "expat" }.map(\.scenario.name)
        #expect(cancel == ["cancel-1", "cancel-2", "cancel-4"])
        let both = try Self.cells([.queue, .cancel])
        #expect(both.count == Set(both).count)
        #expect(both.count == 2 * 6)
    }

    @Test func parseCellsHaveNoNetworkAndDownloadCellsNoChunkSize() throws {
        for cell in try Self.cells([.parse, .download, .store]) {
            switch cell.scenario.kind {
            case .parse?: #expect(cell.network.isEmpty && cell.chunkSize == 4_096)
            case .store?: #expect(cell.network.isEmpty && cell.chunkSize == 0)
            default: #expect(!cell.network.isEmpty && cell.chunkSize == 0)
            }
        }
    }
}
