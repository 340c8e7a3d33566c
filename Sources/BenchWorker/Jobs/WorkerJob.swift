import FeedParsers
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The typed contract between the engine and a worker process: what one worker is asked to do.
///
/// The engine never builds a command line for a worker. It starts the worker executable
/// (``WorkerProcess/workerExecutable()``, `bench-worker worker`) and writes the job, as JSON, on the
/// worker's standard input (``WorkerCommand``); the worker decodes it and runs it here
/// (``serveFromStandardInput()``, from ``WorkerTool/main(parsers:)``), and writes
/// its report on file descriptor ``WorkerProcess/resultDescriptor`` as the parent expects it. One
/// case per kind of worker; each case's payload is the whole of what that worker needs.
///
/// The JSON is encoded with sorted keys, so the same job is the same bytes every time: a counted
/// worker (callgrind) starts exactly the same way from one run to the next.
package enum WorkerJob: Codable, Sendable, Equatable {
    /// Time (or count) a parser over a feed in memory: ``MeasureWorker``.
    case measure(MeasureJob)
    /// Download a feed with a parser, and for `conditional` revalidate it: `DownloadWorker`.
    case download(DownloadJob)
    /// Parses at once on several threads: ``ConcurrentWorker``.
    case concurrent(ConcurrentJob)
    /// One practice cell: ``PracticeWorker``.
    case practice(PracticeJob)
    /// Parse a feed with each chunk size and report the songs: ``VerifyWorker``.
    case verify(VerifyJob)
    /// Parse documents of the W3C suite, one report line each: ``ConformanceWorker``.
    case conformance(ConformanceJob)
    /// Read the W3C suite's catalog: ``CatalogEntry/read(catalog:)``.
    case catalog(CatalogJob)
    /// Count a known number of allocations, to check the counter: ``AllocationCounter/probe(blocks:bytes:keep:)``.
    case allocationProbe(AllocationProbeJob)
    /// Nothing: the harness's own cost per worker (``HarnessReport``).
    case harness(HarnessJob)

    /// The job's bytes as the worker reads them (JSON with sorted keys).
    package func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding plain values with string keys cannot fail; an empty job would be refused by the worker.
        return (try? [UInt8](encoder.encode(self))) ?? []
    }

    /// Runs the job in this process, writing its report to `output`.
    package func run(output: WorkerOutput) throws {
        switch self {
        case .measure(let job): try output.report(MeasureWorker.run(job))
        case .download(let job): try output.report(NetworkWorkRegistry.registered().download(job))
        case .concurrent(let job): try output.report(ConcurrentWorker.run(job))
        case .practice(let job): try output.report(PracticeWorker.run(job))
        case .verify(let job): try output.report(VerifyWorker.run(job))
        case .conformance(let job): try ConformanceWorker.run(job, report: output.write)
        case .catalog(let job): try output.report(CatalogEntry.read(catalog: job.catalog))
        case .allocationProbe(let job):
            try output.report(AllocationCounter.probe(blocks: job.blocks, bytes: job.bytes, keep: job.keep))
        case .harness: try output.report(HarnessReport(jobNanoseconds: monotonicNanoseconds()))
        }
    }

    /// The worker's side: ends with its parent, reads one job from standard input and runs it.
    ///
    /// - Throws: ``WorkerJobError`` when standard input holds no job; whatever the job throws.
    package static func serveFromStandardInput() throws {
        WorkerProcess.endWithParent()
        let input = FileHandle.standardInput.readDataToEndOfFile()
        let job: WorkerJob
        do {
            job = try JSONDecoder().decode(WorkerJob.self, from: input)
        } catch {
            throw WorkerJobError(description: "no worker job on standard input (\(input.count) bytes): \(error)")
        }
        try job.run(output: .resultChannel())
    }
}
