import ArgumentParser
import BenchEngine
import BenchReports
import FeedParsers

/// `bench list`: the parsers this build knows, their kind, and which `bench run` measures by default.
struct ListParsers: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the parsers this build knows, with their kind.")

    func run() {
        let width = ParserRegistry.names.map(\.count).max() ?? 0
        let kindWidth = ParserKind.allCases.map(\.rawValue.count).max() ?? 0
        let terminalWidth = Terminal(quiet: true).width
        for parser in ParserRegistry.all {
            let inDefault = ParserRegistry.defaultNames.contains(parser.name) ? "*" : " "
            let name =
                inDefault + " " + parser.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                + parser.kind.rawValue.padding(toLength: kindWidth, withPad: " ", startingAt: 0) + "  "
            // The summary wraps under itself.
            let summary = Format.wrap(String(repeating: " ", count: name.count) + parser.summary, width: terminalWidth)
            print(name + summary.dropFirst(name.count))
        }
        print(
            Format.wrap(
                "\n* measured by `bench run` when no --parsers are named; `--parsers all` measures every one.",
                width: terminalWidth))
    }
}
