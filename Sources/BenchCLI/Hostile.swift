import ArgumentParser
import BenchEngine
import BenchReports
import BenchResults
import BenchWorker
import FeedParsers
import Foundation

/// `bench hostile`: the hostile corpus against each song parser, in worker processes.
struct Hostile: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Run documents made to hurt a parser against each song parser: typed error or correct songs, or a failure.",
        discussion: """
            Generates the hostile corpus in a temporary directory (billion laughs, a quadratic blow-up, an \
            external entity and an external DTD that name a secret local file, 100,000-deep nesting, a 10 MB \
            name and attribute value, invalid UTF-8, wrong encodings, a NUL byte, the committed feed truncated \
            at every byte offset below 4,096, 1,000,000 attributes on one element) and runs each parser \
            named (default: every parser that builds songs, a package's registered ones included) over it in \
            worker processes with a time and a memory limit. Each document must end in a typed error or \
            in the songs allowed, and the secret must be in no song and no error. Prints per parser its \
            verdict and one row per document (the truncations as one row). Exit status 0 when every parser \
            held on every document; 1 when one crashed, timed out, ran out of memory, read the secret, \
            accepted a document that is not well-formed or built wrong songs (each named).
            """
    )

    @OptionGroup var parserOptions: ParserOptions

    @Option(
        name: .customLong("case-timeout"),
        help:
            "Seconds a worker may go without finishing a document before it is killed as hung (1,000,000 attributes: \(Int(HostileCorpus.manyAttributesTimeLimit)) s at most)."
    )
    var caseTimeout = HostileCorpus.timeLimit

    @Option(
        name: .customLong("memory-limit-mib"),
        help: "Each worker's memory limit, MiB: its data (RLIMIT_DATA), and the resident memory at which it is killed."
    )
    var memoryLimitMiB = HostileCorpus.memoryLimitMiB

    @Flag(help: "No progress line.")
    var quiet = false

    /// The parsers checked when none are named: every one that builds songs.
    static var defaultParsers: [String] { ParserRegistry.all.filter { $0.buildsSongs }.map { $0.name } }

    func validate() throws {
        try TimeLimitArgument.check(caseTimeout, option: "--case-timeout")
        guard memoryLimitMiB >= 64 else { throw ValidationError("--memory-limit-mib must be at least 64") }
        for name in parserOptions.names(all: Self.defaultParsers) where !ParserRegistry.buildsSongs(name) {
            throw ValidationError(
                "\(name) builds no songs: the hostile corpus checks song parsers (\(Self.defaultParsers.joined(separator: ", ")))"
            )
        }
    }

    func run() throws {
        WorkerProcess.killWorkerOnInterrupt()
        // The resident watch at the same figure as each worker's own data limit.
        WorkerProcess.memoryLimitBytes = memoryLimitMiB << 20
        let parsers = parserOptions.names(default: Self.defaultParsers, all: Self.defaultParsers)
        let terminal = Terminal(quiet: quiet)
        let width = terminal.width
        // Removed at the end, on SIGINT and SIGTERM, and (left by a crash) by the next bench hostile.
        let scratch: ScratchDirectory
        do {
            scratch = try ScratchDirectory(prefix: "bench-hostile")
        } catch {
            throw CommandFailure(description: "cannot make a directory for the hostile corpus: \(error)")
        }
        defer { scratch.remove() }
        for leftover in scratch.cleared { printError(Format.wrap(leftover.description, width: width)) }
        terminal.progress("writing the hostile corpus…")
        let corpus: HostileCorpus
        do {
            corpus = try HostileCorpus(directory: scratch.path)
        } catch {
            terminal.clearProgress()
            throw CommandFailure(description: "cannot write the hostile corpus into \(scratch.path): \(error)")
        }
        terminal.clearProgress()
        let limit = Int(min(caseTimeout, HostileCorpus.manyAttributesTimeLimit))
        print(
            Format.wrap(
                "The hostile corpus: \(corpus.all.count) documents against \(parsers.joined(separator: ", ")), "
                    + "in worker processes: \(Format.number(caseTimeout, decimals: 0)) s a document (\(limit) s for "
                    + "1,000,000 attributes; a worker still silent 5 s after its limit is stopped: TIMED OUT), "
                    + "\(memoryLimitMiB) MiB of memory a worker. Each must end in a typed error or the songs allowed, "
                    + "and no song or error may show the secret of the local file that two of them name.",
                width: width))
        let options = HostileCorpusRunner.Options(
            timeLimit: caseTimeout, manyAttributesTimeLimit: min(caseTimeout, HostileCorpus.manyAttributesTimeLimit),
            memoryLimitMiB: memoryLimitMiB)
        var results: [HostileParserResult] = []
        for parser in parsers {
            let result = HostileCorpusRunner.run(parser: parser, corpus: corpus, options: options) {
                terminal.progress("\(parser): \($0)/\(corpus.all.count) documents")
            }
            terminal.clearProgress()
            print("\n" + HostileReport.text(result, width: width))
            results.append(result)
        }
        print("\n" + Format.wrap(HostileReport.summary(results), width: width))
        let failed = results.filter { !$0.held }.map(\.parser)
        guard failed.isEmpty else {
            throw CommandFailure(
                description: "the hostile corpus: \(failed.joined(separator: ", ")) did not hold (see the table)")
        }
    }
}
