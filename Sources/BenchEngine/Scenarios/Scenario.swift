import BenchWorker
import BenchResults
import FeedParsers
import Foundation

/// One scenario of `bench run`: which cells it has, and how one of its cells is measured.
///
/// A scenario is one type in one file under `Scenarios/` and one line in `ScenarioID/engine`.
/// The runner asks it for its cells (``cells(in:)``), starts one worker per cell and round through
/// ``measure(_:in:)``, and stores what that returns; it knows nothing else of the scenario.
///
/// To add a scenario: a case in `ScenarioID` (the name runs record), a type here that builds the
/// worker's job and turns the worker's report into samples, and its line in `ScenarioID/engine`.
/// What runs in the worker is the worker's (BenchWorker): a practice's iteration (`StoreWork`, …),
/// or, for a scenario that parses from memory as `parse` does but from its own input (a mapping of
/// the feed's file, say), a `ParseInput` and its line in `ScenarioID.parseInput`: the job names the
/// scenario and the worker calls its hook.
protocol BenchScenario: Sendable {
    /// The scenario's cells in `plan`, in the order they are measured.
    func cells(in plan: RunPlan) -> [CellScenario]

    /// Whether `cell` starts a worker of its own; a cell that does not is measured by the worker of
    /// another of the scenario's cells (the 304 of `conditional` rides with its 200).
    func startsWorker(_ cell: CellScenario) -> Bool

    /// The chunk sizes of the scenario's cells of `feed`; 0 is "as the network delivers them".
    func chunkSizes(for feed: String, in plan: RunPlan) -> [Int]

    /// Whether its cells fetch the feed from the embedded server (or a `--url`).
    var fetchesFeed: Bool { get }

    /// The options that set it and few other scenarios (`--page-size`), beside those that follow
    /// from how it fetches and when it runs (`ScenarioID/options`).
    var ownOptions: Set<ScenarioOption> { get }

    /// The parsers its cells run for, of the baseline and the parsers that agreed (all of them,
    /// unless what a cell measures does not depend on the parser).
    func parsers(_ candidates: [String]) -> [String]

    /// Measures `cell` with one worker process.
    ///
    /// - Parameters:
    ///   - cell: one of the scenario's cells for a parser and feed.
    ///   - context: the plan, the round, the agreed songs and where the feed is served.
    /// - Returns: the worker's runs: one per cell it measured; a failure is a run with one failed sample.
    func measure(_ cell: CellKey, in context: CellContext) -> [CellRun]
}

extension BenchScenario {
    func startsWorker(_ cell: CellScenario) -> Bool { true }
    func chunkSizes(for feed: String, in plan: RunPlan) -> [Int] { [0] }
    var fetchesFeed: Bool { true }
    var ownOptions: Set<ScenarioOption> { [] }
    func parsers(_ candidates: [String]) -> [String] { candidates }
}

extension ScenarioID {
    /// Whether a cell of the scenario fetches its feed from the embedded server: always for a
    /// practice that needs it (`ScenarioTraits.needsEmbeddedServer`), unless the feed is a
    /// `--url`'s (`remote`) for the others that fetch their feed.
    package func fetchesFromEmbeddedServer(remote: Bool) -> Bool {
        engine.fetchesFeed && (!remote || traits.needsEmbeddedServer)
    }

    /// The engine's type for the scenario: the one registry of scenarios, a line each.
    var engine: any BenchScenario {
        switch self {
        case .parse: return ParseScenario(.parse)
        case .download: return DownloadScenario()
        case .conditional: return ConditionalScenario()
        case .paged: return PagedScenario()
        case .fields: return FieldsScenario()
        case .gzip: return GzipScenario()
        case .queue: return QueueScenario()
        case .cancel: return CancelScenario()
        case .store: return StoreScenario()
        case .read: return ReadScenario()
        case .document: return ParseScenario(.document)
        case .concurrent: return ConcurrentScenario()
        case .cold: return ParseScenario(.cold)
        }
    }
}

extension CellKey {
    /// The scenario type that measures this cell; `nil` for a name this build does not know.
    var engineScenario: (any BenchScenario)? { scenario.kind?.engine }
}

/// What a scenario needs to measure one cell in one round.
struct CellContext {
    var plan: RunPlan
    /// The round (1-based); 0 for a `parse` cell's allocation-counting worker.
    var round: Int
    /// The agreed songs' ``SongDigest`` for the cell's feed.
    var reference: String?
    /// Where the feed is served (network scenarios); `nil` when it is not.
    var url: URL?
    /// The embedded server's unshaped URL of the feed, for untimed warm-ups; `nil` for a remote feed.
    var warmupURL: URL?
    /// The songs the embedded server can page the feed into (0: none, or not served).
    var entries = 0
    /// Called after each finished iteration with the count so far (for a terminal), if asked.
    var iterations: ((Int) -> Void)?

    var settings: RunSettings { plan.settings }

    /// How the outcome of a worker that could not be started begins.
    static let notStartedPrefix = "worker could not start: "

    /// A run of `cell` with one failed sample saying `message`.
    func failed(_ cell: CellKey, _ message: String, peak: Int? = nil) -> CellRun {
        let sample = Sample(
            cell: cell, songs: 0, round: round, iteration: 1, wallNs: nil, cpuNs: nil, firstSongNs: nil,
            peakResidentBytes: peak, error: message, debug: plan.debugBuild)
        return CellRun(cell: cell, round: round, samples: [sample], peakResidentBytes: peak, outcome: message)
    }

    /// Why a worker's songs (or a document's events) are not the agreed ones, if they are not (the
    /// baseline and the floor build none).
    func disagreement(_ cell: CellKey, digest: String?) -> String? {
        let document = cell.scenario.workload == .document
        let compared =
            document
            ? ParserRegistry.documentParser(named: cell.parser)?.reportsEvents ?? false
            : ParserRegistry.buildsSongs(cell.parser)
        guard compared, let reference, let digest, digest != reference else { return nil }
        let what = document ? "events differ from the agreed events" : "songs differ from the agreed songs"
        return "\(what) (digest \(digest.prefix(12))…, expected \(reference.prefix(12))…)"
    }

    /// Runs one worker and decodes its report.
    ///
    /// A crash, a time-out or an unreadable report is a failure with a message (and no peak
    /// memory: `wait4`'s figure includes this process's own).
    ///
    /// - Parameters:
    ///   - type: the report the worker writes.
    ///   - command: the worker and its job.
    ///   - timeout: seconds the whole worker may take.
    ///   - progress: called with each finished iteration's count, if the worker reports them.
    /// - Returns: the report, or why there is none.
    func runWorker<Report: Decodable>(
        _ type: Report.Type, _ command: WorkerCommand, timeout: Double, progress: ((Int) -> Void)? = nil
    ) -> Result<Report, WorkerFailure> {
        let outcome: WorkerProcess.Outcome
        do {
            outcome = try WorkerProcess.run(command, timeout: timeout, progress: progress)
        } catch {
            return .failure(WorkerFailure(message: "\(CellContext.notStartedPrefix)\(error)"))
        }
        guard outcome.termination == .exited(0) else {
            var message = "worker \(outcome.termination)"
            if let line = outcome.standardError.split(separator: "\n").last(where: { !$0.isEmpty }) {
                message += ": \(line.prefix(300))"
            }
            return .failure(WorkerFailure(message: message))
        }
        do {
            return .success(try JSONDecoder().decode(Report.self, from: Data(outcome.result)))
        } catch {
            return .failure(WorkerFailure(message: "unreadable worker report: \(error)"))
        }
    }
}

/// Why a worker left no report.
struct WorkerFailure: Error {
    var message: String
}

extension RunSettings {
    /// A worker's time limit: the time limit of one iteration (a parse, or a download's longest stall)
    /// for each of its `iterations` and `warmup` iterations, and one more for its start.
    func workerLimit(iterations: Int, warmup: Int, requestsPerIteration: Int, transferSeconds: Double = 0) -> Double {
        // Each request may stall for the time limit, and a shaped one takes its transfer time on top
        // (an edge download of the 900 KB feed is ~31 s: without it, 23 of them came within
        // seconds of a 720 s limit).
        (timeoutSeconds + transferSeconds) * Double((iterations + warmup) * requestsPerIteration + 1)
    }
}
