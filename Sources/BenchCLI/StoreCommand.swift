import ArgumentParser
import BenchReports
import BenchResults
import Foundation
import StatsStore

/// `bench store push` and `bench store pull`: runs copied between stats stores; `bench store
/// remove`: runs taken out of one (an interrupted run, say); `bench store prune`: old runs' raw
/// samples taken out, their summaries kept.
struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract:
            "Copy runs between stats stores: push local runs to a shared PostgreSQL store, pull them back; remove runs; prune old raw samples.",
        discussion: """
            A run is copied in one transaction, whole or not at all. A run ID already in the target is skipped \
            (never duplicated); one that differs there is an error (the other runs are still copied); a run the \
            target holds incomplete with part of these samples (its store failed during the run) gets the rest. \
            Incomplete runs stay marked incomplete. The password of a PostgreSQL store comes from PGPASSWORD or \
            ~/.pgpass.
            """,
        subcommands: [Push.self, Pull.self, Remove.self, Prune.self])

    struct Push: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy local runs to a (shared) stats store.",
            discussion: """
                --from takes stats stores (SQLite files, or URLs), run files (<run-id>.json, as `bench run` writes \
                them: what a run whose store failed kept) and directories of run files.
                """)

        @Option(
            parsing: .singleValue,
            help: "Where the runs are: stores, run files or directories of them (comma-separated or repeated).")
        var from: [String] = ["Results/stats.sqlite"]

        @Option(help: "The store to copy them to: postgres://user@host:port/database (or an SQLite file).")
        var to: String

        @OptionGroup var selection: RunSelection

        func run() throws {
            // The sources first: a push refused for its sources leaves the target as it was (an SQLite
            // target is created when missing).
            var sources: [RunSource] = []
            for location in ListArgument.split(from) { sources += try RunSource.sources(location) }
            let target = try StatsStores.open(to)
            try StoreCopy(selection: selection, verb: "pushed").copy(from: sources, to: target)
        }
    }

    struct Pull: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy runs from a (shared) stats store to a local one.")

        @Option(help: "The store the runs are in: postgres://user@host:port/database (or an SQLite file).")
        var from: String

        @Option(help: "The store to copy them to (an SQLite file, created when missing).")
        var to: String = "Results/stats.sqlite"

        @OptionGroup var selection: RunSelection

        func run() throws {
            let source = try StatsStores.open(from, mustExist: true, readOnly: true)
            let target = try StatsStores.open(to)
            try StoreCopy(selection: selection, verb: "pulled").copy(from: [.store(source)], to: target)
        }
    }
}

/// `bench store remove --run ID`: takes runs and their samples out of a store.
extension StoreCommand {
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove runs and their samples from a stats store (an interrupted run one does not want, say).",
            discussion: """
                Only the runs named. A run that is not in the store is an error (the others are still removed). \
                `bench run` names the run it leaves incomplete when it is interrupted.
                """)

        @Option(
            name: .customLong("run"), parsing: .upToNextOption,
            help: "The run IDs to remove (comma-separated or repeated).")
        var runIDs: [String] = []

        @OptionGroup var storeOptions: StoreOptions

        func validate() throws {
            guard !ListArgument.split(runIDs).isEmpty else { throw ValidationError("--run: which runs to remove") }
        }

        func run() throws {
            let store = try storeOptions.open(mustExist: true)
            var missing: [String] = []
            for id in ListArgument.split(runIDs) {
                if try store.removeRun(id) {
                    print("Removed run \(id) from \(store.location).")
                } else {
                    missing.append(id)
                }
            }
            if !missing.isEmpty {
                throw CommandFailure(
                    description: "no run \(missing.joined(separator: ", ")) in the stats store \(store.location)")
            }
        }
    }
}

/// Which runs to copy.
struct RunSelection: ParsableArguments {
    @Option(
        name: .customLong("run"), parsing: .singleValue, help: "Only these run IDs (comma-separated or repeated).")
    var runIDs: [String] = []

    @Option(name: .customLong("host"), parsing: .singleValue, help: CellSelection.hostHelp)
    var hosts: [String] = []

    @Option(help: "Only runs started at or after this time (ISO 8601, e.g. 2026-11-22).")
    var since: String?

    @Flag(help: "No progress line.")
    var quiet = false

    func validate() throws { try SinceOption.validate(since) }

    func selects(_ environment: RunEnvironment) -> Bool {
        let ids = ListArgument.split(runIDs)
        let hosts = ListArgument.split(self.hosts)
        return (ids.isEmpty || ids.contains(environment.runID)) && (hosts.isEmpty || hosts.contains(environment.host))
            && (since.map { environment.startedAt >= $0 } ?? true)
    }
}

/// Where runs come from: a store, or run files.
enum RunSource {
    case store(any StatsStoring)
    case file(String)

    var name: String {
        switch self {
        case .store(let store): return store.location
        case .file(let path): return path
        }
    }

    /// A store, a run file, or every run file of a directory.
    static func sources(_ location: String) throws -> [RunSource] {
        var isDirectory: ObjCBool = false
        if StatsStores.isSharedURL(location) { return [.store(try StatsStores.open(location))] }
        guard FileManager.default.fileExists(atPath: location, isDirectory: &isDirectory) else {
            throw CommandFailure(description: "no such store, run file or directory: \(location)")
        }
        if isDirectory.boolValue {
            let files = RunFiles.runFiles(in: location)
            guard !files.isEmpty else {
                throw CommandFailure(description: "no run files (<run-id>.json) in \(location)")
            }
            return files.map { .file($0) }
        }
        if location.hasSuffix(".json") { return [.file(location)] }
        return [.store(try StatsStores.open(location, mustExist: true, readOnly: true))]
    }
}

/// Copies runs into a store (``RunCopy``), with a progress line and a summary.
struct StoreCopy {
    var selection: RunSelection
    var verb: String

    func copy(from sources: [RunSource], to target: any StatsStoring) throws {
        let terminal = Terminal(quiet: selection.quiet)
        let items = try sources.flatMap(items)
        let started = Date()
        let tally: RunCopy.Tally
        do {
            tally = try RunCopy(to: target).copy(items) { number in
                let line = "\(verb) \(number) of \(items.count) runs to \(target.location)"
                if terminal.progressEnabled {
                    terminal.progress(line + "…")
                } else if !selection.quiet && number > 0 && number % 100 == 0 {
                    printError(line)
                }
            }
        } catch let lost as RunCopy.ConnectionLost {
            terminal.clearProgress()
            throw CommandFailure(description: lost.description)
        }
        terminal.clearProgress()
        let seconds = Date().timeIntervalSince(started)
        // A copy brings samples, not summaries; the readers read summaries, and never write them.
        try StoreOptions.backfill().summarise(try target.unsummarisedRuns(), in: target)
        print(
            Format.wrap(
                "\(verb.prefix(1).uppercased() + verb.dropFirst()) \(tally.considered) run(s) to \(target.location) in "
                    + String(format: "%.1f s", seconds)
                    + ": \(tally.added) added, \(tally.completed) completed (they were incomplete there), "
                    + "\(tally.alreadyThere) already there; \(tally.samples) sample(s) written"
                    + (tally.failures.isEmpty ? "." : "; \(tally.failures.count) not copied."),
                width: Terminal(quiet: true).width))
        if tally.considered == 0 && tally.failures.isEmpty {
            let sources = sources.map(\.name).joined(separator: ", ")
            // Runs named by their IDs that are not there: an error, as `bench store remove` says it.
            let named = ListArgument.split(selection.runIDs)
            guard named.isEmpty else {
                throw CommandFailure(description: "no run \(named.joined(separator: ", ")) in \(sources)")
            }
            printError("no runs matched (--host, --since) in " + sources)
        }
        if !tally.failures.isEmpty {
            throw CommandFailure(
                description: "\(tally.failures.count) run(s) not copied:\n  " + tally.failures.joined(separator: "\n  ")
            )
        }
    }

    /// The selected runs of a source, in order, each read when its turn comes.
    func items(_ source: RunSource) throws -> [RunCopy.Item] {
        switch source {
        case .store(let store):
            return try store.runs().reversed().filter(selection.selects).map { environment in
                RunCopy.Item.stored(environment.runID, in: store)
            }
        case .file(let path):
            return [
                RunCopy.Item(name: path) {
                    let result = try RunFiles.read(path)
                    return selection.selects(result.environment) ? StoredRun(result) : nil
                }
            ]
        }
    }
}
