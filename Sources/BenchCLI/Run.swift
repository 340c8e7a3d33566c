import BenchWorker
import ArgumentParser
import BenchEngine
import BenchReports
import BenchResults
#if FeedServer
    internal import FeedServing
#endif
import FeedTransport
import Foundation
import StatsStore

/// `bench run`: measure every parser, record the run, report it.
extension Run {
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

    func run() throws {
        // Ctrl-C or SIGTERM: the workers stop, the cells that finished are written and the run
        // says what the store keeps (``finishInterrupted``); a second Ctrl-C stops at once.
        WorkerProcess.finishOnInterrupt(
            notice: "Interrupted: stopping the workers; writing what finished (Ctrl-C again stops at once)…")
        try memory.apply()
        var request = try self.request()
        // A build without the embedded server (the trait `FeedServer` left out): a default run
        // leaves out the scenarios that need it; one named is refused, naming the trait.
        let terminal = Terminal(quiet: output.quiet)
        if Self.feedHost == nil {
            let asked = request.scenarios
            request = try request.leavingOutServedScenarios(named: !scenarios.isEmpty)
            let left = asked.filter { !request.scenarios.contains($0) }.map(\.rawValue)
            if !left.isEmpty, !output.quiet {
                printError(
                    Format.wrap(
                        "Note: this build leaves out the suite's trait `\(SuiteTrait.feedServer.rawValue)` (the embedded "
                            + "feed server): the \(left.joined(separator: ", ")) scenario\(left.count == 1 ? " is" : "s are") "
                            + "not run. `\(BenchTool.commandName) run --scenario \(left[0])` says how to have it.",
                        width: terminal.width))
            }
        }
        let debugWarning = terminal.warning(
            Format.wrap(
                "WARNING: this is a debug build: its timings are not representative and its samples are stored as "
                    + "debug. Measure with: swift run -c release bench", width: terminal.width))
        if EnvironmentProbe.isDebugBuild { printError(debugWarning) }
        if request.slowdownPercent > 0 {
            printError(
                terminal.warning(
                    "WARNING: --inject-slowdown \(request.slowdownPercent): every parse does \(request.slowdownPercent)% extra work (a gate test, not a measurement)."
                ))
        }
        // A `bench` copied without its worker: said before anything is measured or written.
        if let missing = WorkerProcess.workerUnavailable() { throw CommandFailure(description: missing) }
        let environment = EnvironmentProbe.newRun()
        var instructionCounter: InstructionCounter?
        do {
            instructionCounter =
                request.countsInstructions
                ? try InstructionCounter.prepare(executable: WorkerProcess.workerExecutable()) : nil
            instructionCounter?.keepsProfiles = !noProfiles
        } catch {
            throw CommandFailure(description: "\(error)")
        }
        defer { instructionCounter?.remove() }
        let files = RunFiles(directory: output.outputDirectory)
        try files.checkWritable()
        let plan = try request.plan(
            outputDirectory: output.outputDirectory, executable: WorkerProcess.workerExecutable(),
            instructionCounter: instructionCounter, feedHost: Self.feedHost, warn: printError)
        // A `bench` copied without the interposer beside it: the run goes on, and says (first and
        // last) that it counts no allocations, why and how to have them.
        let countsWarning = plan.allocationCountsUnavailable.map {
            terminal.warning(
                Format.wrap(
                    "WARNING: no allocation counts in this run: \($0). (--no-allocation-counts: a run without "
                        + "them, unwarned.)", width: terminal.width))
        }
        if let countsWarning { printError(countsWarning) }
        let session = BenchSession(plan: plan)
        // The engine's steps (`BenchSession.measure`): the check first (an input no parser can read
        // stops the run there, with nothing measured, written or stored: the store is opened after
        // it), the run, its assessment, the page's history.
        let measured: BenchSession.Measured
        do {
            measured = try session.measure(
                environment: environment, openStore: { try output.noStore ? nil : storeOptions.open() },
                historyRuns: HTMLReport.runHistoryWindow,
                checking: { terminal.progress("checking that the parsers agree…") },
                progress: {
                    terminal.progress(Self.progressLine($0, settings: request.settings, stopping: request.stopping))
                }, iterationProgress: terminal.progressEnabled)
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
        terminal.clearProgress()
        let outcome = measured.outcome
        let result = outcome.result
        // A counted cell without its profile still has its counts: said, not an error.
        for problem in outcome.profileProblems { printError(Format.wrap("WARNING: \(problem)", width: terminal.width)) }
        let html = HTMLReport.run(result, history: measured.history, historyWindow: HTMLReport.runHistoryWindow)
        // The files, then the table whatever became of them: a full disk loses no figure on the
        // terminal (and RunFiles leaves no `latest` copy that names an earlier run).
        var written: [String] = []
        var writeFailure: (any Error)?
        do {
            written = try files.write(result, html: html, profiles: outcome.profiles)
        } catch {
            writeFailure = error
        }
        try show(result, html: html, terminal: terminal)
        // Where the run is recorded, as the user named it (`nil`: --no-store).
        let store = measured.store == nil ? nil : storeOptions.store
        let kept = BenchSession.Outcome.Kept(
            store: store, written: written,
            writeFailure: writeFailure.map { "\($0)" })
        if let signal = outcome.interruption {
            // Each line within the terminal's width; the command to remove the run on a line of its own, whole.
            let (lines, removal) = outcome.interrupted(kept, command: BenchTool.commandName)
            let width = Terminal(quiet: true).width
            (lines.map { $0.hasPrefix("  ") ? $0 : Format.wrap($0, width: width) } + removal).forEach(printError)
            if EnvironmentProbe.isDebugBuild { printError(debugWarning) }
            throw ExitCode(BenchExitCode.signal(signal))
        }
        if writeFailure != nil { throw CommandFailure(description: outcome.writeFailed(kept)) }
        if !output.quiet {
            outcome.wrote(kept).forEach(format == .table ? { print($0) } : printError)
        }
        #if SharedStore
            if let shared = measured.store as? PostgresStatsStore, shared.reconnections > 0,
                outcome.recorderFailure == nil
            {
                printError(
                    "The connection to \(storeOptions.store) was lost \(shared.reconnections) time(s) during the run and "
                        + "made again; every sample is recorded.")
            }
        #endif
        if let countsWarning { printError(countsWarning) }
        if EnvironmentProbe.isDebugBuild { printError(debugWarning) }
        try fail(outcome, store: store, runFile: files.path(of: "\(environment.runID).json"))
    }

    /// What starts the embedded feed server (FeedServing), or `nil` in a build without it (the
    /// suite's trait `FeedServer`).
    static var feedHost: FeedHostStarter? {
        #if FeedServer
            return FeedServer.starter
        #else
            return nil
        #endif
    }

    /// The terminal's progress line for a worker.
    private static func progressLine(_ step: RunProgress, settings: RunSettings, stopping: Bool) -> String {
        var line =
            "cell \(step.cellIndex) of \(step.cellCount): \(step.parser) on \(Format.feedName(step.feed))"
            + (step.round == 0
                ? ", counting allocations" : ", round \(step.round) of \(stopping ? "at most " : "")\(settings.rounds)")
        if step.iteration > 0 {
            let warmup = settings.warmup
            line +=
                step.iteration <= warmup
                ? ", warm-up \(step.iteration) of \(warmup)" : ", parse \(step.iteration - warmup)"
        }
        return line
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
                printError(
                    Format.wrap("No figure (left out of \(format.rawValue)): \(absence)", width: terminal.width)
                )
            }
        }
        if let noise = result.noise, noise.noisy, format != .table {
            // The table says it at its top; other formats go to files or pipes: say it here too.
            for warning in noise.warnings {
                printError(terminal.warning(Format.wrap("NOISY MACHINE: " + warning, width: terminal.width)))
            }
        }
    }

    /// Fails the command when the store (at `store`, `nil` for a run not recorded) failed or a
    /// parser did not succeed (the figures are kept).
    private func fail(_ outcome: BenchSession.Outcome, store: String?, runFile: String) throws {
        if let failure = outcome.recorderFailure, let store {
            throw CommandFailure(
                description: StoreOptions.recorderFailure(
                    failure, runID: outcome.result.environment.runID, store: store, runFiles: [runFile]))
        }
        if !outcome.problems.isEmpty {
            let kept = store == nil ? "written" : "written and recorded"
            // One problem a paragraph, broken at the terminal's width, its continuations indented.
            let width = Terminal(quiet: true).width
            // What the notes under the table said already is not said again (the table format only).
            let noted =
                format == .table
                ? RunReport.notedUnderTables(outcome.result.cells, reference: outcome.result.settings.reference)
                : []
            throw CommandFailure(
                description: "the run's figures are \(kept), but not every parser succeeded:\n"
                    + RunProblem.lines(outcome.problems, noted: noted).map {
                        "  " + Format.wrap("    " + $0, width: width).dropFirst(4)
                    }.joined(separator: "\n"))
        }
    }
}
