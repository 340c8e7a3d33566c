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
///
/// The table in docs/commands.md ("Exit status") is ``markdownTable``; a test holds them equal.
enum BenchExitCode: Int32, CaseIterable {
    /// It did what was asked: every parser asked agreed and has its figures; `bench compare` judged
    /// cells and found no regression.
    case ok = 0
    /// Something could not be done: bad options, an unreadable file or store, a file that could not
    /// be written; `bench run` and `bench verify`: a parser asked for disagreed, failed, crashed, or
    /// ended a cell with no timed figure (each named).
    case error = 1
    /// `bench compare`: a cell got slower by more than the threshold and beyond the noise.
    case regression = 2
    /// `bench compare`: a cell failed (crashed, timed out, disagreed) on one side, so it cannot be judged.
    case failedCell = 3
    /// `bench compare`: no cell was judged (too few workers, or the sides share no cell), unless
    /// `--allow-nothing-judged`.
    case nothingJudged = 4
    /// `bench run`: an input that no parser could read (empty, not XML, cut short, not a feed):
    /// stopped after the check, nothing measured, no file written, no run stored.
    case unusableInput = 5
    /// `bench run`: interrupted by SIGINT (Ctrl-C); the finished cells are written and kept, the
    /// stored run marked incomplete.
    case interrupted = 130
    /// `bench run`: ended by SIGTERM (a CI job's time limit), as ``interrupted``.
    case terminated = 143

    var exitCode: ExitCode { ExitCode(rawValue) }

    /// The code a run ended by `signal` exits with (128 + the signal's number, as shells report it).
    static func signal(_ signal: Int32) -> Int32 { 128 + signal }

    /// The codes as `--help` lists them.
    static var help: String {
        "Exit status: " + allCases.map { "\($0.rawValue) \($0.meaning)" }.joined(separator: "; ") + "."
    }

    /// The codes as docs/commands.md lists them: one Markdown table.
    static var markdownTable: String {
        (["| code | meaning | commands |", "|---|---|---|"]
            + allCases.map { "| \($0.rawValue) | \($0.meaning) | \($0.commands) |" })
            .joined(separator: "\n")
    }

    var meaning: String {
        switch self {
        case .ok: return "success: everything asked was measured, checked or judged"
        case .error:
            return "error: bad options, unreadable input or store, a failed write; "
                + "a parser asked for that disagreed, failed, crashed or has no timed figure (named)"
        case .regression: return "a regression beyond the threshold and the noise"
        case .failedCell: return "a cell that failed on one side of the comparison"
        case .nothingJudged: return "nothing judged or compared (unless --allow-nothing-judged)"
        case .unusableInput: return "unusable input: no parser could read a file; nothing measured or written"
        case .interrupted: return "interrupted (SIGINT, Ctrl-C): finished cells written, the stored run incomplete"
        case .terminated: return "terminated (SIGTERM): as 130"
        }
    }

    private var commands: String {
        switch self {
        case .ok, .error: return "all"
        case .regression, .failedCell, .nothingJudged: return "compare"
        case .unusableInput, .interrupted, .terminated: return "run"
        }
    }
}

/// An error that ends a command with a message and exit code 1.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
}
