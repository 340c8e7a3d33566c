import ArgumentParser
import BenchEngine
import BenchReports
import BenchResults
import FeedParsers
import Foundation
import SongFeed

/// `bench run`'s options, in its help's order; what they ask, for the engine (``request()``),
/// which checks it and applies `RunDefaults`. (The command's own `run()` is in Run.swift.)
///
/// The options are the command's own, not an option group of it: a debug build of the command-line
/// library checks every group each time it builds a command's arguments, each check building the
/// groups inside again, and a group inside a group cost each `bench run` of a debug build (every
/// test's) 0.5 s of CPU.
struct Run: ParsableCommand {
    @OptionGroup var parserOptions: ParserOptions

    @Option(
        name: .customLong("feed"), parsing: .singleValue,
        help: "Feeds to measure, comma-separated or repeated (default: Data/top300.rss.xml).")
    var feeds: [String] = []

    @Option(
        help:
            "Also measure a generated feed of this many songs, up to \(FeedGenerator.maxSongs) (cached under <output-dir>/feeds/)."
    )
    var songs: Int?

    @OptionGroup var documentOptions: DocumentOptions

    @OptionGroup var measuring: MeasuringOptions

    @OptionGroup var memory: WorkerMemoryOptions

    @OptionGroup var output: OutputOptions

    @Option(
        name: .customLong("download-rounds"),
        help:
            "Worker processes per parser in download and practice cells, spread evenly over the rounds (at most --rounds; default: \(RunDefaults.downloadRounds))."
    )
    var downloadRounds: Int?

    @Option(
        name: .customLong("downloads-at-once"),
        help: ArgumentHelp(
            "Download workers of one feed that run at once in a round, each on a shaped link of its own (1: one at a time; default: \(RunDefaults.downloadsAtOnce)).",
            discussion:
                "On links of their own, two workers at once measured what one alone does on a 2-core machine, in a little over half the time; more than a worker a core slowed their parses. A practice (--scenario paged, queue, …), an unshaped link (--network loopback) and a remote --url run one worker at a time."
        ))
    var downloadsAtOnce: Int?

    @Option(
        help:
            "The parser the others' speed is given against (default: the fastest of each table; with documents, c-libxml2 when it runs)."
    )
    var reference: String?

    @Option(
        name: .customLong("allow-unverified"), parsing: .singleValue,
        help:
            "Parsers to time even when no other parser confirms their answer (UNVERIFIED), comma-separated or repeated; the run still reports them and exits 1."
    )
    var allowUnverified: [String] = []

    @Flag(
        name: .customLong("keep-preempted"),
        help:
            "Do not measure again a parse that lost the CPU to other work (it is still flagged and left out of the figures)."
    )
    var keepPreempted = false

    /// Counts parses that lost the CPU in the figures, as if they had kept it: for the tool's own
    /// tests, which check what it does with figures on whatever machine runs them (recorded in the
    /// run's settings; never for measuring).
    @Flag(name: .customLong("count-preempted"), help: .hidden)
    var countPreempted = false

    @Flag(
        name: .customLong("no-allocation-counts"),
        help:
            "Do not run the worker per parse cell that counts each parse's allocations (malloc-family calls and bytes) with the allocation interposer loaded (libMallocInterposerSwift.so, from beside bench: without it, a run counts none and says why)."
    )
    var noAllocationCounts = false

    @Option(help: "What to print: \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: ReportFormat = .table

    @Option(
        name: .customLong("columns"), parsing: .singleValue,
        help: ArgumentHelp(
            "The parse table's columns on the terminal: default, all, or a list (comma-separated or repeated).",
            discussion: """
                Names: \(ParseColumn.allCases.map(\.rawValue).joined(separator: ", ")). The default \
                (\(ParseColumn.defaults.map(\.rawValue).joined(separator: ",")), after the parser) fits 100 columns (a narrower terminal shows fewer, and says which); \
                every figure is in the CSV, JSON, Markdown and HTML whatever is shown.
                """))
    var columns: [String] = []

    @Flag(
        help:
            "Print the whole legend of every column under the tables, instead of a short key (the HTML and Markdown always have it)."
    )
    var legend = false

    @OptionGroup var storeOptions: StoreOptions

    @Option(
        name: .customLong("scenario"), parsing: .singleValue,
        help: ArgumentHelp(
            "What to measure, comma-separated or repeated: \(ScenarioID.allValueStrings.joined(separator: ", ")). "
                + "Default: \(ScenarioID.allCases.filter(\.traits.inDefaultRun).map(\.rawValue).joined(separator: " and ")).",
            discussion: ScenarioID.allCases.map { "\($0.rawValue): \($0.summary)." }.joined(separator: "\n"),
            valueName: "scenario"),
        completion: .list(ScenarioID.allValueStrings))
    var scenarios: [String] = []

    @Option(
        name: .customLong("page-size"), parsing: .singleValue,
        help: "The paged scenario's page sizes (songs per page), comma-separated or repeated (default: 25,100,300).")
    var pageSizes: [String] = []

    @Option(
        name: .customLong("max-concurrent"), parsing: .singleValue,
        help: "The queue scenario's widths (requests at once), comma-separated or repeated (default: 1,2,4).")
    var maxConcurrent: [String] = []

    @Option(
        name: .customLong("queue-page-size"),
        help: "Songs per page in the queue scenario (default: \(RunDefaults.queuePageSize)).")
    var queuePageSize: Int?

    @Option(
        name: .customLong("threads"), parsing: .singleValue,
        help:
            "The concurrent scenario's thread counts (parses at once, up to \(RunRequest.mostThreads)), comma-separated or repeated (default: 1,2,4)."
    )
    var threadCounts: [String] = []

    @OptionGroup var networkOptions: NetworkOptions

    @Option(help: "Download this URL (a real remote feed) instead of the embedded server's feeds.")
    var url: String?

    @Option(
        help: """
            What to measure in parse cells: time (wall and CPU time, first song, peak memory) or instructions \
            (callgrind's count of each parse and its estimated cycles from callgrind's cache simulation, both \
            repeatable exactly: needs valgrind and binutils; parse scenario only).
            """)
    var counter: CounterOption = .time

    @Flag(
        name: .customLong("no-profiles"),
        help: """
            With --counter instructions: keep no profile (by default each counted cell keeps the \
            per-function costs of one counted parse, which bench compare explains a change with).
            """)
    var noProfiles = false

    @Option(
        help: ArgumentHelp(
            "Stop the rounds once every relative interval (× fastest, vs C) is this narrow: a half-width such as 2% or 0.02.",
            discussion: """
                Checked from round \(StoppingRule.minimumRounds) on, on each interval from this run's rounds (the noise between \
                runs, added from the store, does not shrink with rounds). Rounds go on to --rounds (default \(RunDefaults.stoppingMaxRounds)) \
                or --max-time (default \(Int(RunDefaults.stoppingMaxSeconds)) s), and the run says which ended them. A timed run of \
                the parse or document scenario with none of --rounds, --precision and --max-time stops at \
                \(Int(RunDefaults.precision * 100))%, after \(RunDefaults.floorRounds) to \(RunDefaults.rounds) rounds (\(RunDefaults.documentRounds) for \
                --workload document), with no time limit.
                """, valueName: "half-width"),
        transform: Precision.parse)
    var precision: Precision?

    @Option(
        name: .customLong("max-time"),
        help:
            "Seconds of measuring rounds not to pass: a round starts only when the rounds so far say it ends in time (default with --precision: \(Int(RunDefaults.stoppingMaxSeconds)); alone: rounds until the time is spent, at most --rounds, default \(RunDefaults.stoppingMaxRounds))."
    )
    var maxTime: Double?

    /// Adds this percentage of extra parse work to every timed parse (to validate the regression
    /// gate: see scripts/validate-gate.sh).
    ///
    /// Recorded in the run's files; never on by default.
    @Option(name: .customLong("inject-slowdown"), help: .hidden)
    var injectSlowdown: Int = 0

    enum CounterOption: String, ExpressibleByArgument, CaseIterable {
        case time, instructions
    }

    /// What the options ask for, for the engine (which applies `RunDefaults`); the scenario
    /// names and lists checked.
    func request() throws -> RunRequest {
        do throws(RunRequest.Problem) {
            let chosen = try RunRequest.scenarios(
                named: ListArgument.split(scenarios), workload: documentOptions.workload,
                implied: documentOptions.effectiveWorkload)
            var request = RunRequest(
                parsers: parserOptions.names(default: ParserRegistry.defaultNames),
                scenarios: RunRequest.selected(
                    named: chosen.named, workload: chosen.workload, countsInstructions: counter == .instructions),
                workload: chosen.workload)
            (request.rounds, request.warmup) = (measuring.rounds, measuring.warmup)
            (request.iterations, request.chunkSize) = (measuring.iterations, measuring.chunkSize)
            request.timeoutSeconds = measuring.timeout
            (request.precision, request.maxSeconds) = (precision?.fraction, maxTime)
            request.countsInstructions = counter == .instructions
            request.reference = reference
            if let downloadRounds { request.downloadRounds = downloadRounds }
            if let downloadsAtOnce { request.downloadsAtOnce = downloadsAtOnce }
            (request.keepPreempted, request.countPreempted) = (keepPreempted, countPreempted)
            (request.countsAllocations, request.slowdownPercent) = (!noAllocationCounts, injectSlowdown)
            (request.feeds, request.songs, request.url) = (ListArgument.split(feeds), songs, url)
            request.documents = documentOptions.documentCorpus
            request.pageSizes = try RunRequest.positiveList(ListArgument.split(pageSizes), option: "--page-size")
            request.queueWidths = try RunRequest.positiveList(
                ListArgument.split(maxConcurrent), option: "--max-concurrent")
            request.threadCounts = try RunRequest.positiveList(
                ListArgument.split(threadCounts), option: "--threads", most: RunRequest.mostThreads)
            if let queuePageSize { request.queuePageSize = queuePageSize }
            request.allowUnverified = Set(ListArgument.split(allowUnverified))
            request.network = networkOptions.profile(default: .wifi) ?? .wifi
            // The options that set some scenarios only, as given: one for none of the run's is refused.
            let given: [(Bool, ScenarioOption)] = [
                (!pageSizes.isEmpty, .pageSize), (!maxConcurrent.isEmpty, .maxConcurrent),
                (queuePageSize != nil, .queuePageSize), (!threadCounts.isEmpty, .threads),
                (downloadRounds != nil, .downloadRounds), (downloadsAtOnce != nil, .downloadsAtOnce),
                (networkOptions.network != nil, .network),
            ]
            request.optionsGiven = Set(given.filter(\.0).map(\.1))
            return request
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The measuring settings the options say.
    func settings() throws -> RunSettings { try request().settings }

    /// The scenarios the run measures.
    var selectedScenarios: [ScenarioID] { get throws { try request().scenarios } }

    func validate() throws {
        try storeOptions.check(against: output)
        // A list given with nothing in it ('') would mean the default: said, not taken for it.
        try ListArgument.requireValues(feeds, option: "--feed")
        try ListArgument.requireValues(scenarios, option: "--scenario")
        try ListArgument.requireValues(pageSizes, option: "--page-size")
        try ListArgument.requireValues(maxConcurrent, option: "--max-concurrent")
        try ListArgument.requireValues(threadCounts, option: "--threads")
        try ListArgument.requireValues(allowUnverified, option: "--allow-unverified")
        try ListArgument.requireValues(columns, option: "--columns")
        // A built-in reference this build left out (exit 1, not a usage error): which trait brings it.
        if let reference, let trait = ParserRegistry.leftOut[reference].flatMap(SuiteTrait.init(rawValue:)) {
            throw SuiteTraitMissing(trait, neededBy: "--reference \(reference)")
        }
        let request = try self.request()
        do throws(RunRequest.Problem) {
            try request.check()
        } catch {
            throw ValidationError(error.description)
        }
        _ = try tableColumns()
        if noProfiles && counter != .instructions {
            throw ValidationError("--no-profiles is for counted runs (--counter instructions), which keep profiles")
        }
        if !columns.isEmpty && format != .table {
            throw ValidationError(
                "--columns chooses the terminal table's columns; --format \(format.rawValue) prints every figure")
        }
    }

    /// The parse table's columns `--columns` asks for.
    func tableColumns() throws -> [ParseColumn] {
        let names = ListArgument.split(columns)
        guard !names.isEmpty else { return ParseColumn.defaults }
        switch ParseColumn.parse(names) {
        case .success(let chosen): return chosen
        case .failure(let unknown): throw ValidationError(unknown.description)
        }
    }
}

/// `--precision`: a relative half-width, written as a percentage (`2%`) or a fraction (`0.02`).
struct Precision: ExpressibleByArgument {
    /// The half-width as a fraction (0.02 for ±2%).
    var fraction: Double

    /// `--precision`'s value, or an error that names the values it takes.
    static func parse(_ argument: String) throws -> Precision {
        guard let precision = Precision(argument: argument) else {
            throw ValidationError(
                "--precision takes a half-width above 0% and below 100%, as a percentage (2%) or a fraction (0.02)")
        }
        return precision
    }

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces)
        let value: Double?
        if text.hasSuffix("%") {
            value = Double(text.dropLast()).map { $0 / 100 }
        } else {
            value = Double(text)
        }
        // A bare number of 1 or more is ambiguous (2 for 2%?): it is refused with the accepted forms.
        guard let value, value > 0, value < 1, value.isFinite else { return nil }
        fraction = value
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

/// `--scenario`'s values and their help come from the list of scenarios.
extension ScenarioID: ExpressibleByArgument {}
