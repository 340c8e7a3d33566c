import BenchWorker
import BenchResults
import FeedParsers
import FeedTransport
import Foundation
import SongStore

/// What `bench run` measures: parsers × feeds × scenarios, with the measuring settings.
package struct RunPlan: Sendable {
    package var parsers: [String]
    /// Feed files; for the network scenarios they are served by the embedded server.
    package var feeds: [String]
    package var settings: RunSettings
    /// The worker executable the workers run (`bench-worker`, beside `bench`).
    package var executable: String
    /// The network worker, which runs the jobs that fetch over HTTP; `nil`: the one beside the
    /// running executable (`WorkerProcess/networkWorkerExecutable()`).
    package var networkExecutable: String?
    /// Whether this is a debug build (its samples are marked).
    package var debugBuild: Bool
    /// What to measure; each scenario's cells come from its type (`ScenarioID.engine`).
    package var scenarios: [ScenarioID]
    /// The embedded server's network profile.
    package var network: NetworkProfile
    /// Starts the embedded server, for the scenarios that fetch their feed from it.
    ///
    /// The tool gives `FeedServer.starter` (module `FeedServing`): the engine does not import
    /// SwiftNIO. A plan that needs the server (``needsFeedHost``) and has none is refused before its
    /// agreement check starts a worker (``BenchRunner/MissingFeedHost``).
    package var feedHost: FeedHostStarter?
    /// For `download` and `conditional`: fetch these URLs instead of the embedded server's, by feed
    /// path (a real remote feed, downloaded once to a local file for the agreement check).
    package var remoteURLs: [String: URL]
    /// When set, `parse` cells count instructions under callgrind instead of timing (settings.counter
    /// is then "instructions").
    package var instructionCounter: InstructionCounter?
    /// The chunk sizes of the `parse` cells of a feed (a chunk-size sweep), by feed path; a feed not
    /// named here is pushed `settings.chunkSize` bytes at a time.
    package var chunkSizesByFeed: [String: [Int]] = [:]
    /// Whether the `null` baseline gets cells (a sweep's instruction counts leave it out: under
    /// valgrind each worker costs seconds to start, and the baseline's count is not fitted).
    package var includesBaseline = true
    /// The `paged` practice's page sizes (songs per page).
    package var pageSizes: [Int] = [25, 100, 300]
    /// The `queue` practice's widths (requests at once).
    package var queueWidths: [Int] = [1, 2, 4]
    /// The `queue` practice's page size (songs per page).
    package var queuePageSize = RunDefaults.queuePageSize
    /// The concurrent scenario's thread counts (parses at once), one cell each.
    package var threadCounts: [Int] = [1, 2, 4]
    /// The `store` practice's ways of writing the songs.
    package var storePlans: [SongStore.Plan] = SongStore.Plan.all
    /// Parsers whose unconfirmed answer (``ParserVerdict/Status/unverified(_:)``) is timed all the
    /// same, because the user named them (`--allow-unverified`); the run still reports them.
    package var allowUnverified: Set<String> = []
    /// The `read` practice's ways of reading the stored songs.
    package var readChoices: [SongShelf.Choice] = SongShelf.Choice.allCases
    /// Why the run counts no allocations though they were asked for: the interposer is not beside
    /// ``executable`` (``leaveOutUnavailableAllocationCounts()``); `nil` otherwise.
    package private(set) var allocationCountsUnavailable: String?

    /// Leaves the allocation counts out of a plan whose settings ask for them when the interposer
    /// is not beside ``executable`` (a `bench` copied on its own), saying why in
    /// ``allocationCountsUnavailable``; the settings then record that none were counted.
    package mutating func leaveOutUnavailableAllocationCounts() {
        guard settings.countsAllocations == true, instructionCounter == nil,
            let missing = AllocationCounter.unavailable(besideExecutable: executable)
        else { return }
        settings.countsAllocations = false
        allocationCountsUnavailable = missing
    }

    /// What the parsers build: a document's events when the plan measures the `document` scenario
    /// (a run measures one workload), songs otherwise.
    package var workload: Workload { scenarios.first { $0.workload != .songs }?.workload ?? .songs }

    /// Whether a cell of the plan fetches its feed from the embedded server: a scenario that fetches
    /// its feed, and a feed that is not a `--url`'s.
    package var needsFeedHost: Bool {
        scenarios.contains { $0.engine.fetchesFeed } && feeds.contains { remoteURLs[$0] == nil }
    }

    /// Refuses a plan that needs the embedded server (``needsFeedHost``) and has no ``feedHost``.
    func checkFeedHost() throws {
        if needsFeedHost && feedHost == nil { throw BenchRunner.MissingFeedHost() }
    }

    /// The chunk sizes the `parse` cells of `feed` are timed with.
    package func chunkSizes(for feed: String) -> [Int] {
        chunkSizesByFeed[feed] ?? [settings.chunkSize]
    }

    /// The network profile's name in the cells of `path` ("remote" for a `--url` feed).
    func networkName(for path: String) -> String {
        remoteURLs[path] == nil ? network.name : "remote"
    }

    package init(
        parsers: [String], feeds: [String], settings: RunSettings, executable: String, debugBuild: Bool,
        scenarios: [ScenarioID] = [.parse], network: NetworkProfile = .loopback, remoteURLs: [String: URL] = [:],
        instructionCounter: InstructionCounter? = nil, feedHost: FeedHostStarter? = nil
    ) {
        self.parsers = parsers
        self.feeds = feeds
        self.settings = settings
        if scenarios.contains(where: { $0.workload == .document }) {
            self.settings.timedSink = MeasureWorker.timedDocumentSink
        }
        // Download workers side by side only on links of their own that the embedded server shapes:
        // on an unshaped link a download is as fast as the CPU allows, and a remote feed's link is
        // the real network, shared. The settings say what the run does (its header, its files).
        if network.bytesPerSecond == nil || !remoteURLs.isEmpty { self.settings.downloadsAtOnce = nil }
        self.executable = executable
        self.debugBuild = debugBuild
        self.scenarios = scenarios
        self.network = network
        self.remoteURLs = remoteURLs
        self.instructionCounter = instructionCounter
        self.feedHost = feedHost
    }
}

extension RunPlan {
    /// The worker executable of a job that fetches over HTTP (`NetworkWork`).
    ///
    /// - Throws: `WorkerProcess/NoNetworkWorker` for a tool without one.
    func fetchingExecutable() throws -> String {
        try networkExecutable ?? WorkerProcess.networkWorkerExecutable()
    }
}
