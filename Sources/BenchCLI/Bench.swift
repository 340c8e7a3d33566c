import ArgumentParser
import BenchEngine
import Foundation

/// The `bench` command: measures XML parsers building songs from an iTunes Store feed.
///
/// Run by ``BenchTool/main(parsers:)``: the suite's `bench` executable, or a package's own with its
/// parsers registered.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: BenchTool.commandName,
        abstract: "Which XML parser should a Swift app use to load a feed? Measures Foundation, libxml2 and expat.",
        discussion: """
            Every parser builds the same songs from an iTunes Store RSS feed, checked before anything is \
            timed. With no subcommand, `bench` runs `bench run`: the parse benchmark on Data/top300.rss.xml, \
            recorded in Results/stats.sqlite, with CSV and JSON in Results/.

            \(BenchExitCode.help)
            """,
        subcommands: [
            Run.self, Sweep.self, Report.self, History.self, Compare.self, StoreCommand.self, Verify.self,
            Conformance.self,
            Serve.self, Generate.self, ListParsers.self,
            Worker.self,
        ],
        defaultSubcommand: Run.self
    )

    /// Runs the command; bad values on the command line exit with status 1 (not the library's 64),
    /// like every other failure, after the library's own message and usage.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { print(message) }
                Foundation.exit(0)
            }
            if !message.isEmpty { FileHandle.standardError.write(Data((message + "\n").utf8)) }
            Foundation.exit(code == .validationFailure ? BenchExitCode.error.rawValue : code.rawValue)
        }
    }
}

/// How every `bench` command ends, for scripts and CI (the same numbers for every command).
enum BenchExitCode: Int32, CaseIterable {
    /// It did what was asked; `bench compare` found no regression.
    case ok = 0
    /// Something could not be done: bad options, an unreadable file or store, parsers that disagree.
    case error = 1
    /// `bench compare`: a cell got slower by more than the threshold and beyond the noise.
    case regression = 2
    /// `bench compare`: a cell failed (crashed, timed out, disagreed) on one side, so it cannot be judged.
    case failedCell = 3

    var exitCode: ExitCode { ExitCode(rawValue) }

    /// The codes as `--help` lists them.
    static var help: String {
        "Exit status: " + allCases.map { "\($0.rawValue) \($0.meaning)" }.joined(separator: "; ") + "."
    }

    private var meaning: String {
        switch self {
        case .ok: return "success"
        case .error: return "error (bad options, unreadable input, parsers that disagree)"
        case .regression: return "a regression found by bench compare"
        case .failedCell: return "a cell that failed on one side of bench compare"
        }
    }
}

/// An error that ends a command with a message and exit code 1.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
}
