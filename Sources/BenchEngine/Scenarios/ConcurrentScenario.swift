import BenchWorker
import BenchResults
import FeedParsers
import Foundation
import SongFeed

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `concurrent`: N parses of the same feed from memory at once, on N threads of one worker
/// (`concurrent-1`, `concurrent-2`, `concurrent-4`; `bench run --threads`).
///
/// The question an app that parses feeds on an operation queue asks: may this parser run on
/// several threads at once, and does it go faster? libxml2 keeps process-wide state (set up by
/// `xmlInitParser`, which the worker's first parse, on one thread, calls before any thread starts)
/// and per-thread state; Foundation's `XMLParser` sits on it. Only parsers whose adapter says its
/// instances are independent (``ParserConcurrency/independentInstances``, the registry's trait)
/// run; another is reported as not run, with its reason.
///
/// An iteration: N threads are started and wait at a gate; the clocks start, the gate opens, each
/// thread parses the feed with a fresh parser (chunks of the plan's chunk size) and the clocks stop
/// when the last one has finished. Nothing inside that region prints, logs or allocates for the
/// harness. Then each thread's songs are checked against the worker's single-thread answer (its
/// first parse, untimed), which the engine checks against the agreed songs: a wrong answer is a
/// failed iteration, a crash or a hang (the worker's time limit) a failed worker, never averaged in.
///
/// Figures (`ConcurrentFigures`): the batch's wall time, parses per second of all threads
/// together, and that throughput over the same parser's with one thread.
struct ConcurrentScenario: BenchScenario {
    func cells(in plan: RunPlan) -> [CellScenario] { plan.threadCounts.map { ConcurrentFigures.cell(threads: $0) } }

    var ownOptions: Set<ScenarioOption> { [.threads] }

    func chunkSizes(for feed: String, in plan: RunPlan) -> [Int] { plan.chunkSizes(for: feed) }

    var fetchesFeed: Bool { false }

    func measure(_ cell: CellKey, in context: CellContext) -> [CellRun] {
        guard let threads = ConcurrentFigures.threads(of: cell.scenario) else {
            return [context.failed(cell, "\(cell.scenario) is not a cell of the concurrent scenario")]
        }
        if case .oneThreadAtATime(let reason) = ParserRegistry.parser(named: cell.parser)?.concurrency {
            return [context.failed(cell, ConcurrentFigures.notRunPrefix + reason)]
        }
        let settings = context.settings
        let job = ConcurrentJob(
            parse: MeasureJob(
                parser: cell.parser, feed: cell.feedPath, iterations: settings.iterations, warmup: settings.warmup,
                chunkSize: cell.chunkSize),
            threads: threads)
        let report: ConcurrentWorkerReport
        switch context.runWorker(
            ConcurrentWorkerReport.self,
            WorkerCommand(executable: context.plan.executable, job: .concurrent(job)),
            timeout: settings.workerLimit(
                iterations: job.parse.iterations, warmup: job.parse.warmup + 1, requestsPerIteration: threads),
            progress: context.iterations)
        {
        case .success(let decoded): report = decoded
        case .failure(let failure): return [context.failed(cell, failure.message)]
        }
        let disagreement = context.disagreement(cell, digest: report.digest)
        let samples = report.iterations.enumerated().map { offset, iteration in
            Sample(
                cell: cell, songs: iteration.songs, round: context.round, iteration: offset + 1,
                wallNs: iteration.wallNs, cpuNs: iteration.cpuNs, firstSongNs: nil,
                peakResidentBytes: report.peakResidentBytes, error: iteration.error ?? disagreement,
                debug: context.plan.debugBuild)
        }
        return [
            CellRun(
                cell: cell, round: context.round, samples: samples, peakResidentBytes: report.peakResidentBytes,
                outcome: disagreement)
        ]
    }
}
