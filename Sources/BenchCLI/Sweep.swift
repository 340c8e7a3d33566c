import ArgumentParser
import BenchEngine
import BenchReports
import BenchResults
import BenchWorker
import FeedParsers
import Foundation
import SongFeed
import StatsStore

/// `bench sweep`: how cost grows with the feed's (or a shaped document's) size, and with the chunk size.
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
            Instructions are counted under callgrind at the sizes up to --instructions-up-to (a second run; \
            valgrind is slow: about 25 s for 3,000 songs). With --shape NAME the sweep is of the document workload \
            instead: documents of that shape (bench generate --shape) of --bytes bytes each, every parser walking \
            them into the shared event sink, with the sink's own cost as a baseline; the chunk-size sweep uses the \
            shape at --chunk-bytes. A parser that fails at a size (Foundation's \
            XMLParser(data:) refuses a document over 10,000,000 bytes) is reported there, not left out. Writes \
            <run-id>-sweep.csv (one row per parser and size or chunk size), <run-id>-slopes.csv, <run-id>-sweep.json \
            and <run-id>-sweep.html (log–log charts, each with its table) under --output-dir, besides the run's own files.
            """
    )

    @OptionGroup var parserOptions: ParserOptions

    @Option(
        parsing: .singleValue,
        help: "Songs of each feed of the scale sweep, comma-separated (default: 300,3000,30000). Empty to skip it.")
    var songs: [String] = []

    @Option(
        help: ArgumentHelp(
            "Sweep documents of this shape (the document workload) instead of song feeds.",
            discussion: DocumentShape.allCases.map { "\($0.rawValue): \($0.summary)" }.joined(separator: "; ")))
    var shape: DocumentShape?

    @Option(
        parsing: .singleValue,
        help:
            "With --shape: the bytes of each document of the scale sweep, about, comma-separated (default: 100000,1000000,10000000). Empty to skip it."
    )
    var bytes: [String] = []

    @Option(
        name: .customLong("chunk-bytes"),
        help:
            "With --shape: the bytes of the chunk-size sweep's document, about (default: \(RunDefaults.Sweep.chunkBytes))."
    )
    var chunkBytesOption: Int?

    @Option(
        name: .customLong("chunk-sizes"), parsing: .singleValue,
        help:
            "Chunk sizes of the chunk-size sweep in bytes, comma-separated; 0 is the whole feed (default: 64,512,4096,16384,65536,0). 'none' to skip it."
    )
    var chunkSizes: [String] = []

    @Option(
        name: .customLong("chunk-songs"),
        help: "Songs of the chunk-size sweep's feed (default: \(RunDefaults.Sweep.chunkSongs)).")
    var chunkSongsOption: Int?

    /// The chunk-size sweep's document, in bytes (with --shape).
    var chunkBytes: Int { chunkBytesOption ?? RunDefaults.Sweep.chunkBytes }

    /// The chunk-size sweep's feed, in songs.
    var chunkSongs: Int { chunkSongsOption ?? RunDefaults.Sweep.chunkSongs }

    @Option(
        name: .customLong("instructions-up-to"),
        help:
            "Count instructions (callgrind) at the sizes up to this one (songs; with --shape, bytes); 0 for none (default: 3000 songs, 1000000 bytes)."
    )
    var instructionsUpToOption: Int?

    @OptionGroup var measuring: MeasuringOptions

    @OptionGroup var memory: WorkerMemoryOptions

    @OptionGroup var output: OutputOptions

    @OptionGroup var storeOptions: StoreOptions

    /// Counts parses that lost the CPU in the figures (`bench run --count-preempted`): for the
    /// tool's own tests on a busy machine; never for measuring.
    @Flag(name: .customLong("count-preempted"), help: .hidden)
    var countPreempted = false

    // The measuring options, with bench sweep's defaults; --chunk-size is the scale sweep's.
    var rounds: Int { measuring.rounds ?? RunDefaults.Sweep.rounds }
    var iterations: Int { measuring.iterations ?? RunDefaults.Sweep.iterations }
    var warmup: Int { measuring.warmup ?? RunDefaults.Sweep.warmup }
    var chunkSize: Int { measuring.chunkSize ?? RunDefaults.Sweep.chunkSize }
    var timeout: Double { measuring.timeout ?? RunDefaults.Sweep.timeoutSeconds }

    /// The scale sweep's sizes: songs per feed, or with --shape bytes per document.
    var sizes: [Int] {
        get throws {
            let (option, given, defaults, what, most) =
                shape == nil
                ? ("--songs", songs, RunDefaults.Sweep.songs, "song count", FeedGenerator.maxSongs)
                : ("--bytes", bytes, RunDefaults.Sweep.bytes, "size", DocumentShape.maxBytes)
            if given.isEmpty { return defaults }
            return ListArgument.once(
                try ListArgument.split(given).map { text in
                    guard let value = Int(text), (1...most).contains(value) else {
                        throw ValidationError("\(option): '\(text)' is not a \(what) from 1 to \(most)")
                    }
                    return value
                })
        }
    }

    var instructionsUpTo: Int { instructionsUpToOption ?? (shape == nil ? 3_000 : 1_000_000) }

    var chunkSizeList: [Int] {
        get throws {
            let values = ListArgument.split(chunkSizes)
            if chunkSizes.isEmpty { return RunDefaults.Sweep.chunkSizes }
            if values == ["none"] { return [] }
            return ListArgument.once(
                try values.map { text in
                    guard let value = Int(text), value >= 0 else {
                        throw ValidationError("--chunk-sizes: '\(text)' is not a size of 0 or more")
                    }
                    return value
                })
        }
    }

    func validate() throws {
        try storeOptions.check(against: output)
        if shape != nil, !songs.isEmpty {
            throw ValidationError("--songs sizes song feeds; a --shape sweep's documents are sized by --bytes")
        }
        if shape == nil, !bytes.isEmpty {
            throw ValidationError("--bytes sizes the documents of a --shape sweep; song feeds are sized by --songs")
        }
        if let shape {
            do throws(RunRequest.Problem) {
                try RunRequest.requireDocumentParsers(
                    parserOptions.names(default: ParserRegistry.classicNames), walking: "a \(shape.rawValue) document")
            } catch {
                throw ValidationError(error.description)
            }
        }
        // What sizes the other kind of sweep, or a chunk-size sweep that is skipped, is refused, not ignored.
        if shape == nil, chunkBytesOption != nil {
            throw ValidationError(
                "--chunk-bytes sizes the document of a --shape sweep; a feed is sized by --chunk-songs")
        }
        if shape != nil, chunkSongsOption != nil {
            throw ValidationError("--chunk-songs sizes a feed; a --shape sweep's document is sized by --chunk-bytes")
        }
        let chunkOption = [(chunkBytesOption, "--chunk-bytes"), (chunkSongsOption, "--chunk-songs")]
            .first { $0.0 != nil }?.1
        if let chunkOption, try chunkSizeList.isEmpty {
            throw ValidationError("\(chunkOption) sizes the chunk-size sweep, which --chunk-sizes none skips")
        }
        guard (1...DocumentShape.maxBytes).contains(chunkBytes) else {
            throw ValidationError("--chunk-bytes must be from 1 to \(DocumentShape.maxBytes) (256 MiB)")
        }
        let sizes = try self.sizes
        let chunks = try chunkSizeList
        guard !sizes.isEmpty || !chunks.isEmpty else {
            throw ValidationError("nothing to sweep: give \(shape == nil ? "--songs" : "--bytes") or --chunk-sizes")
        }
        guard (1...FeedGenerator.maxSongs).contains(chunkSongs) else {
            throw ValidationError("--chunk-songs must be from 1 to \(FeedGenerator.maxSongs)")
        }
        guard chunkSize >= 1 else { throw ValidationError("--chunk-size must be at least 1") }
        guard instructionsUpTo >= 0 else { throw ValidationError("--instructions-up-to must be 0 or more") }
    }

    func run() throws {
        WorkerProcess.killWorkerOnInterrupt()
        try memory.apply()
        let terminal = Terminal(quiet: output.quiet)
        if EnvironmentProbe.isDebugBuild {
            printError(
                terminal.warning(
                    Format.wrap(
                        "WARNING: this is a debug build: its figures are not representative. Sweep with: swift run -c "
                            + "release bench sweep", width: terminal.width)))
        }
        let sweep = try session(terminal)
        let database = try output.noStore ? nil : storeOptions.open()
        let outcome = try sweep.run(
            recorder: database, history: database, environment: EnvironmentProbe.newRun,
            checking: { label, feeds in
                terminal.progress("\(label): checking that the parsers agree on \(feeds) feed(s)…")
            },
            progress: { label, step in
                let round = step.round == 0 ? "allocation count" : "round \(step.round) of \(rounds)"
                terminal.progress(
                    "\(label): cell \(step.cellIndex) of \(step.cellCount): \(step.parser) on \(Format.feedName(step.feed)), \(round)"
                )
            })
        terminal.clearProgress()
        if let unavailable = outcome.allocationCountsUnavailable {
            printError(
                terminal.warning(
                    Format.wrap("WARNING: no allocation counts in this sweep: \(unavailable)", width: terminal.width)))
        }
        if let unavailable = outcome.countsUnavailable {
            printError(terminal.warning("WARNING: no instruction counts in this sweep: \(unavailable)"))
        }
        let runFiles = RunFiles(directory: output.outputDirectory)
        let written = try write(outcome, to: runFiles)
        let width = terminal.width
        print(Format.wrap(SweepReport.header(outcome.result), width: width))
        print(SweepReport.table(outcome.result, width: width))
        if let database, let (failed, failure) = outcome.recorderFailure {
            // The run that failed, and the counted one after it when the timing run's store failed.
            let unrecorded = [outcome.timed, outcome.counted].compactMap { $0 }.drop {
                $0.result.environment.runID != failed.result.environment.runID
            }
            throw CommandFailure(
                description: StoreOptions.recorderFailure(
                    failure, runID: failed.result.environment.runID, store: database.location,
                    runFiles: unrecorded.map { runFiles.path(of: "\($0.result.environment.runID).json") }))
        }
        if !output.quiet {
            print(
                Format.wrap(
                    "Sweep \(outcome.result.environment.runID): wrote " + written.joined(separator: ", "), width: width)
            )
            print(
                database == nil ? "Not recorded in a stats store (--no-store)." : "Recorded in \(storeOptions.store).")
        }
        if !outcome.problems.isEmpty {
            throw CommandFailure(
                description: "the sweep's figures are written, but not every parser succeeded:\n  "
                    + outcome.problems.map(\.description).joined(separator: "\n  "))
        }
    }

    /// The sweep to make: the documents generated (or found), the plan, the parsers and the settings.
    private func session(_ terminal: Terminal) throws -> SweepSession {
        let sizes = Array(Set(try self.sizes)).sorted()
        let chunks = try chunkSizeList
        terminal.progress(shape == nil ? "generating the feeds…" : "generating the documents…")
        func generated(_ size: Int) throws -> String {
            if let shape {
                return try GeneratedFeed.path(shape: shape, bytes: size, outputDirectory: output.outputDirectory)
            }
            return try GeneratedFeed.path(songs: size, outputDirectory: output.outputDirectory)
        }
        var scaleFeeds: [Int: String] = [:]
        for size in sizes { scaleFeeds[size] = try generated(size) }
        let chunkDocumentSize = shape == nil ? chunkSongs : chunkBytes
        var session = SweepSession(
            plan: SweepPlan(
                shape: shape?.rawValue, sizes: sizes, chunkSize: chunkSize, chunkSizes: chunks,
                chunkDocumentSize: chunkDocumentSize, instructionsUpTo: instructionsUpTo),
            parsers: parserOptions.names(default: ParserRegistry.classicNames), scaleFeeds: scaleFeeds,
            chunkFeed: chunks.isEmpty ? nil : try generated(chunkDocumentSize),
            iterations: iterations, warmup: warmup, rounds: rounds, timeoutSeconds: timeout,
            executable: WorkerProcess.workerExecutable(), debugBuild: EnvironmentProbe.isDebugBuild)
        session.countsPreempted = countPreempted
        return session
    }

    /// Writes both runs' files and the sweep's own (points, slopes, JSON, page).
    private func write(_ outcome: SweepSession.Outcome, to runFiles: RunFiles) throws -> [String] {
        var written = try runFiles.write(outcome.timed.result, html: HTMLReport.run(outcome.timed.result, history: []))
        if let counted = outcome.counted {
            written += try runFiles.write(counted.result, html: HTMLReport.run(counted.result, history: []))
        }
        let result = outcome.result
        let runID = result.environment.runID
        written += try [
            ("\(runID)-sweep.csv", SweepReport.pointsCSV(result)),
            ("\(runID)-slopes.csv", SweepReport.slopesCSV(result)),
            ("\(runID)-sweep.json", try SweepReport.json(result)), ("\(runID)-sweep.html", SweepReport.html(result)),
        ].map { try runFiles.write($0.1, to: $0.0) }
        return written
    }
}
