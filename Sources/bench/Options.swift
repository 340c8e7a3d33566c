import ArgumentParser
import StatsStore
import FeedParsers
import FeedTransport

/// Lists on the command line: every list option takes comma-separated values, repeated options,
/// or both (`--parsers libxml2,expat` = `--parsers libxml2 --parsers expat`).
enum ListArgument {
    /// The values of a list option, commas split, blanks dropped.
    static func split(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

/// `--parsers`: which parsers to run.
struct ParserOptions: ParsableArguments {
    @Option(
        name: .customLong("parsers"), parsing: .upToNextOption,
        help: ArgumentHelp(
            "Parsers, comma-separated or repeated, or 'all'.",
            discussion: "Known: \(ParserRegistry.names.joined(separator: ", ")). Default: bench run measures \(ParserRegistry.defaultNames.joined(separator: ", ")); bench sweep \(ParserRegistry.classicNames.joined(separator: ", ")); bench verify checks all."))
    var raw: [String] = []

    /// The parsers asked for ('all' expanded, in registry order); empty when none were named.
    var names: [String] {
        let asked = ListArgument.split(raw)
        guard asked.contains("all") else { return asked }
        return ParserRegistry.names
    }

    /// The parsers asked for, or `defaults` when none were named.
    func names(default defaults: [String]) -> [String] {
        names.isEmpty ? defaults : names
    }

    func validate() throws {
        for name in names where ParserRegistry.parser(named: name) == nil || name == ParserRegistry.baseline.name {
            throw ValidationError("unknown parser '\(name)'; known parsers: \(ParserRegistry.names.joined(separator: ", "))")
        }
    }
}

/// `--store`: the stats store.
struct StoreOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The stats store: an SQLite file, or a shared PostgreSQL database (postgres://user@host:port/database).",
            discussion: "The password of a PostgreSQL store comes from PGPASSWORD or ~/.pgpass, never from the URL."))
    var store: String = "Results/stats.sqlite"

    /// Opens the store (creating an SQLite file unless `mustExist`).
    func open(mustExist: Bool = false) throws -> any StatsStoring {
        try StatsStores.open(store, mustExist: mustExist)
    }

    /// What to say when the store failed partway through a run that went on: where every sample is,
    /// and the command that copies the run into the store once it is back.
    static func recorderFailure(_ error: any Error, runID: String, store: any StatsStoring, runFiles: [String]) -> String {
        "the stats store failed during run \(runID) (\(error)); the run stays incomplete in \(store.location) with the cells "
            + "recorded before, and every sample measured is in \(runFiles.joined(separator: " and ")). Once the store is back, "
            + "copy the rest in with:\n"
            + runFiles.map { "  bench store push --from \($0) --to \(store.location)" }.joined(separator: "\n")
    }
}

/// `--network`, `--bandwidth-kbps`, `--rtt-ms`: the embedded server's network profile.
struct NetworkOptions: ParsableArguments {
    enum Name: String, ExpressibleByArgument, CaseIterable {
        case loopback, wifi, lte, threeG = "3g", edge, custom
    }

    @Option(
        help: "The embedded server's network profile: \(Name.allCases.map(\.rawValue).joined(separator: ", ")) (default: wifi for bench run, loopback for bench serve).")
    var network: Name?

    @Option(name: .customLong("bandwidth-kbps"), help: "Bandwidth of --network custom, kbit/s.")
    var bandwidthKbps: Int?

    @Option(name: .customLong("rtt-ms"), help: "Round-trip time of --network custom, ms.")
    var rttMs: Int?

    func validate() throws {
        if network == .custom {
            guard let bandwidthKbps, bandwidthKbps > 0, let rttMs, rttMs >= 0 else {
                throw ValidationError("--network custom needs --bandwidth-kbps (above 0) and --rtt-ms (0 or more)")
            }
        } else if bandwidthKbps != nil || rttMs != nil {
            throw ValidationError("--bandwidth-kbps and --rtt-ms go with --network custom")
        }
    }

    /// The profile chosen, or `fallback` when none was.
    func profile(default fallback: Name) -> NetworkProfile? {
        NetworkProfile(name: (network ?? fallback).rawValue, bandwidthKbps: bandwidthKbps, rttMs: rttMs)
    }
}
