import ArgumentParser
import BenchEngine

/// `bench worker`: the side of a worker process.
///
/// Not for people; `bench` runs it, with a ``WorkerJob`` as JSON on standard input, and reads its report on file descriptor 3.
struct Worker: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the worker job given as JSON on standard input (used by bench itself).",
        shouldDisplay: false
    )

    func run() throws {
        try WorkerJob.serveFromStandardInput()
    }
}
