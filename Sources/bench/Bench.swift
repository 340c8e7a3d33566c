import ArgumentParser

/// The `bench` command: measures XML parsers building songs from an iTunes Store feed.
@main
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Which XML parser should a Swift app use to load a feed? Measures Foundation, libxml2 and expat.",
        discussion: """
            Every parser builds the same songs from an iTunes Store RSS feed; `bench verify` checks that they \
            agree, each parser in its own worker process. With no subcommand, `bench` runs `verify` on the \
            feeds in Data/ (the measuring engine, `bench run`, is the next step of the project).
            """,
        subcommands: [Verify.self, Generate.self, ListParsers.self, Worker.self],
        defaultSubcommand: Verify.self
    )
}

/// An error that ends a command with a message and exit code 1.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
}
