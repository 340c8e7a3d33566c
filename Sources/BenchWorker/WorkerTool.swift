import FeedParsers
import Foundation

/// The worker executable: what `bench` starts for every cell, check and document, with its
/// job as JSON on standard input, and nothing else of the tool.
///
/// It holds the workers, the instruments and the parsers alone: no store of runs, no report, no
/// argument parser, no feed server, so that a worker starts and ends in a few milliseconds beside
/// the work it measures. The suite's is `bench-worker`; a package that measures its own parsers
/// adds an executable target whose `main.swift` is:
///
/// ```swift
/// import BenchWorker
///
/// WorkerTool.main(parsers: appParsers)
/// ```
///
/// with the same parsers as its tool's `BenchTool.main(parsers:worker:networkWorker:)`, which names
/// it. The jobs that fetch over HTTP run in a second worker, the network worker
/// (`bench-network-worker`), whose main is `NetworkWorkerTool.main(parsers:)` (BenchNetworkWorker):
/// URLSession's libraries are most of a worker's start, and a worker that parses from memory
/// does not load them.
public enum WorkerTool {
    /// Registers `parsers` beside the built-in ones, runs the job on standard input, and exits: 0
    /// once its report is written, 1 with `Error: …` on standard error when it fails.
    ///
    /// Run otherwise than as `NAME worker` (by hand), it says what it is and exits 1, rather than
    /// wait for a job on the terminal.
    ///
    /// - Parameter parsers: the package's parsers, the same as its tool's.
    public static func main(parsers: [any SongFeedParser.Type] = []) -> Never {
        main(parsers: parsers, network: nil)
    }

    /// The same, for a network worker: with the fetches that bring URLSession and its libraries
    /// (`URLSessionWork`, BenchNetworkWorker's `NetworkWorkerTool`); `nil` for the worker that
    /// parses from memory.
    package static func main(parsers: [any SongFeedParser.Type], network: (any NetworkWork.Type)?) -> Never {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard arguments == [WorkerCommand.workerArgument] else {
            fail(
                "this is the worker executable that the benchmark tool starts, with a job on standard input; "
                    + "run the tool instead (`swift run -c release bench`)")
        }
        do {
            try ParserRegistry.register(parsers)
            NetworkWorkRegistry.register(network)
            try WorkerJob.serveFromStandardInput()
        } catch {
            // A failure once SIGINT or SIGTERM has come is the signal's: the worker ends by it.
            WorkerProcess.awaitInterruptedEnd()
            fail("\(error)")
        }
        exit(0)
    }

    private static func fail(_ message: String) -> Never {
        fflush(nil)
        FileHandle.standardError.write(Data("Error: \(message)\n".utf8))
        exit(1)
    }
}
