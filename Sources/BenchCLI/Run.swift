import ArgumentParser
import BenchEngine
import BenchReports
import BenchResults
import Foundation
import StatsStore

/// `bench run`: measure every parser, record the run, report it.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure the parsers on a feed: check they agree, time each in its own worker, store and report.",
        discussion: """
            For each feed: every parser must first build the same songs (one that does not is reported as \
            wrong and not timed). Then each parser, and the `null` baseline that parses nothing, runs in many \
            short worker processes: --rounds rounds, each running one worker of every parser side by side (the \
            order turned each round); each worker does --warmup untimed parses, then --iterations timed ones, \
            each with a fresh parser fed --chunk-size bytes at a time. A parse that loses the CPU to other work \
            is flagged and measured again. The time shown is the median of the workers' medians, with the 95% \
            interval the next run's figure should fall in; each parser's speed relative to the fastest comes \
            from the workers of the same round. When the machine is too noisy for the figures to hold, the run \
            says so and why. The run goes into the stats store and into CSV, JSON and HTML files under \
            --output-dir. Exit status: 0 when every parser agreed and has its figures; 1 when a parser asked \
            for disagreed, failed, or ended a cell with no timed figure (every parse failed or lost the CPU), \
            each named (the figures are still written); 5 when no parser could read an input (stopped after \
            the check: nothing measured or written); 130 or 143 when interrupted by SIGINT or SIGTERM (the \
            cells that finished are written, the stored run incomplete).
            """
    )

    @OptionGroup var parserOptions: ParserOptions

    @Option(
        name: .customLong("feed"), parsing: .singleValue,
        help: "Feeds to measure, comma-separated or repeated (default: Data/top300.rss.xml).")
    var feeds: [String] = []

    @Option(help: "Also measure a generated feed of this many songs (cached under <output-dir>/feeds/).")
    var songs: Int?

    @OptionGroup var documentOptions: DocumentOptions

    @OptionGroup var measuring: MeasuringOptions

    @OptionGroup var memory: WorkerMemoryOptions

    @OptionGroup var output: OutputOptions

    @Option(
        name: .customLong("download-rounds"),
        help: "Worker processes per parser in download cells, spread evenly over the rounds (at most --rounds).")
    var downloadRounds: Int = RunDefaults.downloadRounds

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
            "Do not run the worker per parse cell that counts each parse's allocations (malloc-family calls and bytes) with the allocation interposer loaded."
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

    // The measuring options, with bench run's defaults (``RunDefaults``, applied by ``RunRequest``).
    var rounds: Int { settings().rounds }
    var iterations: Int? { measuring.iterations }
    var warmup: Int { settings().warmup }
    var chunkSize: Int { settings().chunkSize }
    static var defaultIterations: (parse: Int, download: Int) { RunDefaults.iterations }
    static var defaultDownloadWarmup: Int { RunDefaults.downloadWarmup }

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

    @Option(name: .customLong("queue-page-size"), help: "Songs per page in the queue scenario.")
    var queuePageSize: Int = 25

    @Option(
        name: .customLong("threads"), parsing: .singleValue,
        help: "The concurrent scenario's thread counts (parses at once), comma-separated or repeated (default: 1,2,4).")
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

    @Option(
        help: ArgumentHelp(
            "Stop the rounds once every relative interval (× fastest, vs C) is this narrow: a half-width such as 2% or 0.02.",
            discussion: """
                Checked from round \(StoppingRule.minimumRounds) on, on each interval from this run's rounds (the noise between \
                runs, added from the store, does not shrink with rounds). Rounds go on to --rounds (default \(RunDefaults.stoppingMaxRounds)) \
                or --max-time (default \(Int(RunDefaults.stoppingMaxSeconds)) s), and the run says which ended them. The document workload \
                with none of --rounds, --precision and --max-time stops at \(Int(RunDefaults.documentPrecision * 100))%, after \
                \(RunDefaults.documentFloorRounds) to \(RunDefaults.rounds) rounds, with no time limit.
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

    /// The scenarios --scenario names (an unknown name left out: ``validate()`` refuses it).
    var namedScenarios: [ScenarioID] { ListArgument.split(scenarios).compactMap(ScenarioID.init(rawValue:)) }

    /// What the parsers build: `--scenario document` is the document workload too.
    var workload: Workload {
        namedScenarios.contains { $0.workload == .document } ? .document : documentOptions.effectiveWorkload
    }

    var selectedScenarios: [ScenarioID] {
        let named = namedScenarios
        if workload == .document { return [.parseFromMemory(.document)] }
        if named.isEmpty {
            return ScenarioID.allCases.filter {
                $0.traits.inDefaultRun && (counter != .instructions || $0.traits.countsInstructions)
            }
        }
        return ScenarioID.allCases.filter { named.contains($0) }
    }

    var profile: NetworkProfile? { networkOptions.profile(default: .wifi) }

    func validate() throws {
        for name in ListArgument.split(scenarios) where ScenarioID(rawValue: name) == nil {
            throw ValidationError(
                "unknown scenario '\(name)'; known: \(ScenarioID.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let named = namedScenarios
        if workload == .document, named.contains(where: { $0.workload != .document }) {
            throw ValidationError(
                "the document workload measures the document scenario only (a parse from memory into the event sink), not \(named.map(\.rawValue).joined(separator: ", "))"
            )
        }
        if documentOptions.workload == .songs, let document = named.first(where: { $0.workload == .document }) {
            throw ValidationError("--scenario \(document.rawValue) is the document workload, not --workload songs")
        }
        try documentOptions.validate(
            parsers: parserOptions.names(default: ParserRegistry.defaultNames), workload: workload)
        if workload == .document, url != nil || songs != nil {
            throw ValidationError("--url and --songs give feeds for the songs workload, not documents")
        }
        if let url {
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? "") else {
                throw ValidationError("--url must be an http or https URL, not '\(url)'")
            }
        }
        if let reference, ParserRegistry.parser(named: reference) == nil || reference == ParserRegistry.baseline.name {
            throw ValidationError(
                "--reference: unknown parser '\(reference)'; known parsers: \(ParserRegistry.names.joined(separator: ", "))"
            )
        }
        guard downloadRounds >= 1 else { throw ValidationError("--download-rounds must be at least 1") }
        if counter == .instructions, let uncounted = selectedScenarios.first(where: { !$0.traits.countsInstructions }) {
            throw ValidationError(
                "--counter instructions counts the parse scenario only, not \(uncounted.rawValue) (a download under "
                    + "valgrind measures valgrind)")
        }
        guard (0...1000).contains(injectSlowdown) else {
            throw ValidationError("--inject-slowdown must be 0 to 1000 (percent)")
        }
        if let songs, songs < 1 { throw ValidationError("--songs must be at least 1") }
        _ = try tableColumns()
        if let maxTime, !(maxTime > 0) { throw ValidationError("--max-time must be a positive number of seconds") }
        if request.stopping, counter == .instructions {
            throw ValidationError(
                "--precision and --max-time stop timed rounds; instruction counts are exact, so --rounds is enough")
        }
        _ = try Self.positiveList(pageSizes, option: "--page-size")
        _ = try Self.positiveList(maxConcurrent, option: "--max-concurrent")
        _ = try Self.positiveList(threadCounts, option: "--threads")
        guard queuePageSize >= 1 else { throw ValidationError("--queue-page-size must be at least 1") }
        let practices = selectedScenarios.filter(\.traits.needsEmbeddedServer)
        if url != nil, !practices.isEmpty {
            throw ValidationError(
                "--url: the practices (\(practices.map(\.rawValue).joined(separator: ", "))) are measured against the embedded server, which pages and compresses; drop --url or those scenarios"
            )
        }
    }

    /// A list of positive integers (`--page-size 25,100`), or `nil` when none were given.
    static func positiveList(_ raw: [String], option: String) throws -> [Int]? {
        let values = ListArgument.split(raw)
        guard !values.isEmpty else { return nil }
        return try values.map { text in
            guard let value = Int(text), value >= 1, value <= 100_000 else {
                throw ValidationError("\(option): '\(text)' is not a whole number from 1 to 100000")
            }
            return value
        }
    }

    func run() throws {
        // Ctrl-C or SIGTERM: the workers stop, the cells that finished are written and the run
        // says what the store keeps (``finishInterrupted``); a second Ctrl-C stops at once.
        WorkerProcess.finishOnInterrupt(
            notice: "Interrupted: stopping the workers; writing what finished (Ctrl-C again stops at once)…")
        try memory.apply()
        let terminal = Terminal(quiet: output.quiet)
        let debugWarning = terminal.warning(
            Format.wrap(
                "WARNING: this is a debug build: its timings are not representative and its samples are stored as "
                    + "debug. Measure with: swift run -c release bench", width: terminal.width))
        if EnvironmentProbe.isDebugBuild { printError(debugWarning) }
        if injectSlowdown > 0 {
            printError(
                terminal.warning(
                    "WARNING: --inject-slowdown \(injectSlowdown): every parse does \(injectSlowdown)% extra work (a gate test, not a measurement)."
                ))
        }
        let environment = EnvironmentProbe.newRun()
        let instructionCounter: InstructionCounter?
        do {
            instructionCounter =
                counter == .instructions
                ? try InstructionCounter.prepare(executable: WorkerProcess.currentExecutable()) : nil
        } catch {
            throw CommandFailure(description: "\(error)")
        }
        defer { instructionCounter?.remove() }
        let files = RunFiles(directory: output.outputDirectory)
        try files.checkWritable()
        let session = BenchSession(plan: try plan(instructionCounter: instructionCounter))
        // The check first: an input no parser can read stops the run here, with nothing measured,
        // written or stored (the store is opened after it).
        let checks: [BenchRunner.FeedCheck]
        do {
            checks = try session.check(
                checking: { terminal.progress("checking that the parsers agree…") }, stopOnUnusable: true)
        } catch let unusable as BenchSession.UnusableInputs {
            terminal.clearProgress()
            for input in unusable.inputs {
                // At the terminal's width, its continuation lines indented under it.
                printError(String(Format.wrap("  Unusable input: \(input)", width: terminal.width).dropFirst(2)))
            }
            printError(
                "Nothing measured, no file written, no run stored (`bench verify FILE` shows what each parser said).")
            throw BenchExitCode.unusableInput.exitCode
        } catch let interrupted as BenchSession.Interrupted {
            terminal.clearProgress()
            printError(
                "Interrupted by \(signalName(interrupted.signal)) during the agreement check: nothing was measured, "
                    + "written or stored.")
            throw ExitCode(BenchExitCode.signal(interrupted.signal))
        }
        let database = try output.noStore ? nil : storeOptions.open()
        let outcome = try session.run(
            checks: checks, environment: environment, recorder: database,
            progress: { terminal.progress(progressLine($0)) }, iterationProgress: terminal.progressEnabled)
        terminal.clearProgress()
        var result = outcome.result
        RunAssessment.assess(&result, history: database)
        // This run with the store's newest runs, for the parsers and scenarios it measured.
        let window = HTMLReport.runHistoryWindow
        let html = HTMLReport.run(
            result, history: RunAssessment.pageHistory(of: result, from: database, lastRuns: window),
            historyWindow: window)
        // The files, then the table whatever became of them: a full disk loses no figure on the
        // terminal (and RunFiles leaves no `latest` copy that names an earlier run).
        var written: [String] = []
        var writeFailure: (any Error)?
        do {
            written = try files.write(result, html: html)
        } catch {
            writeFailure = error
        }
        try show(result, html: html, terminal: terminal)
        if let signal = outcome.interruption {
            finishInterrupted(
                outcome, signal: signal, database: database, written: written, writeFailure: writeFailure)
            if EnvironmentProbe.isDebugBuild { printError(debugWarning) }
            throw ExitCode(BenchExitCode.signal(signal))
        }
        if let writeFailure {
            let kept =
                database == nil || outcome.recorderFailure != nil
                ? "the run was not recorded whole (\(outcome.recorderFailure.map { "the store failed: \($0)" } ?? "--no-store")): its figures are lost but for the table above"
                : "the run is recorded whole in \(storeOptions.store) as \(environment.runID) (bench report shows it)"
            let problems = outcome.problems.map { "\n  " + $0.description }.joined()
            throw CommandFailure(
                description: "\(writeFailure); \(kept)"
                    + (problems.isEmpty ? "" : "\nand not every parser succeeded:" + problems))
        }
        if !output.quiet {
            let lines =
                ["Run \(environment.runID) wrote:"] + written.map { "  " + $0 }
                + (database == nil
                    ? ["Not recorded in a stats store (--no-store)."]
                    : outcome.recorderFailure == nil ? ["Recorded in \(storeOptions.store)."] : [])
            if format == .table { lines.forEach { print($0) } } else { lines.forEach(printError) }
        }
        if let shared = database as? PostgresStatsStore, shared.reconnections > 0, outcome.recorderFailure == nil {
            printError(
                "The connection to \(storeOptions.store) was lost \(shared.reconnections) time(s) during the run and made "
                    + "again; every sample is recorded.")
        }
        if EnvironmentProbe.isDebugBuild { printError(debugWarning) }
        try fail(outcome, database: database, runFile: files.path(of: "\(environment.runID).json"))
    }

    /// Says what an interrupted run kept: the run in the store (incomplete), its files, how to
    /// measure again and how to remove it.
    private func finishInterrupted(
        _ outcome: BenchSession.Outcome, signal: Int32, database: (any StatsStoring)?, written: [String],
        writeFailure: (any Error)?
    ) {
        let runID = outcome.result.environment.runID
        var lines = [
            "Interrupted by \(signalName(signal)) after \(outcome.workersFinished) of \(outcome.workersPlanned) "
                + "workers: run \(runID) is incomplete."
        ]
        if database == nil {
            lines.append("Not recorded in a stats store (--no-store).")
        } else if let failure = outcome.recorderFailure {
            lines.append("The stats store failed during the run (\(failure)): \(storeOptions.store) holds part of it.")
        } else {
            lines.append(
                "Kept in \(storeOptions.store) as an incomplete run with the \(outcome.workersFinished) workers that "
                    + "finished (`bench report` includes them; --exclude-incomplete leaves them out).")
        }
        if let writeFailure {
            lines.append("Its files could not be written: \(writeFailure)")
        } else {
            lines.append("Its files, with the cells that finished:")
            lines += written.map { "  " + $0 }
        }
        lines.append("A run cannot be resumed: run the same command again for a whole run.")
        // Each line within the terminal's width; the command to remove the run on a line of its own, whole.
        let width = Terminal(quiet: true).width
        lines = lines.map { $0.hasPrefix("  ") ? $0 : Format.wrap($0, width: width) }
        if database != nil, outcome.recorderFailure == nil {
            lines.append("To remove the incomplete run:")
            lines.append("  \(BenchTool.commandName) store remove --run \(runID) --store \(storeOptions.store)")
        }
        lines.forEach(printError)
    }

    /// What the options ask for, for the engine (which applies ``RunDefaults``).
    var request: RunRequest {
        var request = RunRequest(
            parsers: parserOptions.names(default: ParserRegistry.defaultNames), scenarios: selectedScenarios,
            workload: workload)
        (request.rounds, request.warmup) = (measuring.rounds, measuring.warmup)
        (request.iterations, request.chunkSize) = (measuring.iterations, measuring.chunkSize)
        request.timeoutSeconds = measuring.timeout
        (request.precision, request.maxSeconds) = (precision?.fraction, maxTime)
        request.countsInstructions = counter == .instructions
        (request.reference, request.downloadRounds) = (reference, downloadRounds)
        (request.keepPreempted, request.countPreempted) = (keepPreempted, countPreempted)
        (request.countsAllocations, request.slowdownPercent) = (!noAllocationCounts, injectSlowdown)
        return request
    }

    /// The measuring settings the options say.
    func settings() -> RunSettings { request.settings }

    /// The plan the options say: parsers, feeds (a --url fetched once), scenarios and their choices.
    private func plan(instructionCounter: InstructionCounter?) throws -> RunPlan {
        let request = self.request
        var feeds = FeedResolver(outputDirectory: output.outputDirectory)
        (feeds.feeds, feeds.songs, feeds.url) = (ListArgument.split(self.feeds), songs, url.flatMap(URL.init(string:)))
        feeds.documents = workload == .document ? documentOptions.documentCorpus : nil
        feeds.timeoutSeconds = request.settings.timeoutSeconds
        let (paths, remoteURLs) = try feeds.resolve(warn: printError)
        var plan = RunPlan(
            parsers: request.parsers, feeds: paths, settings: request.settings,
            executable: WorkerProcess.currentExecutable(), debugBuild: EnvironmentProbe.isDebugBuild,
            scenarios: selectedScenarios, network: profile ?? .wifi, remoteURLs: remoteURLs,
            instructionCounter: instructionCounter)
        if let sizes = try Self.positiveList(pageSizes, option: "--page-size") { plan.pageSizes = sizes }
        if let widths = try Self.positiveList(maxConcurrent, option: "--max-concurrent") { plan.queueWidths = widths }
        if let threads = try Self.positiveList(threadCounts, option: "--threads") { plan.threadCounts = threads }
        plan.queuePageSize = queuePageSize
        plan.allowUnverified = Set(ListArgument.split(allowUnverified))
        return plan
    }

    /// The terminal's progress line for a worker.
    private func progressLine(_ step: RunProgress) -> String {
        var line =
            "cell \(step.cellIndex) of \(step.cellCount): \(step.parser) on \(Format.feedName(step.feed))"
            + (step.round == 0
                ? ", counting allocations" : ", round \(step.round) of \(request.stopping ? "at most " : "")\(rounds)")
        if step.iteration > 0 {
            line +=
                step.iteration <= warmup
                ? ", warm-up \(step.iteration) of \(warmup)" : ", parse \(step.iteration - warmup)"
        }
        return line
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

    /// Prints the run in the asked format (and a noisy machine's warnings where the format has none).
    private func show(_ result: RunResult, html: String, terminal: Terminal) throws {
        switch format {
        case .table:
            let width = terminal.width
            let answer = RunReport.answer(result)
            if !answer.isEmpty { print(Format.wrap(answer.joined(separator: "\n"), width: width) + "\n") }
            print(Format.wrap(RunReport.header(result), width: width))
            print(RunReport.table(result, columns: try tableColumns(), width: width, key: !legend))
        case .csv:
            print(
                RunReport.summaryCSV(result.cells, noise: result.noise, timedSink: result.settings.timedSink),
                terminator: "")
        case .json: print(try RunReport.json(result), terminator: "")
        case .markdown: print(RunReport.markdown(result))
        case .html: print(html, terminator: "")
        case .export(let export):
            let absent = ExportPoint.absences(result)
            print(try export.write(ExportPoint.points(result), absent: absent), terminator: "")
            // No figure takes a missing one's place; say which are missing and why.
            for absence in absent {
                printError(Format.wrap("No figure (left out of \(format.rawValue)): \(absence)", width: terminal.width))
            }
        }
        if let noise = result.noise, noise.noisy, format != .table {
            // The table says it at its top; other formats go to files or pipes: say it here too.
            for warning in noise.warnings {
                printError(terminal.warning(Format.wrap("NOISY MACHINE: " + warning, width: terminal.width)))
            }
        }
    }

    /// Fails the command when the store failed or a parser did not succeed (the figures are kept).
    private func fail(_ outcome: BenchSession.Outcome, database: (any StatsStoring)?, runFile: String) throws {
        if let failure = outcome.recorderFailure, let database {
            throw CommandFailure(
                description: StoreOptions.recorderFailure(
                    failure, runID: outcome.result.environment.runID, store: database, runFiles: [runFile]))
        }
        if !outcome.problems.isEmpty {
            let kept = database == nil ? "written" : "written and recorded"
            // One problem a paragraph, broken at the terminal's width, its continuations indented.
            let width = Terminal(quiet: true).width
            throw CommandFailure(
                description: "the run's figures are \(kept), but not every parser succeeded:\n"
                    + outcome.problems.map { "  " + Format.wrap("    " + $0.description, width: width).dropFirst(4) }
                    .joined(separator: "\n"))
        }
    }
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
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
