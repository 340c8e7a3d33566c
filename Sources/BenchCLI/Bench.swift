import ArgumentParser
import BenchEngine
import BenchReports
import BenchWorker
import FeedParsers
import Foundation

/// The `bench` command: measures XML parsers building songs from an iTunes Store feed.
///
/// Run by ``BenchTool/main(parsers:)``: the suite's `bench` executable, or a package's own with its
/// parsers registered.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: BenchTool.commandName,
        abstract:
            "Which XML parser should a Swift app use to load a feed, or any XML? Measures \(ParserRegistry.names.count) parsers.",
        discussion: """
            The parsers (`bench list`): \(ParserRegistry.names.joined(separator: ", ")). Every parser builds \
            the same songs from an iTunes Store RSS feed, checked before anything is timed (or, with \
            --workload document, reports the same events for any XML). With no subcommand, `bench` runs \
            `bench run`: \(ParserRegistry.defaultNames.joined(separator: ", ")) and the null baseline on \
            Data/top300.rss.xml, parsed from memory and downloaded from the suite's own server; it prints \
            a table per scenario, records the run in Results/stats.sqlite and writes its CSV, JSON and \
            HTML files under Results/ (Results/latest.html is the newest run's page).

            \(BenchExitCode.help)
            """,
        version: BenchTool.versionLine,
        subcommands: [
            Run.self, Sweep.self, Report.self, History.self, Compare.self, StoreCommand.self, Verify.self,
            Conformance.self, Hostile.self, Bisect.self,
            Serve.self, Generate.self, ListParsers.self,
        ],
        defaultSubcommand: Run.self
    )

    /// Runs the command; bad values on the command line exit with status 1 (not the library's 64),
    /// like every other failure, after the library's own message and usage.
    static func main() {
        do {
            let arguments = Self.arguments(Array(CommandLine.arguments.dropFirst()))
            if let mistyped = Self.unknownCommand(arguments) {
                let message = Format.wrap("Error: " + mistyped, width: Terminal(quiet: true).width)
                FileHandle.standardError.write(Data((message + "\n").utf8))
                Foundation.exit(BenchExitCode.error.rawValue)
            }
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            // A failure once SIGINT or SIGTERM has come is the signal's: the process ends by it, with
            // what it registered removed (the hostile corpus: its writer failed as it went).
            WorkerProcess.awaitInterruptedEnd()
            let code = exitCode(for: error)
            let message = Self.fitted(fullMessage(for: error), width: Terminal(quiet: true).width)
            if code == .success {
                if !message.isEmpty { print(message) }
                Foundation.exit(0)
            }
            // After what was printed (a table), when both go to one file (`2>&1`): stdout is buffered.
            fflush(nil)  // every output stream: stdout is the one that buffers
            if !message.isEmpty { FileHandle.standardError.write(Data((message + "\n").utf8)) }
            Foundation.exit(code == .validationFailure ? BenchExitCode.error.rawValue : code.rawValue)
        }
    }
}

extension Bench {
    /// A message on the way out (an error, a command's help, a usage error) broken at the terminal's
    /// width: the library writes its usage line and an option's help whole, on one line (263
    /// columns for `report`'s usage); those continue under their text ("USAGE: ", "Help:  "), the
    /// other lines under their own indent.
    static func fitted(_ message: String, width: Int) -> String {
        message.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.count > width else { return String(line) }
            for label in ["USAGE: ", "Usage: ", "Help:  "] where line.hasPrefix(label) {
                let hanging = String(repeating: " ", count: label.count)
                // A usage line breaks between its options, never inside one ("[--host <host> ...]").
                var depth = 0
                let kept = String(
                    line.dropFirst(label.count).map { character -> Character in
                        if character == "[" || character == "<" { depth += 1 }
                        if character == "]" || character == ">" { depth -= 1 }
                        return character == " " && depth > 0 && label != "Help:  " ? "\u{1F}" : character
                    })
                let body = Format.wrap(hanging + kept, width: width).replacingOccurrences(of: "\u{1F}", with: " ")
                return label + body.dropFirst(label.count)
            }
            return Format.wrap(String(line), width: width)
        }.joined(separator: "\n")
    }

    /// The command line as the parser is to read it: an option followed by a negative number
    /// (`--rounds -1`) is joined to it (`--rounds=-1`), so that the value reaches the option's own
    /// check ("must be at least 1") instead of being taken for an option ("Missing value").
    static func arguments(_ arguments: [String]) -> [String] {
        var joined: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            let next = index + 1 < arguments.endIndex ? arguments[index + 1] : nil
            if argument.hasPrefix("--"), argument.count > 2, !argument.contains("="), let next,
                next.range(of: #"^-\.?[0-9]"#, options: .regularExpression) != nil
            {
                joined.append(argument + "=" + next)
                index += 2
            } else {
                if argument == "--" {
                    joined += arguments[index...]
                    break
                }
                joined.append(argument)
                index += 1
            }
        }
        return joined
    }

    /// The error for a first argument that is no subcommand (`bench rnu`), with the nearest names.
    ///
    /// `nil` when it is one, or an option. `bench run`, the default, takes no arguments of its own.
    static func unknownCommand(_ arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        guard !names.contains(first) else { return nil }
        let visible = configuration.subcommands.filter { $0.configuration.shouldDisplay }.map { $0._commandName }
        let typed = first.lowercased()
        let distances: [(name: String, distance: Int)] = visible.map { ($0, editDistance(typed, $0)) }
        let near: [String] = distances.filter { (name: String, distance: Int) -> Bool in
            distance <= max(1, min(2, name.count / 3)) || name.hasPrefix(typed)
        }.sorted { $0.distance < $1.distance }.map(\.name)
        let suggestion = near.isEmpty ? "" : " Did you mean '\(near.prefix(2).joined(separator: "' or '"))'?"
        let name = BenchTool.commandName
        let article = name.first.map { "aeiou".contains($0) } == true ? "an" : "a"
        return "'\(first)' is not \(article) \(name) command.\(suggestion) Commands: "
            + visible.joined(separator: ", ") + "; '\(BenchTool.commandName) --help' says what each does."
    }

    /// The edit distance between two names: insertions, deletions, substitutions and swaps of two
    /// neighbours (`rnu` is one from `run`).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var distance = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { distance[i][0] = i }
        for j in 0...b.count { distance[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                distance[i][j] = min(distance[i - 1][j] + 1, distance[i][j - 1] + 1, distance[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    distance[i][j] = min(distance[i][j], distance[i - 2][j - 2] + 1)
                }
            }
        }
        return distance[a.count][b.count]
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
        case .nothingJudged: return "nothing judged or compared (unless --allow-nothing-judged); bisect: nothing moved"
        case .unusableInput: return "unusable input: no parser could read a file; nothing measured or written"
        case .interrupted: return "interrupted (SIGINT, Ctrl-C): finished cells written, the stored run incomplete"
        case .terminated: return "terminated (SIGTERM): as 130"
        }
    }

    private var commands: String {
        switch self {
        case .ok, .error: return "all"
        case .regression, .failedCell: return "compare"
        case .nothingJudged: return "compare, bisect"
        case .unusableInput: return "run"
        case .interrupted, .terminated: return "run, bisect"
        }
    }
}

/// An error that ends a command with a message and exit code 1.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
}
