import BenchEngine
import BenchWorker
import FeedParsers
import Foundation

/// The whole `bench` tool, as a package runs it: the suite's `bench` executable, or the executable
/// of a package that measures its own parsers beside the built-in ones.
///
/// A package that depends on the suite adds two executable targets, with the same parsers: its
/// tool, whose `main.swift` is
///
/// ```swift
/// import BenchCLI
///
/// BenchTool.main(parsers: appParsers, worker: "app-bench-worker")
/// ```
///
/// and its worker, `app-bench-worker`, whose `main.swift` is `WorkerTool.main(parsers: appParsers)`
/// (BenchWorker). The tool's target depends on the worker's, so that SwiftPM builds the worker
/// beside it; the parsers sit in a library target both depend on.
///
/// Every command then knows its parsers: `list` lists them, `verify` checks them against the
/// others, `run`, `sweep`, `conformance` and `hostile` measure and test them, `compare`, `history` and
/// `report` read their runs. Every parse runs in a worker, which holds the parsers, the workers and
/// the instruments and nothing else of the tool, so that it starts in milliseconds.
public enum BenchTool {
    /// Registers `parsers` beside the built-in ones, runs the command the arguments name, and exits.
    ///
    /// - Parameters:
    ///   - parsers: the package's parser adapters (`SongFeedParser` types; an `XMLEventReader` is
    ///     adapted by `XMLEventParser`). A name already taken is an error, before any command runs.
    ///   - worker: the file name of the package's worker executable, beside this one: the
    ///     executable target whose main is `WorkerTool.main(parsers:)` with the same parsers.
    ///   - networkWorker: the file name of its network worker, beside this one, which the
    ///     scenarios that fetch over HTTP run in (`NetworkWorkerTool.main(parsers:)`,
    ///     BenchNetworkWorker); `nil`: none, and those scenarios say what to add.
    public static func main(
        parsers: [any FeedParsers.SongFeedParser.Type] = [], worker: String = "bench-worker",
        networkWorker: String? = "bench-network-worker"
    ) -> Never {
        do {
            try ParserRegistry.register(parsers)
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            exit(BenchExitCode.error.rawValue)
        }
        WorkerProcess.workerName = worker
        WorkerProcess.networkWorkerName = networkWorker
        Bench.main()
        exit(0)
    }

    /// The suite's version, as its release tags will name it (none is tagged yet: 0.x while the
    /// public API settles).
    package static let version = "0.9.0"

    /// What `bench --version` prints: the version and the build on its first line, what this
    /// binary was built with on the second (one line was 117 characters wide).
    static var versionLine: String {
        "\(commandName) \(version) (xml-parser-bench, \(EnvironmentProbe.buildConfiguration) build)\n"
            + "\(EnvironmentProbe.swiftVersion()); libxml2 \(EnvironmentProbe.libraryVersions.libxml2), "
            + "expat \(EnvironmentProbe.libraryVersions.expat)"
    }

    /// The command's name in its help and usage: the executable's file name ("bench", or the
    /// package's own), never a `/proc/PID/exe` link it was started by.
    static var commandName: String {
        let name = ((CommandLine.arguments.first ?? "bench") as NSString).lastPathComponent
        return name.isEmpty || name == "exe" ? "bench" : name
    }
}
