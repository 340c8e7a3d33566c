import ArgumentParser
import BenchEngine
import BenchReports
import BenchResults
import BenchWorker
import FeedParsers
import FeedTransport
import Foundation
import StatsStore

/// Lists on the command line: every list option takes comma-separated values, repeated options,
/// or both (`--parsers libxml2,expat` = `--parsers libxml2 --parsers expat`).
enum ListArgument {
    /// The values of a list option, commas split, blanks dropped, each once where it was first
    /// named: a parser, feed or run named twice would otherwise be measured or counted twice (two
    /// rows of the same parser, a run's samples pooled with themselves in a comparison).
    static func split(_ values: [String]) -> [String] {
        once(
            values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            })
    }

    /// Refuses a list option given with nothing in it (`--feed ''`, `--threads ,`), saying `option`
    /// names `nothing`: it would read as not given, and the defaults would run instead.
    static func requireValues(_ values: [String], option: String, nothing: String = "nothing") throws {
        if !values.isEmpty && split(values).isEmpty { throw ValidationError("\(option) names \(nothing)") }
    }

    /// `values` with each once, where it first came (sizes read from a list: "30,030" is 30 twice).
    static func once<Value: Hashable>(_ values: [Value]) -> [Value] {
        var seen: Set<Value> = []
        return values.filter { seen.insert($0).inserted }
    }
}

/// Options that take a number of seconds for a time limit (`--timeout`, `--case-timeout`).
enum TimeLimitArgument {
    /// The least a time limit may be, in seconds (a millisecond).
    static let least = 0.001

    /// Refuses `seconds` outside ``least`` to `WorkerProcess.longestTimeLimit` (a day), NaN and
    /// infinity among them, with that range: a limit past what the clock's nanoseconds hold ended
    /// `bench` by a trap.
    static func check(_ seconds: Double, option: String) throws {
        guard (least...WorkerProcess.longestTimeLimit).contains(seconds) else {
            throw ValidationError(
                "\(option) must be from \(least) to \(Int(WorkerProcess.longestTimeLimit)) seconds (a day), not \(seconds)"
            )
        }
    }
}

/// `--parsers`: which parsers to run.
struct ParserOptions: ParsableArguments {
    @Option(
        name: .customLong("parsers"), parsing: .singleValue,
        help: ArgumentHelp(
            "Parsers, comma-separated or repeated, or 'all'.",
            discussion:
                "Known: \(ParserRegistry.names.joined(separator: ", ")). With bench report: only their rows. Default: bench run measures \(ParserRegistry.defaultNames.joined(separator: ", ")); bench sweep \(ParserRegistry.classicNames.joined(separator: ", ")); bench verify checks all."
        ))
    var raw: [String] = []

    /// The parsers asked for ('all' expanded, in registry order); empty when none were named.
    var names: [String] { names(all: ParserRegistry.names) }

    /// The parsers asked for, 'all' being the command's `all` (`bench hostile`'s: every parser that
    /// builds songs); empty when none were named.
    func names(all: [String]) -> [String] {
        let asked = ListArgument.split(raw)
        return asked.contains("all") ? all : asked
    }

    /// The parsers asked for, or `defaults` when none were named.
    func names(default defaults: [String], all: [String] = ParserRegistry.names) -> [String] {
        let asked = names(all: all)
        return asked.isEmpty ? defaults : asked
    }

    func validate() throws {
        try ListArgument.requireValues(
            raw, option: "--parsers",
            nothing: "no parser; known parsers: \(ParserRegistry.names.joined(separator: ", "))")
        for name in names where ParserRegistry.parser(named: name) == nil || name == ParserRegistry.baseline.name {
            // A built-in parser this build left out (exit 1, not a usage error): which trait brings it.
            if let trait = ParserRegistry.leftOut[name].flatMap(SuiteTrait.init(rawValue:)) {
                throw SuiteTraitMissing(trait, neededBy: "the parser '\(name)'")
            }
            throw ValidationError(
                "unknown parser '\(name)'; known parsers: \(ParserRegistry.names.joined(separator: ", "))")
        }
    }
}

/// `--scenario`, `--feed`, `--host`: which stored cells `bench report` and `bench history` read.
struct CellSelection: ParsableArguments {
    @Option(
        name: .customLong("scenario"), parsing: .singleValue,
        help:
            "Only these scenarios (comma-separated or repeated): \(ScenarioID.allCases.map(\.rawValue).joined(separator: ", ")); a scenario's name takes all its cells, a cell's name (e.g. conditional-304) that one."
    )
    var scenarios: [String] = []

    @Option(help: "Only this feed: its path, the end of its path, or its SHA-256 (case-sensitive, on every store).")
    var feed: String?

    @Option(name: .customLong("host"), parsing: .singleValue, help: Self.hostHelp)
    var hosts: [String] = []

    /// `--host`'s help, which `bench store`'s ``RunSelection`` shares.
    static let hostHelp = ArgumentHelp(
        "Only runs of these hosts (comma-separated or repeated; the host name, or BENCH_HOST, as `bench run` recorded it)."
    )

    /// The scenarios asked for, commas split.
    var scenarioNames: [String] { ListArgument.split(scenarios) }

    /// The hosts asked for, commas split.
    var hostNames: [String] { ListArgument.split(hosts) }

    /// Refuses a name that is no scenario of this build (`bogus`, `pares`), with the names it could be.
    ///
    /// Such a name would select nothing and leave an empty report. A cell's name passes when its
    /// scenario is one (`conditional-304`, `paged-25`).
    func validate() throws {
        for name in scenarioNames where CellScenario(name: name).kind == nil {
            throw ValidationError(
                "--scenario: unknown scenario '\(name)'; known: \(ScenarioID.allCases.map(\.rawValue).joined(separator: ", ")) "
                    + "(or one of their cells, such as conditional-304)")
        }
    }
}

/// `--include-gate-tests`, `--exclude-incomplete`: which stored runs `bench report` and `bench
/// history` read beside the finished ones of real builds (one declaration, so their help agrees).
struct RunInclusion: ParsableArguments {
    @Flag(
        name: .customLong("include-gate-tests"),
        help: "Include runs with an injected slowdown (tests of the regression gate, left out by default).")
    var includeGateTests = false

    @Flag(
        name: .customLong("exclude-incomplete"),
        help:
            "Leave out runs that did not finish (interrupted or failed; by default their finished cells count, and the output says how many)."
    )
    var excludeIncomplete = false
}

/// `--store`: the stats store.
struct StoreOptions: ParsableArguments {
    /// The store when `--store` is not given.
    static let defaultStore = "Results/stats.sqlite"

    /// `--store` as given (`nil`: not given), so that a command can refuse it where it would not be used.
    @Option(
        name: .customLong("store"),
        help: ArgumentHelp(
            "The stats store: an SQLite file, or a shared PostgreSQL database (postgres://user@host:port/database). "
                + "(default: \(Self.defaultStore))",
            discussion: "The password of a PostgreSQL store comes from PGPASSWORD or ~/.pgpass, never from the URL.",
            valueName: "store"))
    var given: String?

    /// The stats store: `--store`, or the default.
    var store: String { given ?? Self.defaultStore }

    /// Refuses `--store` beside `--no-store`, which records nothing and reads no store: the store named
    /// would not be used.
    func check(against output: OutputOptions) throws {
        if output.noStore, let given {
            throw ValidationError("--store \(given) names a store that --no-store does not use: give one or the other")
        }
    }

    /// Opens the store (creating an SQLite file unless `mustExist`); a command that only reads
    /// passes `readOnly`, and reads the store without writing it, whether or not it may.
    ///
    /// Opened to write, runs stored before the store kept summaries (or copied in since) are
    /// summarised first, once, with progress on stderr (``backfill``); opened to read, such runs
    /// are an error that says how to summarise them (`StatsStores.open(_:mustExist:readOnly:backfill:)`).
    func open(mustExist: Bool = false, readOnly: Bool = false) throws -> any StatsStoring {
        try StatsStores.open(store, mustExist: mustExist, readOnly: readOnly, backfill: Self.backfill())
    }

    /// How a command that writes a store summarises the runs it holds without summaries: by the
    /// function `bench run` summarises with, with progress on stderr (on a terminal one line that
    /// counts; elsewhere a line at the start, as each tenth is passed, and at the end).
    static func backfill() -> SummaryBackfill {
        var tenths = -1
        return SummaryBackfill(
            summarising: {
                RunResult.summarising(
                    $0.samples, environment: $0.environment, settings: $0.settings, noise: $0.noise,
                    documents: $0.documents, notTimed: $0.notTimed)
            },
            progress: { done, total in
                let tty = isatty(STDERR_FILENO) == 1
                let tenth = done * 10 / total
                guard tty || tenth != tenths else { return }
                tenths = tenth
                let line = "summarising \(total) stored runs… \(done)/\(total)"
                FileHandle.standardError.write(
                    Data(((tty ? "\r" : "") + line + (tty && done < total ? "" : "\n")).utf8))
            })
    }

    /// What to say when the store failed partway through a run that went on: where every sample is,
    /// and the command that copies the run into the store once it is back.
    static func recorderFailure(_ error: any Error, runID: String, store: String, runFiles: [String]) -> String {
        "the stats store failed during run \(runID) (\(error)); the run stays incomplete in \(store) with the cells "
            + "recorded before, and every sample measured is in \(runFiles.joined(separator: " and ")). Once the store is back, "
            + "copy the rest in with:\n"
            + runFiles.map { "  bench store push --from \($0) --to \(store)" }.joined(separator: "\n")
    }
}

/// `--network`, `--bandwidth-kbps`, `--rtt-ms`: the embedded server's network profile.
struct NetworkOptions: ParsableArguments {
    /// `--network`'s values: the names of `NetworkProfile/named`, then `custom`.
    struct Name: RawRepresentable, ExpressibleByArgument, CaseIterable, Hashable {
        var rawValue: String

        init?(rawValue: String) {
            guard Self.allCases.contains(where: { $0.rawValue == rawValue }) else { return nil }
            self.rawValue = rawValue
        }

        private init(name: String) { rawValue = name }

        static let custom = Name(name: "custom")
        static let allCases = NetworkProfile.named.map { Name(name: $0.name) } + [custom]
    }

    @Option(
        help:
            "The embedded server's network profile: \(Name.allCases.map(\.rawValue).joined(separator: ", ")) (default: wifi for bench run, loopback for bench serve)."
    )
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
    func profile(default fallback: NetworkProfile) -> NetworkProfile? {
        NetworkProfile(name: network?.rawValue ?? fallback.name, bandwidthKbps: bandwidthKbps, rttMs: rttMs)
    }
}

/// The memory each worker process may use (`bench run`, `verify`, `sweep`).
struct WorkerMemoryOptions: ParsableArguments {
    @Option(
        name: .customLong("memory-limit"),
        help: ArgumentHelp(
            "The resident memory one worker process may reach before it is killed and its parser reported as out of memory: a size such as 512MiB or 2GiB (MiB without a unit), or none (default: \(WorkerProcess.formatBytes(WorkerProcess.defaultMemoryLimitBytes)))."
        ))
    var memoryLimit: String?

    func validate() throws {
        if let memoryLimit { _ = try Self.parse(memoryLimit) }
    }

    /// Sets the limit of the workers this process starts.
    func apply() throws {
        if let memoryLimit { WorkerProcess.memoryLimitBytes = try Self.parse(memoryLimit) }
    }

    /// "2GiB", "512MiB", "512" (MiB), "none" → bytes (`nil` for none).
    static func parse(_ text: String) throws -> Int? {
        let lowered = text.lowercased().trimmingCharacters(in: .whitespaces)
        if lowered == "none" { return nil }
        let units: [(String, Int)] = [
            ("gib", 1 << 30), ("gb", 1 << 30), ("g", 1 << 30), ("mib", 1 << 20), ("mb", 1 << 20), ("m", 1 << 20),
        ]
        var number = lowered
        var scale = 1 << 20
        for (unit, bytes) in units where lowered.hasSuffix(unit) {
            number = String(lowered.dropLast(unit.count)).trimmingCharacters(in: .whitespaces)
            scale = bytes
            break
        }
        guard let value = Double(number), value.isFinite, value * Double(scale) >= 64 * 1_048_576,
            value * Double(scale) < 1e15
        else {
            throw ValidationError("--memory-limit takes a size of at least 64MiB, such as 512MiB or 2GiB, or none")
        }
        return Int(value * Double(scale))
    }
}

/// How `bench run` and `bench sweep` measure: rounds, iterations, warm-up, time limit, chunk size.
///
/// Each command has its own defaults (a sweep has many more cells); an
/// option left out is `nil` here and the command's default applies.
struct MeasuringOptions: ParsableArguments {
    @Option(
        help:
            "Worker processes per parser and cell. Each round runs one worker of every parser, side by side, the order turned each round; figures and intervals come from the workers (default: bench run \(RunDefaults.rounds), and a timed parse or document run given none of --rounds, --precision and --max-time stops sooner, from round \(RunDefaults.floorRounds) on, once its ratios are within ±\(Int(RunDefaults.precision * 100))%, a document run after \(RunDefaults.documentRounds) rounds at most; bench sweep \(RunDefaults.Sweep.rounds))."
    )
    var rounds: Int?

    @Option(
        help:
            "Timed iterations per worker process (default: bench run \(RunDefaults.iterations.parse) in parse cells and \(RunDefaults.iterations.download) in download cells, \(RunDefaults.iterations.practice) in a run with practices; bench sweep \(RunDefaults.Sweep.iterations))."
    )
    var iterations: Int?

    @Option(
        help:
            "Untimed warm-up iterations per worker process before them; the first also measures the parse's own memory (default: bench run \(RunDefaults.warmup) in parse cells and \(RunDefaults.downloadWarmup) in download and practice cells; bench sweep \(RunDefaults.Sweep.warmup))."
    )
    var warmup: Int?

    @Option(
        help:
            "Seconds one iteration may take: a parse, or a download's longest stall. A worker is killed after this times its iterations, and its cell marked failed (default: \(Int(RunDefaults.timeoutSeconds)) for bench run, \(Int(RunDefaults.Sweep.timeoutSeconds)) for bench sweep)."
    )
    var timeout: Double?

    @Option(
        name: .customLong("chunk-size"),
        help: "Bytes pushed per parser call; 0 pushes the whole feed at once (default: \(RunDefaults.chunkSize)).")
    var chunkSize: Int?

    func validate() throws {
        if let rounds, rounds < 1 { throw ValidationError("--rounds must be at least 1") }
        if let iterations, iterations < 1 { throw ValidationError("--iterations must be at least 1") }
        if let warmup, warmup < 0 { throw ValidationError("--warmup must be 0 or more") }
        if let chunkSize, chunkSize < 0 { throw ValidationError("--chunk-size must be 0 (whole feed) or more") }
        if let timeout { try TimeLimitArgument.check(timeout, option: "--timeout") }
    }
}

/// `--output-dir`, `--no-store`, `--quiet`: where a measuring command's results go.
struct OutputOptions: ParsableArguments {
    @Option(
        name: .customLong("output-dir"),
        help: "Where the run's CSV, JSON and HTML files go (and generated feeds, under feeds/).")
    var outputDirectory: String = "Results"

    @Flag(name: .customLong("no-store"), help: "Do not record the runs in the stats store.")
    var noStore = false

    @Flag(help: "No progress line and no closing summary of files (the report itself is still printed).")
    var quiet = false
}

/// `bench compare --format`: the formats a comparison is written in (its `--help` lists these only):
/// table, Markdown, JSON, CSV (a row a cell, then a row a function of each explanation) and HTML (a
/// page of its own), then the formats other tools read that hold a ratio (not JMH's).
struct CompareFormat: RawRepresentable, Hashable, CaseIterable, ExpressibleByArgument {
    /// The same format among every command's.
    var report: ReportFormat

    static let table = CompareFormat(report: .table)

    static var allCases: [CompareFormat] {
        ([.table, .markdown, .json, .csv, .html] + ExportFormat.allCases.filter { $0 != .jmh }.map(ReportFormat.export))
            .map(CompareFormat.init(report:))
    }

    init(report: ReportFormat) { self.report = report }

    init?(rawValue: String) {
        guard let format = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = format
    }

    var rawValue: String { report.rawValue }
}

/// `bench history --format`: the formats a change-point report is written in.
enum HistoryFormat: String, ExpressibleByArgument, CaseIterable {
    case table, markdown, json
}

/// `--format`: what a command prints: the suite's own formats, then every format other tools
/// read (``ExportFormat``, whose cases are the list).
///
/// `bench run` and `bench report` write every format;
/// `bench compare` table, Markdown and JSON.
enum ReportFormat: RawRepresentable, Hashable, CaseIterable, ExpressibleByArgument {
    /// Aligned tables for a terminal.
    case table
    /// The summary CSV (one row per cell), as written to <run-id>-summary.csv.
    case csv
    /// The whole run (environment, summaries, samples), as written to <run-id>.json.
    case json
    /// Markdown tables, ready to paste into a pull request.
    case markdown
    /// A self-contained HTML page with charts, as written to <run-id>.html.
    case html
    /// A format other tools read (JMH, github-action-benchmark, Bencher, InfluxDB).
    case export(ExportFormat)

    static var allCases: [ReportFormat] {
        [.table, .csv, .json, .markdown, .html] + ExportFormat.allCases.map(ReportFormat.export)
    }

    init?(rawValue: String) {
        guard let format = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = format
    }

    var rawValue: String {
        switch self {
        case .table: "table"
        case .csv: "csv"
        case .json: "json"
        case .markdown: "markdown"
        case .html: "html"
        case .export(let format): format.rawValue
        }
    }

    /// The format other tools read, for those formats.
    var export: ExportFormat? {
        guard case .export(let format) = self else { return nil }
        return format
    }
}

/// `--since` (`bench report`, `bench store push` and `pull`): an ISO 8601 date, or a date and a UTC
/// time, compared with the runs' start times (`2026-11-22T10:00:00Z`) as text, which orders them in
/// time only for these forms.
enum SinceOption {
    /// - Throws: `ValidationError` for anything else ("yesterday", "1", a time with an offset).
    static func validate(_ since: String?) throws {
        guard let since else { return }
        let date = #"\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])"#
        let time = #"T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?Z?"#
        guard since.range(of: "^\(date)(\(time))?$", options: .regularExpression) != nil else {
            throw ValidationError(
                "--since takes an ISO 8601 date or UTC time, like 2026-11-22 or 2026-11-22T10:00:00Z, not '\(since)'")
        }
    }
}
