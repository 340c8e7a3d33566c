import ArgumentParser
import BenchEngine
import Foundation

/// `bench worker …`: the side of a worker process. Not for people; `bench` runs it.
struct Worker: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run one parser in this process and report on file descriptor 3 (used by bench itself).",
        shouldDisplay: false,
        subcommands: [
            VerifyCell.self, MeasureCell.self, DownloadCell.self, PracticeCell.self, CountAllocations.self, ConformanceCases.self,
            ConformanceCatalog.self,
        ]
    )

    /// `bench worker count-allocations --blocks N --bytes B [--keep]`: the allocation counter on a
    /// function that makes a known number of allocations (for the tests).
    struct CountAllocations: WorkerSubcommand {
        static let configuration = CommandConfiguration(commandName: "count-allocations")

        @Option var blocks: Int
        @Option var bytes: Int
        @Flag var keep = false

        func run() throws {
            let counts = try AllocationCounter.probe(blocks: blocks, bytes: bytes, keep: keep)
            try WorkerOutput.write(JSONEncoder().encode(counts))
        }
    }

    /// `bench worker download --parser NAME --url URL --iterations N --warmup W --timeout T [--conditional]`
    struct DownloadCell: WorkerSubcommand {
        static let configuration = CommandConfiguration(commandName: "download")

        @Option var parser: String
        @Option var url: String
        @Option var iterations: Int
        @Option var warmup: Int
        @Option var timeout: Double
        @Flag var conditional = false

        func run() throws {
            guard let target = URL(string: url) else { throw ValidationError("not a URL: \(url)") }
            let report = try DownloadWorker.run(
                parser: parser, url: target, iterations: iterations, warmup: warmup, timeout: timeout,
                conditional: conditional)
            try WorkerOutput.write(JSONEncoder().encode(report))
        }
    }

    /// `bench worker practice --cell NAME --parser NAME --iterations N --warmup W --timeout T --entries E
    /// (--url URL | --feed PATH --scratch DIR)`: one practice cell (``Practice``).
    struct PracticeCell: WorkerSubcommand {
        static let configuration = CommandConfiguration(commandName: "practice")

        @Option var cell: String
        @Option var parser: String
        @Option var iterations: Int
        @Option var warmup: Int
        @Option var timeout: Double
        @Option var entries: Int
        @Option(name: .customLong("queue-page-size")) var queuePageSize: Int = 25
        @Option var url: String?
        @Option var feed: String?
        @Option var scratch: String?

        func run() throws {
            guard let practice = Practice(cellName: cell, queuePageSize: queuePageSize) else {
                throw ValidationError("not a practice cell: \(cell)")
            }
            let target = try url.map { text -> URL in
                guard let parsed = URL(string: text) else { throw ValidationError("not a URL: \(text)") }
                return parsed
            }
            let report = try PracticeWorker.run(
                practice, parser: parser, url: target, feedPath: feed, entries: entries, iterations: iterations, warmup: warmup,
                timeout: timeout, scratchDirectory: scratch ?? NSTemporaryDirectory())
            try WorkerOutput.write(JSONEncoder().encode(report))
        }
    }

    /// `bench worker measure --parser NAME --iterations N --warmup W --chunk-size C [--count-allocations] FEED`
    struct MeasureCell: WorkerSubcommand {
        static let configuration = CommandConfiguration(commandName: "measure")

        @Option var parser: String
        @Option var iterations: Int
        @Option var warmup: Int
        @Option(name: .customLong("chunk-size")) var chunkSize: Int
        @Option(name: .customLong("slowdown-percent")) var slowdownPercent: Int = 0
        @Flag(name: .customLong("retry-preempted")) var retryPreempted = false
        @Flag(name: .customLong("counting-only")) var countingOnly = false
        @Flag(name: .customLong("count-allocations")) var countAllocations = false
        @Argument var feed: String

        func run() throws {
            let report = try MeasureWorker.run(
                parser: parser, feed: feed, iterations: iterations, warmup: warmup, chunkSize: chunkSize,
                slowdownPercent: slowdownPercent, retryPreempted: retryPreempted, countingOnly: countingOnly,
                countAllocations: countAllocations)
            try WorkerOutput.write(JSONEncoder().encode(report))
        }
    }

    /// `bench worker verify --parser NAME --chunk-sizes LIST FEED`
    struct VerifyCell: WorkerSubcommand {
        static let configuration = CommandConfiguration(commandName: "verify")

        @Option var parser: String
        @Option(name: .customLong("chunk-sizes"), transform: ChunkSizeList.parse) var chunkSizes: [Int]
        @Argument var feed: String

        func run() throws {
            let report = try VerifyWorker.run(parser: parser, feed: feed, chunkSizes: chunkSizes)
            try WorkerOutput.write(JSONEncoder().encode(report))
        }
    }
}

/// A `bench worker …` subcommand: its process ends with its parent (see ``Bench/main()``).
protocol WorkerSubcommand: ParsableCommand {}

/// Writes a worker's result to file descriptor 3 when the parent opened it, else to standard output.
enum WorkerOutput {
    static func write(_ data: Data) throws {
        let descriptor = fcntl(WorkerProcess.resultDescriptor, F_GETFD) >= 0 ? WorkerProcess.resultDescriptor : 1
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        try handle.write(contentsOf: data)
    }
}

extension Worker {
    /// `bench worker conformance --parser NAME --suite DIR --chunk-size C --memory-limit-mib M PATH…`:
    /// one line per document on file descriptor 3, as each is done.
    struct ConformanceCases: WorkerSubcommand {
        static let configuration = CommandConfiguration(commandName: "conformance")

        @Option var parser: String
        @Option var suite: String
        @Option(name: .customLong("chunk-size")) var chunkSize: Int
        @Option(name: .customLong("memory-limit-mib")) var memoryLimitMiB: Int?
        @Flag var songs = false
        @Argument var paths: [String] = []

        func run() throws {
            try ConformanceWorker.run(
                parser: parser, suite: suite, paths: paths, chunkSize: chunkSize, memoryLimitMiB: memoryLimitMiB,
                reportSongs: songs, report: WorkerOutput.write)
        }
    }

    /// `bench worker conformance-catalog CATALOG`: every test of the catalog, as JSON.
    struct ConformanceCatalog: WorkerSubcommand {
        static let configuration = CommandConfiguration(commandName: "conformance-catalog")

        @Argument var catalog: String

        func run() throws {
            try WorkerOutput.write(JSONEncoder().encode(CatalogEntry.read(catalog: catalog)))
        }
    }
}
