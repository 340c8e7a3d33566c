import ArgumentParser
import BenchEngine
import BenchReports
import BenchResults
import FeedParsers
import Foundation
import StatsStore

/// `bench sweep`: how cost grows with the feed's size, and with the chunk size.
struct Sweep: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Measure how each parser's time, memory and allocations grow with the feed, and how its time moves with the chunk size.",
        discussion: """
            A sweep is a plan of ordinary `bench run` cells: the same workers, statistics and store. The scale \
            sweep generates feeds of --songs songs (deterministic, cached under <output-dir>/feeds/), checks that \
            the parsers agree on each, and measures every parser at every size (parse time, throughput, the parse's \
            own peak memory, allocations); it fits each parser's cost per byte (time and instructions) and its \
            memory per byte and per song, with R² and the exponent on log–log axes. The chunk-size sweep times the \
            parse of the --chunk-songs feed pushed --chunk-sizes bytes at a time (0: the whole feed in one call). \
            Instructions are counted under callgrind at the sizes up to --instructions-up-to songs (a second run; \
            valgrind is slow: about 25 s for 3,000 songs). A parser that fails at a size (Foundation's \
            XMLParser(data:) refuses a document over 10,000,000 bytes) is reported there, not left out. Writes \
            <run-id>-sweep.csv (one row per parser and size or chunk size), <run-id>-slopes.csv, <run-id>-sweep.json \
            and <run-id>-sweep.html (log–log charts, each with its table) under --output-dir, besides the run's own files.
            """
    )

    @OptionGroup var parserOptions: ParserOptions

    @Option(
        parsing: .upToNextOption,
        help: "Songs of each feed of the scale sweep, comma-separated (default: 300,3000,30000). Empty to skip it.")
    var songs: [String] = []

    @Option(
        name: .customLong("chunk-sizes"), parsing: .upToNextOption,
        help:
            "Chunk sizes of the chunk-size sweep in bytes, comma-separated; 0 is the whole feed (default: 64,512,4096,16384,65536,0). 'none' to skip it."
    )
    var chunkSizes: [String] = []

    @Option(name: .customLong("chunk-songs"), help: "Songs of the chunk-size sweep's feed.")
    var chunkSongs: Int = 300

    @Option(
        name: .customLong("instructions-up-to"),
        help: "Count instructions (callgrind) at the sizes up to this many songs; 0 for none.")
    var instructionsUpTo: Int = 3_000

    @OptionGroup var measuring: MeasuringOptions

    @OptionGroup var output: OutputOptions

    @OptionGroup var storeOptions: StoreOptions

    // The measuring and output options, with bench sweep's defaults; --chunk-size is the scale sweep's.
    var rounds: Int { measuring.rounds ?? 5 }
    var iterations: Int { measuring.iterations ?? 3 }
    var warmup: Int { measuring.warmup ?? 1 }
    var chunkSize: Int { measuring.chunkSize ?? 16_384 }
    var timeout: Double { measuring.timeout ?? 120 }
    var outputDirectory: String { output.outputDirectory }
    var noStore: Bool { output.noStore }
    var quiet: Bool { output.quiet }

    static let defaultSongs = [300, 3_000, 30_000]
    static let defaultChunkSizes = [64, 512, 4_096, 16_384, 65_536, 0]

    var songCounts: [Int] {
        get throws {
            let values = ListArgument.split(songs)
            if songs.isEmpty { return Self.defaultSongs }
            return try values.map { text in
                guard let value = Int(text), value >= 1 else {
                    throw ValidationError("--songs: '\(text)' is not a song count of 1 or more")
                }
                return value
            }
        }
    }

    var chunkSizeList: [Int] {
        get throws {
            let values = ListArgument.split(chunkSizes)
            if chunkSizes.isEmpty { return Self.defaultChunkSizes }
            if values == ["none"] { return [] }
            return try values.map { text in
                guard let value = Int(text), value >= 0 else {
                    throw ValidationError("--chunk-sizes: '\(text)' is not a size of 0 or more")
                }
                return value
            }
        }
    }

    func validate() throws {
        let sizes = try songCounts
        let chunks = try chunkSizeList
        guard !sizes.isEmpty || !chunks.isEmpty else {
            throw ValidationError("nothing to sweep: give --songs or --chunk-sizes")
        }
        guard chunkSongs >= 1 else { throw ValidationError("--chunk-songs must be at least 1") }
        guard chunkSize >= 1 else { throw ValidationError("--chunk-size must be at least 1") }
        guard instructionsUpTo >= 0 else { throw ValidationError("--instructions-up-to must be 0 or more") }
    }

    func run() throws {
        WorkerProcess.killWorkerOnInterrupt()
        let terminal = Terminal(quiet: quiet)
        if EnvironmentProbe.isDebugBuild {
            printError(
                terminal.warning(
                    "WARNING: this is a debug build: its figures are not representative. Sweep with: swift run -c release bench sweep"
                ))
        }
        let sizes = Array(Set(try songCounts)).sorted()
        let chunks = try chunkSizeList
        let plan = SweepPlan(
            songs: sizes, chunkSize: chunkSize, chunkSizes: chunks, chunkSongs: chunkSongs,
            instructionsUpToSongs: instructionsUpTo)

        terminal.progress("generating the feeds…")
        var scaleFeeds: [Int: String] = [:]
        var songsOfFeed: [String: Int] = [:]
        for count in sizes {
            let path = try GeneratedFeed.path(songs: count, outputDirectory: outputDirectory)
            scaleFeeds[count] = path
            songsOfFeed[path] = count
        }
        let chunkFeed =
            chunks.isEmpty ? nil : try GeneratedFeed.path(songs: chunkSongs, outputDirectory: outputDirectory)
        if let chunkFeed { songsOfFeed[chunkFeed] = chunkSongs }
        var feeds = sizes.compactMap { scaleFeeds[$0] }
        var chunkSizesByFeed: [String: [Int]] = [:]
        for feed in feeds { chunkSizesByFeed[feed] = [chunkSize] }
        if let chunkFeed {
            if !feeds.contains(chunkFeed) { feeds.insert(chunkFeed, at: 0) }
            var both = chunks
            if chunkSizesByFeed[chunkFeed] != nil && !both.contains(chunkSize) { both.append(chunkSize) }
            chunkSizesByFeed[chunkFeed] = both
        }
        let parsers = parserOptions.names(default: ParserRegistry.classicNames)
        let database = try noStore ? nil : storeOptions.open()

        var settings = RunSettings(
            iterations: iterations, warmup: warmup, rounds: rounds, chunkSize: chunkSize, timeoutSeconds: timeout,
            retryPreempted: true)
        settings.countsAllocations = true
        var timingPlan = RunPlan(
            parsers: parsers, feeds: feeds, settings: settings, executable: WorkerProcess.currentExecutable(),
            debugBuild: EnvironmentProbe.isDebugBuild, scenarios: [.parse])
        timingPlan.chunkSizesByFeed = chunkSizesByFeed
        let timed = try session(timingPlan, label: "timing", terminal: terminal, database: database)

        var counted: BenchSession.Outcome?
        let countedFeeds = feeds.filter { (songsOfFeed[$0] ?? Int.max) <= instructionsUpTo }
        if instructionsUpTo > 0 && !countedFeeds.isEmpty {
            do {
                let counter = try InstructionCounter.prepare(executable: WorkerProcess.currentExecutable())
                defer { counter.remove() }
                // One counted parse per cell, after one warm-up: a first parse's count moves from
                // run to run (Foundation's by 0.5%: the heap it starts from differs); the second's
                // repeats exactly.
                let countSettings = RunSettings(
                    iterations: 1, warmup: 1, rounds: 1, chunkSize: chunkSize, timeoutSeconds: timeout * 50,
                    counter: RunSettings.instructionCounter)
                var countingPlan = RunPlan(
                    parsers: parsers, feeds: countedFeeds, settings: countSettings,
                    executable: WorkerProcess.currentExecutable(),
                    debugBuild: EnvironmentProbe.isDebugBuild, scenarios: [.parse], instructionCounter: counter)
                countingPlan.chunkSizesByFeed = chunkSizesByFeed.filter { countedFeeds.contains($0.key) }
                countingPlan.includesBaseline = false
                // A store that failed during the timing session is not asked again.
                counted = try session(
                    countingPlan, label: "instructions", terminal: terminal,
                    database: timed.recorderFailure == nil ? database : nil)
            } catch let unavailable as InstructionCounter.Unavailable {
                printError(terminal.warning("WARNING: no instruction counts in this sweep: \(unavailable)"))
            }
        }
        terminal.clearProgress()

        let result = SweepResult.analyse(
            plan: plan, timed: timed.result, counted: counted?.result, scaleFeeds: scaleFeeds, chunkFeed: chunkFeed,
            parsers: parsers + [ParserRegistry.baseline.name])
        let runFiles = RunFiles(directory: outputDirectory)
        var written = try runFiles.write(timed.result, html: HTMLReport.run(timed.result, history: []))
        if let counted {
            written += try runFiles.write(counted.result, html: HTMLReport.run(counted.result, history: []))
        }
        let runID = result.environment.runID
        written += try [
            ("\(runID)-sweep.csv", SweepReport.pointsCSV(result)),
            ("\(runID)-slopes.csv", SweepReport.slopesCSV(result)),
            ("\(runID)-sweep.json", try SweepReport.json(result)), ("\(runID)-sweep.html", SweepReport.html(result)),
        ].map { try runFiles.write($0.1, to: $0.0) }
        print(SweepReport.header(result))
        print(SweepReport.table(result))
        if let database, let failed = [timed, counted].compactMap({ $0 }).first(where: { $0.recorderFailure != nil }),
            let failure = failed.recorderFailure
        {
            // The run that failed, and the counted one after it when the timing run's store failed.
            let unrecorded = [timed, counted].compactMap { $0 }.drop {
                $0.result.environment.runID != failed.result.environment.runID
            }
            throw CommandFailure(
                description: StoreOptions.recorderFailure(
                    failure, runID: failed.result.environment.runID, store: database,
                    runFiles: unrecorded.map { runFiles.path(of: "\($0.result.environment.runID).json") }))
        }
        if !quiet {
            print("Sweep \(runID): wrote " + written.joined(separator: ", "))
            if database == nil {
                print("Not recorded in a stats store (--no-store).")
            } else if timed.recorderFailure == nil && counted?.recorderFailure == nil {
                print("Recorded in \(storeOptions.store).")
            }
        }
        // A parser that refuses a feed (or crashes on it) has that as its outcome at that size: the
        // sweep shows it. Songs that differ, or parses that failed once timed, are errors.
        let problems = (timed.problems + (counted?.problems ?? [])).filter {
            !$0.contains("not timed: FAILED") && !$0.contains("not timed: CRASHED")
        }
        if !problems.isEmpty {
            throw CommandFailure(
                description: "the sweep's figures are written, but not every parser succeeded:\n  "
                    + problems.joined(separator: "\n  "))
        }
    }

    /// Runs one session of the sweep with a progress line.
    private func session(_ plan: RunPlan, label: String, terminal: Terminal, database: (any StatsStoring)?) throws
        -> BenchSession.Outcome
    {
        return try BenchSession(plan: plan).run(
            environment: EnvironmentProbe.newRun(), recorder: database,
            checking: {
                terminal.progress("\(label): checking that the parsers agree on \(plan.feeds.count) feed(s)…")
            },
            progress: { step in
                let round = step.round == 0 ? "allocation count" : "round \(step.round) of \(plan.settings.rounds)"
                terminal.progress(
                    "\(label): cell \(step.cellIndex) of \(step.cellCount): \(step.parser) on \(Format.feedName(step.feed)), \(round)"
                )
            })
    }
}
