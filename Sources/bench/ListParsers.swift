import ArgumentParser
import FeedParsers

/// `bench list`: the parsers this build knows.
struct ListParsers: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the parsers this build knows.")

    func run() {
        let width = ParserRegistry.names.map(\.count).max() ?? 0
        for parser in ParserRegistry.all {
            print(parser.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + parser.summary)
        }
    }
}
