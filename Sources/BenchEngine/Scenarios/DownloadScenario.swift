import BenchWorker
import BenchResults
import FeedTransport
import Foundation

/// `download`: the feed fetched over HTTP, parsed chunk by chunk as it arrives.
///
/// A push parser consumes each chunk as the network delivers it (`DownloadWorker`). One cell per
/// parser and feed, on the plan's network profile.
struct DownloadScenario: BenchScenario {
    func cells(in plan: RunPlan) -> [CellScenario] { [.download] }

    func measure(_ cell: CellKey, in context: CellContext) -> [CellRun] {
        Self.measure(cell, revalidating: nil, in: context)
    }

    /// Runs a download worker for `cell`; with `revalidation`, each download is followed by a
    /// request with its validators, whose samples are that cell's (`conditional`).
    ///
    /// - Parameters:
    ///   - cell: the download's cell.
    ///   - revalidation: the cell of the revalidating requests, if any.
    ///   - context: the plan, round, agreed songs and URL.
    /// - Returns: the download's run, then the revalidation's.
    static func measure(_ cell: CellKey, revalidating revalidation: CellKey?, in context: CellContext) -> [CellRun] {
        let cells = [cell] + (revalidation.map { [$0] } ?? [])
        guard let url = context.url else {
            return cells.map { context.failed($0, "no URL to download \(cell.feedPath) from") }
        }
        let settings = context.settings
        let network = context.plan.network
        let job = DownloadJob(
            parser: cell.parser, url: url, warmupURL: context.warmupURL,
            iterations: settings.downloadIterationsPerWorker,
            warmup: settings.downloadWarmupPerWorker,
            timeout: settings.timeoutSeconds, conditional: revalidation != nil)
        let executable: String
        do {
            executable = try context.plan.fetchingExecutable()
        } catch {
            return cells.map { context.failed($0, "\(CellContext.notStartedPrefix)\(error)") }
        }
        // The worker's own limit is per stalled download; this one bounds the whole cell.
        let report: DownloadWorkerReport
        switch context.runWorker(
            DownloadWorkerReport.self, WorkerCommand(executable: executable, job: .download(job)),
            timeout: settings.workerLimit(
                iterations: job.iterations, warmup: job.warmup, requestsPerIteration: revalidation == nil ? 1 : 2,
                transferSeconds: network.bytesPerSecond.map {
                    Double(cell.feedBytes) / $0 + Double(network.rttMs) / 1_000
                } ?? 0))
        {
        case .success(let decoded): report = decoded
        case .failure(let failure): return cells.map { context.failed($0, failure.message) }
        }
        let disagreement = context.disagreement(cell, digest: report.digest)
        var runs = [
            run(cell, report: report, in: context, outcome: disagreement) { ($0.download, $0.error ?? disagreement) }
        ]
        if let revalidation {
            runs.append(
                run(revalidation, report: report, in: context, outcome: String?.none) { ($0.revalidation, $0.error) })
        }
        return runs
    }

    /// One cell's run from the worker's report: `pick` says which measurement of each iteration is
    /// the cell's, and its error.
    private static func run(
        _ cell: CellKey, report: DownloadWorkerReport, in context: CellContext, outcome: String?,
        pick: (DownloadWorkerReport.Iteration) -> (DownloadMeasurement?, String?)
    ) -> CellRun {
        let peak = report.peakResidentBytes
        let samples = report.iterations.enumerated().map { offset, iteration in
            let (m, error) = pick(iteration)
            var sample = Sample(
                cell: cell, songs: m?.songs ?? 0, round: context.round, iteration: offset + 1,
                wallNs: m.map { $0.parseNs }, cpuNs: nil, firstSongNs: m?.firstSongNs, downloadNs: m?.downloadNs,
                totalNs: m?.totalNs, peakResidentBytes: peak, bytes: m?.bytes, httpStatus: m?.status,
                error: error ?? (m == nil ? "no measurement" : nil), debug: context.plan.debugBuild)
            sample.parsePeakBytes = report.parsePeakBytes
            return sample
        }
        return CellRun(cell: cell, round: context.round, samples: samples, peakResidentBytes: peak, outcome: outcome)
    }
}
