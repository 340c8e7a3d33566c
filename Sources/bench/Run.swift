import ArgumentParser
import BenchEngine
import BenchReports
import BenchResults
import FeedParsers
import FeedTransport
import Foundation
import SongFeed
import StatsStore

/// `bench run`: measure every parser, record the run, report it.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure the parsers on a feed: check they agree, time each in its own worker, store and report.",
        discussion: """
            For each feed: every parser must first build the same songs (one that does not is reported as \
            wrong and not timed). Then each parser, and the `null` baseline that parses nothing, runs in its \
            own worker process: --warmup untimed parses, then --iterations timed ones, each with a fresh \
            parser fed --chunk-size bytes at a time. The run goes into the stats store and into CSV and \
            JSON files under --output-dir. Exit status: 0 when every parser agreed and every iteration \
            succeeded, 1 otherwise (the figures are still written).
            """
    )

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
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
    }

    @Option(
        name: .customLong("parsers"), parsing: .upToNextOption,
        help: "Parsers to measure (default: all). Known: \(ParserRegistry.names.joined(separator: ", ")). The null baseline always runs.")
    var parsers: [String] = []

    @Option(name: .customLong("feed"), help: "A feed to measure (repeatable; default: Data/top300.rss.xml).")
    var feeds: [String] = []

    @Option(help: "Also measure a generated feed of this many songs (cached under <output-dir>/feeds/).")
    var songs: Int?

    @Option(help: "Timed iterations per cell and round.")
    var iterations: Int = 20

    @Option(help: "Untimed warm-up iterations before them.")
    var warmup: Int = 3

    @Option(name: .customLong("chunk-size"), help: "Bytes pushed per parser call; 0 pushes the whole feed at once.")
    var chunkSize: Int = 16_384

    @Option(help: "Repeat the whole set of cells this many times, rotating their order each round.")
    var rounds: Int = 1

    @Option(help: "What to print: \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: OutputFormat = .table

    @Option(name: .customLong("output-dir"), help: "Where the run's CSV and JSON files go.")
    var outputDirectory: String = "Results"

    @Option(help: "The stats store (SQLite).")
    var store: String = "Results/stats.sqlite"

    @Flag(name: .customLong("no-store"), help: "Do not record the run in the stats store.")
    var noStore = false

    @Flag(help: "No progress line and no closing summary of files (the report itself is still printed).")
    var quiet = false

    @Option(help: "Seconds one iteration may take: a parse, or a download's longest stall. A worker is killed after this times its iterations, and its cell marked failed.")
    var timeout: Double = 30

    @Option(
        name: .customLong("scenario"),
        help: "What to measure (repeatable): parse (bytes in memory), download (over HTTP, parsing as bytes arrive), conditional (a 200 then a 304). Default: parse and download.")
    var scenarios: [ScenarioOption] = []

    @Option(help: "The embedded server's network profile: \(NetworkOption.allCases.map(\.rawValue).joined(separator: ", ")).")
    var network: NetworkOption = .wifi

    @Option(name: .customLong("bandwidth-kbps"), help: "Bandwidth of --network custom, kbit/s.")
    var bandwidthKbps: Int?

    @Option(name: .customLong("rtt-ms"), help: "Round-trip time of --network custom, ms.")
    var rttMs: Int?

    @Option(help: "Download this URL (a real remote feed) instead of the embedded server's feeds.")
    var url: String?

    @Option(
        help: """
            What to measure in parse cells: time (wall and CPU time, first song, peak memory) or instructions \
            (callgrind's count of each parse, repeatable exactly: needs valgrind, binutils and libfaketime; \
            parse scenario only).
            """)
    var counter: CounterOption = .time

    /// Adds this percentage of extra parse work to every timed parse (to validate the regression
    /// gate: see scripts/validate-gate.sh). Recorded in the run's files; never on by default.
    @Option(name: .customLong("inject-slowdown"), help: .hidden)
    var injectSlowdown: Int = 0

    enum CounterOption: String, ExpressibleByArgument, CaseIterable {
        case time, instructions
    }

    enum ScenarioOption: String, ExpressibleByArgument, CaseIterable {
        /// The feed's bytes in memory, pushed in --chunk-size chunks.
        case parse
        /// Fetched over HTTP; push parsers consume each chunk as it arrives.
        case download
        /// A download, then a conditional request that gets 304 and reuses the songs.
        case conditional
    }

    enum NetworkOption: String, ExpressibleByArgument, CaseIterable {
        case loopback, wifi, lte, threeG = "3g", edge, custom
    }

    var selectedScenarios: [Scenario] {
        let chosen = scenarios.isEmpty ? (counter == .instructions ? [.parse] : [.parse, .download]) : scenarios
        return Scenario.allCases.filter { scenario in chosen.contains { $0.rawValue == scenario.rawValue } }
    }

    var profile: NetworkProfile? {
        NetworkProfile(name: network.rawValue, bandwidthKbps: bandwidthKbps, rttMs: rttMs)
    }

    func validate() throws {
        if network == .custom {
            guard let bandwidthKbps, bandwidthKbps > 0, let rttMs, rttMs >= 0 else {
                throw ValidationError("--network custom needs --bandwidth-kbps (above 0) and --rtt-ms (0 or more)")
            }
        } else if bandwidthKbps != nil || rttMs != nil {
            throw ValidationError("--bandwidth-kbps and --rtt-ms go with --network custom")
        }
        if let url {
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? "") else {
                throw ValidationError("--url must be an http or https URL, not '\(url)'")
            }
        }
        for name in parsers where ParserRegistry.parser(named: name) == nil || name == ParserRegistry.baseline.name {
            throw ValidationError("unknown parser '\(name)'; known parsers: \(ParserRegistry.names.joined(separator: ", "))")
        }
        guard iterations >= 1 else { throw ValidationError("--iterations must be at least 1") }
        guard warmup >= 0 else { throw ValidationError("--warmup must be 0 or more") }
        guard chunkSize >= 0 else { throw ValidationError("--chunk-size must be 0 (whole feed) or more") }
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1") }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
        if counter == .instructions, selectedScenarios != [.parse] {
            throw ValidationError("--counter instructions counts the parse scenario only (a download under valgrind measures valgrind)")
        }
        guard (0...1000).contains(injectSlowdown) else { throw ValidationError("--inject-slowdown must be 0 to 1000 (percent)") }
        if let songs, songs < 1 { throw ValidationError("--songs must be at least 1") }
    }

    func run() throws {
        WorkerProcess.killWorkerOnInterrupt()
        let terminal = Terminal(quiet: quiet)
        let debugWarning = terminal.warning(
            "WARNING: this is a debug build: its timings are not representative and its samples are stored as debug. "
                + "Measure with: swift run -c release bench")
        if EnvironmentProbe.isDebugBuild { printError(debugWarning) }

        let paths = try feedPaths()
        let started = Date()
        let environment = EnvironmentProbe.environment(
            runID: EnvironmentProbe.newRunID(at: started), startedAt: EnvironmentProbe.iso8601(started),
            commandLine: CommandLine.arguments.joined(separator: " "))
        let settings = RunSettings(
            iterations: iterations, warmup: warmup, rounds: rounds, chunkSize: chunkSize, timeoutSeconds: timeout,
            counter: counter == .instructions ? RunSettings.instructionCounter : nil,
            slowdownPercent: injectSlowdown > 0 ? injectSlowdown : nil)
        if injectSlowdown > 0 {
            printError(terminal.warning(
                "WARNING: --inject-slowdown \(injectSlowdown): every parse does \(injectSlowdown)% extra work (a gate test, not a measurement)."))
        }
        let instructionCounter: InstructionCounter?
        do {
            instructionCounter = counter == .instructions ? try InstructionCounter.prepare(executable: WorkerProcess.currentExecutable()) : nil
        } catch {
            throw CommandFailure(description: "\(error)")
        }
        defer { instructionCounter?.remove() }
        var feedPaths = paths
        var remoteURLs: [String: URL] = [:]
        if let url, let remote = URL(string: url) {
            let path = try fetchRemoteFeed(remote)
            feedPaths = [path]
            remoteURLs[path] = remote
        }
        let runner = BenchRunner(plan: RunPlan(
            parsers: parsers.isEmpty ? ParserRegistry.names : parsers, feeds: feedPaths, settings: settings,
            executable: WorkerProcess.currentExecutable(), debugBuild: EnvironmentProbe.isDebugBuild,
            scenarios: selectedScenarios, network: profile ?? .wifi, remoteURLs: remoteURLs,
            instructionCounter: instructionCounter))

        let database = try noStore ? nil : StatsDatabase(path: store)
        try database?.beginRun(environment)

        // 1. Agreement.
        terminal.progress("checking that the parsers agree…")
        let checks = try runner.checkAgreement()
        terminal.clearProgress()
        var problems: [String] = []
        var notTimed: [CellSummary] = []
        for check in checks {
            for verdict in check.verification.verdicts where verdict.status != .agrees {
                let reason = "not timed: \(VerifyReport.describe(verdict.status))"
                problems.append("\(verdict.parser) on \(check.feed.path): \(reason)")
                notTimed.append(CellSummary(
                    cell: CellKey(
                        parser: verdict.parser, scenario: RunReport.notTimed, feedPath: check.feed.path, feedSHA256: check.feed.sha256,
                        feedBytes: check.feed.bytes.count, chunkSize: chunkSize),
                    songs: 0, wall: nil, cpuMedianNs: nil, firstSongMedianNs: nil, peakResidentBytes: nil,
                    peakOverBaselineBytes: nil, failed: 0, outcome: reason))
            }
        }

        // 2. Measurement: one worker per cell and round; each cell is stored as soon as it ends.
        let cells = runner.cells(for: checks)
        var references: [String: String] = [:]
        for check in checks { references[check.feed.path] = check.verification.referenceDigest }
        let perCell = warmup + iterations
        let runs = try runner.measure(
            cells, referenceDigests: references, iterationProgress: terminal.progressEnabled,
            progress: { step in
                let phase = step.iteration < warmup ? "warm-up \(step.iteration + 1) of \(warmup)"
                    : "iteration \(min(step.iteration - warmup + 1, iterations)) of \(iterations)"
                terminal.progress(
                    "cell \(step.cellIndex) of \(step.cellCount): \(step.parser) on \(Format.feedName(step.feed))"
                        + (rounds > 1 ? ", round \(step.round) of \(rounds)" : "") + ", "
                        + (step.iteration >= perCell ? "done" : phase))
            },
            cellFinished: { run in try database?.record(run.samples, runID: environment.runID) })
        terminal.clearProgress()

        let timed = BenchRunner.summarise(runs, cells: cells)
        for summary in timed where summary.failed > 0 {
            problems.append("\(summary.cell.parser) on \(summary.cell.feedPath): \(summary.failed) failed iteration(s)"
                + (summary.outcome.map { ": \($0)" } ?? ""))
        }
        let summaries = timed + notTimed

        // 3. Files, the store's closing mark, the report.
        var finished = environment
        finished.endedAt = EnvironmentProbe.iso8601(Date())
        finished.complete = true
        let result = RunResult(environment: finished, settings: settings, cells: summaries, samples: runs.flatMap(\.samples))
        try database?.finishRun(environment.runID, endedAt: finished.endedAt ?? "")
        // The HTML report shows this run with the history of the store (debug builds left out).
        let history = (try? database?.samples(matching: SampleFilter())) ?? []
        let html = HTMLReport.run(result, history: history)
        let written = try writeFiles(result, html: html)

        switch format {
        case .table:
            print(header(finished))
            print(RunReport.table(summaries))
        case .csv: print(RunReport.summaryCSV(summaries), terminator: "")
        case .json: print(try RunReport.json(result), terminator: "")
        case .markdown: print(RunReport.markdown(summaries, environment: finished))
        case .html: print(html, terminator: "")
        }
        if !quiet {
            let lines = ["Run \(environment.runID): wrote " + written.joined(separator: ", ")]
                + (database == nil ? ["Not recorded in a stats store (--no-store)."] : ["Recorded in \(store)."])
            if format == .table { lines.forEach { print($0) } } else { lines.forEach(printError) }
        }
        if EnvironmentProbe.isDebugBuild { printError(debugWarning) }
        if !problems.isEmpty {
            let kept = database == nil ? "written" : "written and recorded"
            throw CommandFailure(description: "the run's figures are \(kept), but not every parser succeeded:\n  " + problems.joined(separator: "\n  "))
        }
    }

    private func header(_ environment: RunEnvironment) -> String {
        """
        \(environment.buildConfiguration) build · \(environment.swiftVersion) · libxml2 \(environment.libxml2Version) · \
        expat \(environment.expatVersion)
        \(environment.cpuModel), \(environment.cores) cores · \(environment.os)
        \(iterations) iterations after \(warmup) warm-up, \(rounds) round\(rounds == 1 ? "" : "s"), one worker process per cell\
        \(counter == .instructions ? "; instructions counted by callgrind (no times)" : "")\
        \(injectSlowdown > 0 ? "; INJECTED SLOWDOWN \(injectSlowdown)%" : "")\
        \(selectedScenarios.contains { $0 != .parse } ? (url != nil ? "; downloads from \(url ?? "")" : "; network \(profile?.description ?? "")") : "")

        """
    }

    /// The feeds to measure: --feed paths, a generated --songs feed, or Data/top300.rss.xml.
    private func feedPaths() throws -> [String] {
        var paths: [String] = []
        for path in feeds {
            guard FileManager.default.fileExists(atPath: path) else { throw CommandFailure(description: "feed not found: \(path)") }
            paths.append(path)
        }
        if let songs {
            let directory = (outputDirectory as NSString).appendingPathComponent("feeds")
            let path = (directory as NSString).appendingPathComponent("songs-\(songs)-seed-\(FeedGenerator.defaultSeed).rss.xml")
            if !FileManager.default.fileExists(atPath: path) {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                let feed = FeedGenerator(songs: songs).generate()
                guard FileManager.default.createFile(atPath: path, contents: Data(feed.bytes)) else {
                    throw CommandFailure(description: "cannot write the generated feed \(path)")
                }
            }
            paths.append(path)
        }
        if paths.isEmpty {
            let path = "Data/top300.rss.xml"
            guard FileManager.default.fileExists(atPath: path) else {
                throw CommandFailure(description: "feed not found: \(path) (run from the package directory, or pass --feed PATH)")
            }
            paths.append(path)
        }
        return paths
    }

    /// Downloads a remote feed once into <output-dir>/feeds/, for the agreement check and its identity.
    private func fetchRemoteFeed(_ url: URL) throws -> String {
        let directory = (outputDirectory as NSString).appendingPathComponent("feeds")
        let name = "remote-" + String(url.absoluteString.map { $0.isLetter || $0.isNumber || $0 == "." ? $0 : "-" }.prefix(120))
        let path = (directory as NSString).appendingPathComponent(name.hasSuffix(".xml") ? name : name + ".xml")
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let body = try FeedDownloader(timeout: timeout).fetch(url, parser: nil, keepBody: true).body
            guard FileManager.default.createFile(atPath: path, contents: Data(body)) else {
                throw CommandFailure(description: "cannot write \(path)")
            }
        } catch let error as DownloadError {
            throw CommandFailure(description: "cannot download \(url.absoluteString): \(error)")
        }
        return path
    }

    /// Writes the run's files and the `latest` copies; returns their paths.
    private func writeFiles(_ result: RunResult, html: String) throws -> [String] {
        let fileManager = FileManager.default
        do {
            try fileManager.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure(description: "cannot create the output directory \(outputDirectory): \(error.localizedDescription)")
        }
        let runID = result.environment.runID
        let files = [
            ("\(runID)-summary.csv", RunReport.summaryCSV(result.cells)),
            ("\(runID)-samples.csv", RunReport.samplesCSV(result.samples, runID: runID)),
            ("\(runID).json", try RunReport.json(result)),
            ("\(runID).html", html),
        ]
        var written: [String] = []
        for (name, text) in files {
            let path = (outputDirectory as NSString).appendingPathComponent(name)
            try write(text, to: path)
            written.append(path)
        }
        try write(files[0].1, to: (outputDirectory as NSString).appendingPathComponent("latest-summary.csv"))
        try write(files[2].1, to: (outputDirectory as NSString).appendingPathComponent("latest.json"))
        try write(html, to: (outputDirectory as NSString).appendingPathComponent("latest.html"))
        return written
    }

    private func write(_ text: String, to path: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CommandFailure(description: "cannot write \(path): \(error.localizedDescription)")
        }
    }
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
