import ArgumentParser
import BenchEngine
import Foundation

/// The `bench` command: measures XML parsers building songs from an iTunes Store feed.
@main
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Which XML parser should a Swift app use to load a feed? Measures Foundation, libxml2 and expat.",
        discussion: """
            Every parser builds the same songs from an iTunes Store RSS feed, checked before anything is \
            timed. With no subcommand, `bench` runs `bench run`: the parse benchmark on Data/top300.rss.xml, \
            recorded in Results/stats.sqlite, with CSV and JSON in Results/.
            """,
        subcommands: [
            Run.self, Sweep.self, Report.self, Compare.self, StoreCommand.self, Verify.self, Conformance.self, Serve.self, Generate.self, ListParsers.self,
            Worker.self,
        ],
        defaultSubcommand: Run.self
    )

    /// Runs the command; bad values on the command line exit with status 1 (not the library's 64),
    /// like every other failure, after the library's own message and usage.
    static func main() {
        do {
            var command = try parseAsRoot()
            // A worker ends with the `bench` that started it (Linux's parent-death signal).
            if command is any WorkerSubcommand { WorkerProcess.endWithParent() }
            try command.run()
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { print(message) }
                Foundation.exit(0)
            }
            if !message.isEmpty { FileHandle.standardError.write(Data((message + "\n").utf8)) }
            Foundation.exit(code == .validationFailure ? 1 : code.rawValue)
        }
    }
}

/// An error that ends a command with a message and exit code 1.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
}
