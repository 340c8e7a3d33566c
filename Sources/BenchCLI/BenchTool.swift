import BenchEngine
import Foundation

/// The whole `bench` tool, as a package runs it: the suite's `bench` executable, or the executable
/// of a package that measures its own parsers beside the built-in ones.
///
/// A package that depends on the suite adds an executable target whose `main.swift` is:
///
/// ```swift
/// import BenchCLI
///
/// BenchTool.main(parsers: [AppFeedParser.self])
/// ```
///
/// Every command then knows its parsers: `list` lists them, `verify` checks them against the
/// others, `run`, `sweep`, `conformance` and `hostile` measure and test them, `compare`, `history` and
/// `report` read their runs. A worker is the same executable run again, so it finds them too.
public enum BenchTool {
    /// Registers `parsers` beside the built-in ones, runs the command the arguments name, and exits.
    ///
    /// - Parameter parsers: the package's parser adapters (`SongFeedParser` types;
    ///   an `XMLEventReader` is adapted by `XMLEventParser`). A name
    ///   already taken is an error, before any command runs.
    public static func main(parsers: [any SongFeedParser.Type] = []) -> Never {
        do {
            try ParserRegistry.register(parsers)
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            exit(BenchExitCode.error.rawValue)
        }
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
    /// package's own), never the name a worker is started by (`/proc/PID/exe`).
    static var commandName: String {
        let name = ((CommandLine.arguments.first ?? "bench") as NSString).lastPathComponent
        return name.isEmpty || name == "exe" ? "bench" : name
    }
}
