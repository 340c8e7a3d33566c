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
/// The engine never builds a command line for a worker. It starts the `bench` executable as
/// `bench worker` and writes the job, as JSON, on the worker's standard input (``WorkerCommand``);
/// the worker decodes it and runs it here, in the engine (``serveFromStandardInput()``), and writes
/// its report on file descriptor ``WorkerProcess/resultDescriptor`` as the parent expects it. One
/// case per kind of worker; each case's payload is the whole of what that worker needs.
///
/// The JSON is encoded with sorted keys, so the same job is the same bytes every time: a counted
/// worker (callgrind) starts exactly the same way from one run to the next.
public enum WorkerJob: Codable, Sendable, Equatable {
    /// Time (or count) a parser over a feed in memory: ``MeasureWorker``.
    case measure(MeasureJob)
    /// Download a feed with a parser, and for `conditional` revalidate it: ``DownloadWorker``.
    case download(DownloadJob)
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

    /// The job's bytes as the worker reads them (JSON with sorted keys).
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding plain values with string keys cannot fail; an empty job would be refused by the worker.
        return (try? [UInt8](encoder.encode(self))) ?? []
    }

    /// Runs the job in this process, writing its report to `output`.
    public func run(output: WorkerOutput) throws {
        switch self {
        case .measure(let job): try output.report(MeasureWorker.run(job))
        case .download(let job): try output.report(DownloadWorker.run(job))
        case .practice(let job): try output.report(PracticeWorker.run(job))
        case .verify(let job): try output.report(VerifyWorker.run(job))
        case .conformance(let job): try ConformanceWorker.run(job, report: output.write)
        case .catalog(let job): try output.report(CatalogEntry.read(catalog: job.catalog))
        case .allocationProbe(let job):
            try output.report(AllocationCounter.probe(blocks: job.blocks, bytes: job.bytes, keep: job.keep))
        }
    }

    /// The worker's side: ends with its parent, reads one job from standard input and runs it.
    ///
    /// - Throws: ``WorkerJobError`` when standard input holds no job; whatever the job throws.
    public static func serveFromStandardInput() throws {
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

/// A worker was given no job it can read.
public struct WorkerJobError: Error, CustomStringConvertible, Sendable {
    public var description: String
}

/// Where a worker writes its report: file descriptor 3 when the parent opened it, else standard output.
public struct WorkerOutput: Sendable {
    let descriptor: Int32

    /// File descriptor ``WorkerProcess/resultDescriptor`` when it is open, else standard output.
    public static func resultChannel() -> WorkerOutput {
        WorkerOutput(
            descriptor: fcntl(WorkerProcess.resultDescriptor, F_GETFD) >= 0 ? WorkerProcess.resultDescriptor : 1)
    }

    /// Writes raw bytes.
    public func write(_ data: Data) throws {
        try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).write(contentsOf: data)
    }

    /// Writes a report as JSON.
    func report(_ value: some Encodable) throws {
        try write(JSONEncoder().encode(value))
    }
}

/// ``WorkerJob/measure(_:)``: time a parser over a feed held in memory.
public struct MeasureJob: Codable, Sendable, Equatable {
    public var parser: String
    /// The feed's path.
    public var feed: String
    public var iterations: Int
    public var warmup: Int
    /// Bytes pushed at a time; 0 is the whole feed in one push.
    public var chunkSize: Int
    /// The injected slowdown that validates the gate (0: none).
    public var slowdownPercent: Int
    /// Measure parses that lost the CPU again.
    public var retryPreempted: Bool
    /// A worker under callgrind: no memory window, no calibration.
    public var countingOnly: Bool
    /// A worker with the allocation interposer loaded.
    public var countAllocations: Bool

    public init(
        parser: String, feed: String, iterations: Int, warmup: Int, chunkSize: Int, slowdownPercent: Int = 0,
        retryPreempted: Bool = false, countingOnly: Bool = false, countAllocations: Bool = false
    ) {
        self.parser = parser
        self.feed = feed
        self.iterations = iterations
        self.warmup = warmup
        self.chunkSize = chunkSize
        self.slowdownPercent = slowdownPercent
        self.retryPreempted = retryPreempted
        self.countingOnly = countingOnly
        self.countAllocations = countAllocations
    }
}

/// ``WorkerJob/download(_:)``: fetch a feed over HTTP with a parser.
public struct DownloadJob: Codable, Sendable, Equatable {
    public var parser: String
    public var url: URL
    public var iterations: Int
    public var warmup: Int
    /// Seconds one download may stall.
    public var timeout: Double
    /// Revalidate each download with its validators (the `conditional` scenario).
    public var conditional: Bool

    public init(parser: String, url: URL, iterations: Int, warmup: Int, timeout: Double, conditional: Bool = false) {
        self.parser = parser
        self.url = url
        self.iterations = iterations
        self.warmup = warmup
        self.timeout = timeout
        self.conditional = conditional
    }
}

/// ``WorkerJob/practice(_:)``: one practice cell.
public struct PracticeJob: Codable, Sendable, Equatable {
    public var practice: Practice
    public var parser: String
    public var iterations: Int
    public var warmup: Int
    /// Seconds one request may stall.
    public var timeout: Double
    /// The feed's songs (the queue's pages are computed from it).
    public var entries: Int
    /// The feed's URL on the server (the network practices).
    public var url: URL?
    /// The feed's file (`store`).
    public var feed: String?
    /// Where `store` writes its databases.
    public var scratchDirectory: String

    public init(
        practice: Practice, parser: String, iterations: Int, warmup: Int, timeout: Double, entries: Int,
        url: URL? = nil,
        feed: String? = nil, scratchDirectory: String = NSTemporaryDirectory()
    ) {
        self.practice = practice
        self.parser = parser
        self.iterations = iterations
        self.warmup = warmup
        self.timeout = timeout
        self.entries = entries
        self.url = url
        self.feed = feed
        self.scratchDirectory = scratchDirectory
    }
}

/// ``WorkerJob/verify(_:)``: parse a feed once per chunk size.
public struct VerifyJob: Codable, Sendable, Equatable {
    public var parser: String
    public var feed: String
    /// 0 is the whole feed in one chunk.
    public var chunkSizes: [Int]

    public init(parser: String, feed: String, chunkSizes: [Int]) {
        self.parser = parser
        self.feed = feed
        self.chunkSizes = chunkSizes
    }
}

/// ``WorkerJob/conformance(_:)``: parse documents of the W3C suite, reporting each as it is done.
public struct ConformanceJob: Codable, Sendable, Equatable {
    public var parser: String
    /// The suite's directory.
    public var suite: String
    /// The documents, relative to `suite`.
    public var paths: [String]
    /// 0 is the whole document in one chunk.
    public var chunkSize: Int
    /// The worker's data limit (RLIMIT_DATA), MiB.
    public var memoryLimitMiB: Int?
    /// Report the songs of each accepted document.
    public var reportSongs: Bool

    public init(
        parser: String, suite: String, paths: [String], chunkSize: Int, memoryLimitMiB: Int?, reportSongs: Bool = false
    ) {
        self.parser = parser
        self.suite = suite
        self.paths = paths
        self.chunkSize = chunkSize
        self.memoryLimitMiB = memoryLimitMiB
        self.reportSongs = reportSongs
    }
}

/// ``WorkerJob/catalog(_:)``: read the W3C suite's flattened catalog.
public struct CatalogJob: Codable, Sendable, Equatable {
    public var catalog: String

    public init(catalog: String) {
        self.catalog = catalog
    }
}

/// ``WorkerJob/allocationProbe(_:)``: `blocks` allocations of `bytes`, freed unless `keep`.
public struct AllocationProbeJob: Codable, Sendable, Equatable {
    public var blocks: Int
    public var bytes: Int
    public var keep: Bool

    public init(blocks: Int, bytes: Int, keep: Bool = false) {
        self.blocks = blocks
        self.bytes = bytes
        self.keep = keep
    }
}
