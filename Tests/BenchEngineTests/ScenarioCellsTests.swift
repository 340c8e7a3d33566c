import BenchResults
import BenchTestSupport
import Foundation
import GRDB
import SongFeed
import SongStore
import Testing

@testable import BenchEngine
@testable import BenchWorker

/// Which cells a plan's scenarios make: `queue` brings its cancel cells, and no cell is made twice.
@Suite("Scenario cells")
struct ScenarioCellsTests {
    static let settings = RunSettings(iterations: 1, warmup: 0, rounds: 1, chunkSize: 4_096, timeoutSeconds: 30)

    static func cells(_ scenarios: [ScenarioID], agreeing: [String] = ["expat"]) throws -> [CellKey] {
        let feed = try FeedFile(path: TestPaths.top300)
        let plan = RunPlan(
            parsers: agreeing, feeds: [feed.path], settings: Self.settings, executable: TestPaths.workerExecutable,
            debugBuild: true, scenarios: scenarios)
        let verification = FeedVerification(
            path: feed.path, bytes: feed.bytes.count, sha256: feed.sha256, chunkSizes: [0], verdicts: [])
        let check = BenchRunner.FeedCheck(feed: feed, verification: verification, agreeing: agreeing)
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

    /// The reading does not depend on the parser: its cells run for one that builds songs (libxml2
    /// when it agreed), never for the baseline.
    @Test func readCellsRunForOneParserThatBuildsSongs() throws {
        let read = try Self.cells([.read], agreeing: ["expat", "memchr", "libxml2"])
        #expect(Set(read.map(\.parser)) == ["libxml2"])
        #expect(
            read.map(\.scenario.name) == [
                "read-shared", "read-per-screen", "read-batch", "read-faults", "read-cache-default", "read-cache-table",
            ])
        #expect(read.allSatisfy { $0.network.isEmpty })
        #expect(Set(try Self.cells([.read], agreeing: ["memchr", "expat"]).map(\.parser)) == ["expat"])
        #expect(try Self.cells([.read], agreeing: ["memchr"]).isEmpty)
        // The reports' names of the choices (BenchResults cannot see SongStore) are the store's.
        #expect(ReadPairs.choices.sorted() == SongShelf.Choice.allCases.map(\.rawValue).sorted())
        #expect(ReadPairs.pairs.flatMap { [$0.against, $0.recommended] }.sorted() == ReadPairs.choices.sorted())
        #expect(ScenarioID.read.countsAllocations && ScenarioID.parse.countsAllocations)
        #expect(!ScenarioID.store.countsAllocations)
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

/// A `read` iteration: its session timed whole and checked; a database another process locks ends
/// that iteration with the message, and the next session reads again.
@Suite("The read practice's sessions")
struct ReadSessionTests {
    @Test func aLockedDatabaseEndsTheSessionAndTheNextReads() throws {
        let directory = try TemporaryDirectory()
        try withExtendedLifetime(directory) {
            let songs = FeedGenerator(songs: 90, seed: 3).generate().songs
            let shelf = try SongShelf.stock(songs, at: directory.path("shelf.sqlite"))
            let reader = SongShelfReader(shelf: shelf, choice: .faults)
            let first = try ReadWork.session(reader, first: 0, countingAllocations: false)
            #expect(first.visits == SongShelf.visitsPerIteration && first.ns > 0)
            // 50 lists, each its keys then a query per song: 12 rounds of the 4 pages (90 songs), then 2 pages of 25.
            #expect(first.queries == 50 + 12 * 90 + 2 * 25)
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true
            let writer = try DatabaseQueue(path: shelf.path, configuration: configuration)
            try writer.inDatabase { db in try db.execute(sql: "BEGIN EXCLUSIVE") }
            #expect {
                try ReadWork.session(reader, first: 50, countingAllocations: false)
            } throws: { error in
                "\(error)".contains("database is locked")
            }
            try writer.inDatabase { db in try db.execute(sql: "ROLLBACK") }
            let next = try ReadWork.session(reader, first: 100, countingAllocations: false)
            #expect(next.visits == 50 && next.pagesRead >= 0)
        }
    }
}
