import BenchWorker
import BenchResults
import Foundation

/// A practice around the parse that an app chooses (`paged`, `fields`, `gzip`, `queue`, `cancel`,
/// `store`): one cell per `Practice`, each measured by a `PracticeWorker`.
///
/// A practice scenario says only which practices a plan measures; the job, its time limit and its
/// samples are the same for all of them.
protocol PracticeScenario: BenchScenario {
    /// The practices `plan` measures, one cell each, in order.
    func practices(in plan: RunPlan) -> [Practice]
}

extension PracticeScenario {
    func cells(in plan: RunPlan) -> [CellScenario] { practices(in: plan).map(\.cell) }

    func measure(_ cell: CellKey, in context: CellContext) -> [CellRun] {
        // The typed practice the cell was made from: its own practices', never its name read back.
        guard let practice = practices(in: context.plan).first(where: { $0.cell == cell.scenario }) else {
            return [
                context.failed(
                    cell, "\(cell.scenario) is not a cell of the \(cell.scenario.kind?.rawValue ?? "") scenario")
            ]
        }
        return [PracticeCell.measure(cell, practice: practice, in: context)]
    }
}

/// How a practice cell is measured: its job, its worker's time limit and its samples.
enum PracticeCell {
    /// Runs a practice worker for one practice cell.
    ///
    /// - Parameters:
    ///   - cell: the cell.
    ///   - practice: what its iterations do.
    ///   - context: the plan, round, agreed songs, URL and the server's entries.
    /// - Returns: the worker's run, or a run with one failed sample.
    static func measure(_ cell: CellKey, practice: Practice, in context: CellContext) -> CellRun {
        let settings = context.settings
        var job = PracticeJob(
            practice: practice, parser: cell.parser, iterations: settings.downloadIterationsPerWorker,
            warmup: settings.downloadWarmupPerWorker, timeout: settings.timeoutSeconds, entries: context.entries)
        // Round 0 counts allocations (after the timed rounds): two sessions after a warm-up one.
        job.countAllocations = context.round == 0
        if job.countAllocations {
            job.iterations = 2
            job.warmup = max(1, settings.downloadWarmupPerWorker)
        }
        if practice.usesNetwork {
            guard let url = context.url else { return context.failed(cell, "no URL to download \(cell.feedPath) from") }
            guard context.plan.remoteURLs[cell.feedPath] == nil else {
                return context.failed(cell, "the practices are measured against the embedded server, not a --url")
            }
            guard context.entries > 0 else {
                return context.failed(
                    cell,
                    "\(cell.feedPath) cannot be served in pages (not an RSS or Atom feed with entries the server can read)"
                )
            }
            job.url = url
        } else {
            job.feed = cell.feedPath
        }
        let executable: String
        do {
            // A practice that fetches runs in the network worker; the store and the read do not fetch.
            executable = job.url == nil ? context.plan.executable : try context.plan.fetchingExecutable()
        } catch {
            return context.failed(cell, "\(CellContext.notStartedPrefix)\(error)")
        }
        let report: PracticeWorkerReport
        let environment =
            job.countAllocations ? AllocationCounter.countingEnvironment(executable: context.plan.executable) : [:]
        switch context.runWorker(
            PracticeWorkerReport.self,
            WorkerCommand(executable: executable, job: .practice(job), environment: environment),
            timeout: timeLimit(cell, job: job, in: context))
        {
        case .success(let decoded): report = decoded
        case .failure(let failure): return context.failed(cell, failure.message)
        }
        return run(cell, report: report, in: context)
    }

    /// The worker's time limit: each request may stall, and takes its transfer time on a shaped network.
    static func timeLimit(_ cell: CellKey, job: PracticeJob, in context: CellContext) -> Double {
        let practice = job.practice
        let network = context.plan.network
        let requests = practice.requests(entries: context.entries)
        var iterations = job.iterations
        if case .queue(_, _, true) = practice { iterations += 1 }  // the uncancelled fetch it checks against
        let transfer =
            practice.usesNetwork
            ? network.bytesPerSecond.map {
                Double(cell.feedBytes) / $0 + Double(network.rttMs * requests) / 1_000
            } ?? 0
            : Double(cell.feedBytes) / 1e6  // writing a store: generous, about 1 s per MB of feed
        return context.settings.workerLimit(
            iterations: iterations, warmup: job.warmup, requestsPerIteration: requests, transferSeconds: transfer)
    }

    /// The worker's report as samples: a fetch's times and bytes, a store's parse and writes, or a
    /// read session's time per visit (its wall time), pages read and allocations.
    static func run(_ cell: CellKey, report: PracticeWorkerReport, in context: CellContext) -> CellRun {
        let disagreement = context.disagreement(cell, digest: report.digest)
        let counting = report.iterations.contains { $0.read?.allocations != nil }
        let peak = counting ? nil : report.peakResidentBytes
        let samples = report.iterations.enumerated().map { offset, iteration in
            let fetch = iteration.fetch
            let store = iteration.store
            if let read = iteration.read {
                var sample = Sample(
                    cell: cell, songs: report.songs ?? 0, round: context.round, iteration: offset + 1,
                    wallNs: counting ? nil : read.visitNs, cpuNs: nil, firstSongNs: nil, peakResidentBytes: peak,
                    error: iteration.error ?? disagreement, debug: context.plan.debugBuild)
                sample.visits = read.visits
                sample.pagesRead = counting ? nil : read.pagesRead
                sample.allocations = read.allocations?.allocations
                sample.allocatedBytes = read.allocations?.bytes
                return sample
            }
            var sample = Sample(
                cell: cell, songs: fetch?.songs ?? store?.songs ?? 0, round: context.round, iteration: offset + 1,
                wallNs: fetch?.parseNs ?? store?.parseNs, cpuNs: nil, firstSongNs: fetch?.firstSongNs,
                downloadNs: fetch?.downloadNs, totalNs: fetch?.totalNs ?? store.map { $0.parseNs + $0.storeNs },
                peakResidentBytes: peak, bytes: fetch?.bytes, httpStatus: fetch == nil ? nil : 200,
                error: iteration.error ?? disagreement ?? (fetch == nil && store == nil ? "no measurement" : nil),
                debug: context.plan.debugBuild)
            sample.requests = fetch?.requests
            sample.wireBytes = fetch?.wireBytes
            sample.storeNs = store?.storeNs
            sample.afterCancelBytes = fetch?.cancel?.bytesAfterCancel
            sample.afterCancelParseNs = fetch?.cancel?.parseNsAfterCancel
            sample.startedAfterCancel = fetch?.cancel?.startedAfterCancel
            return sample
        }
        return CellRun(
            cell: cell, round: context.round, samples: samples, peakResidentBytes: peak, outcome: disagreement)
    }
}
