import BenchWorker
import ArgumentParser
import BenchEngine
import BenchReports
import BenchResults
import Foundation

/// `bench bisect --good REV --bad REV`: the commits whose instruction counts moved.
struct Bisect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find the commits between GOOD and BAD whose instruction counts moved, and explain each.",
        discussion: """
            Run inside a git repository of the suite, or of a package that depends on it (its executable runs \
            BenchTool.main(parsers:); --package-path and --product name it). Each probed commit is checked out \
            in one worktree (.build-bisect/worktree) and built in release with one scratch directory \
            (.build-bisect/scratch, kept for the next bisect: every build after the first is incremental); the \
            repository's own checkout, HEAD, branches and index are not touched, and the worktree is removed at \
            the end, on Ctrl-C too. Each commit's own tool counts one parse of each parser after a warm-up \
            (callgrind: exact, so one probe decides). The ends are counted first: the parsers whose count moved by \
            the threshold between them are sought, and every stretch whose ends differ by it, in the direction \
            of that change, is split until each step is one commit (⌈log₂ n⌉ probes for one step among n \
            commits; several steps are each found). A commit that does not build, or whose tool cannot count, \
            is skipped and said, as git bisect skip does. Prints each probe with its counts and the time its \
            build and count took, then each commit found, its subject, and its explanation against the commit \
            before it (from the two probes' profiles, as bench compare explains). Progress goes to standard \
            error. Exit status: 0 found, 1 error, 4 nothing moved between GOOD and BAD (or no single commit \
            moved it). Needs git, valgrind and binutils.
            """)

    @Option(help: "The good revision (before the change).")
    var good: String

    @Option(help: "The bad revision (after it); GOOD must be its ancestor.")
    var bad: String

    @Option(help: "The parsers to count, comma-separated (default: the probed tool's default set).")
    var parsers: String?

    @Option(help: "The feed every probe parses, from this directory: the same bytes for every commit.")
    var feed: String = "Data/top300.rss.xml"

    @Option(
        name: .customLong("package-path"),
        help: "The package to build at each commit, relative to the repository's top.")
    var packagePath: String = "."

    @Option(help: "The package's executable, which runs BenchTool.main(parsers:).")
    var product: String = "bench"

    @Option(help: "The relative change of a count that counts, in percent.")
    var threshold: Double = 1

    @Option(help: "What to print: table or json.")
    var format: BisectFormat = .table

    func validate() throws {
        guard threshold > 0 && threshold < 100 else {
            throw ValidationError("--threshold is a percentage from above 0 to below 100 (e.g. 1)")
        }
        if let parsers, ListArgument.split([parsers]).isEmpty {
            throw ValidationError("--parsers names no parser")
        }
    }

    func run() throws {
        guard InstructionCounter.findExecutable("valgrind") != nil else {
            throw CommandFailure(
                description: "bench bisect counts instructions with valgrind, which is not installed "
                    + "(Debian: apt-get install valgrind binutils)")
        }
        let directory = FileManager.default.currentDirectoryPath
        let repository = try Self.refusing { try GitRepository(containing: directory) }
        let feedPath = feed.hasPrefix("/") ? feed : (directory as NSString).appendingPathComponent(feed)
        let session = BisectSession(
            repository: repository, good: good, bad: bad, parsers: parsers.map { ListArgument.split([$0]) },
            feed: (feedPath as NSString).standardizingPath, packagePath: packagePath, product: product,
            threshold: threshold / 100)
        WorkerProcess.finishOnInterrupt(
            grace: 60, notice: "Interrupted: stopping after the current step; the worktree will be removed.")
        let result = try Self.refusing { try session.run { printError($0) } }
        switch format {
        case .table: print(BisectReport.text(result, width: Terminal(quiet: true).width), terminator: "")
        case .json: print(try BisectReport.json(result), terminator: "")
        }
        if let signal = WorkerProcess.interruption { throw ExitCode(BenchExitCode.signal(signal)) }
        if result.steps.isEmpty { throw BenchExitCode.nothingJudged.exitCode }
    }

    /// `body`, its refusals as the command's errors.
    static func refusing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let refusal as BisectSession.Refusal {
            throw CommandFailure(description: refusal.description)
        } catch let failure as GitRepository.Failure {
            throw CommandFailure(description: failure.description)
        }
    }
}

/// `bench bisect --format`.
enum BisectFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json
}
