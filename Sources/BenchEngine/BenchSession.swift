import BenchWorker
import BenchResults
import FeedParsers
import Foundation

/// One whole run of the benchmark, as `bench run` makes it, for any caller:
/// verify → measure → summarise → assess the noise → record.
///
/// 1. **Agreement**: every parser builds the songs of every feed in its own worker; one that
///    disagrees or fails is reported as wrong and not timed; the recorder keeps those cells and why
///    before anything is timed.
/// 2. **Measurement**: ``BenchRunner`` runs the plan's rounds, one worker per cell and round; each
///    worker's samples go to the recorder as soon as it ends.
/// 3. **Summaries**: per cell, the workers' medians and their interval; per parse table, each
///    parser's speed against the reference, from the workers that ran side by side.
/// 4. **Noise**: parses that lost the CPU, the machine's CPU pressure, workers that disagree:
///    a `NoiseReport` that every report shows.
/// 5. **Record**: the run is marked complete with its noise report.
///
/// ```swift
/// let session = BenchSession(plan: plan)
/// let outcome = try session.run(environment: environment, recorder: store)
/// print(outcome.result.noise?.warnings ?? [])
/// ```
package struct BenchSession: Sendable {
    package var plan: RunPlan

    package init(plan: RunPlan) {
        self.plan = plan
    }

    /// What a run produced.
    package struct Outcome: Sendable {
        /// The run: environment (complete), settings, summaries, samples, noise.
        package var result: RunResult
        /// What went wrong: parsers not timed, failed iterations.
        package var problems: [RunProblem]
        /// Why the recorder stopped recording partway (a lost connection to a shared store, a full
        /// disk): the run went on, every sample is in ``result``; the recorder kept the cells
        /// recorded before, under an incomplete run.
        ///
        /// `nil` when everything was recorded.
        package var recorderFailure: (any Error)?
        /// The signal that interrupted the run (SIGINT, SIGTERM; `WorkerProcess/finishOnInterrupt(grace:notice:)`),
        /// if one did: ``result`` holds the workers that finished, the recorder an incomplete run.
        package var interruption: Int32?
        /// Workers that ran to their end, and how many the plan had.
        package var workersFinished = 0
        package var workersPlanned = 0
        /// A counted run's profiles, one per counted cell (`KeptProfiles`); empty for other runs.
        package var profiles: [CellProfile] = []
        /// What kept a counted cell from having a profile, or its names from being demangled.
        package var profileProblems: [String] = []
    }

    /// Inputs that no parser could read (``UnusableInput``): the run stops after the check.
    package struct UnusableInputs: Error, Sendable, CustomStringConvertible {
        package var inputs: [UnusableInput]
        package var description: String { inputs.map(\.description).joined(separator: "\n") }
    }

    /// The run was interrupted (SIGINT, SIGTERM) before anything was measured or recorded.
    package struct Interrupted: Error, Sendable, CustomStringConvertible {
        package var signal: Int32
        package var description: String { "interrupted by \(signalName(signal)) during the agreement check" }
    }

    /// The agreement check alone (step 1), before anything is recorded.
    ///
    /// - Parameters:
    ///   - checking: called before the check starts.
    ///   - stopOnUnusable: throw ``UnusableInputs`` when an input is one that no parser could read
    ///     (`bench run`: nothing is then measured or recorded); a sweep records such refusals instead.
    /// - Returns: each input's check, for ``run(checks:environment:recorder:progress:iterationProgress:)``.
    /// - Throws: ``BenchRunner/MissingFeedHost`` before anything starts, for a plan that needs the
    ///   embedded server and cannot start one; ``UnusableInputs``; ``Interrupted`` when a signal came
    ///   during the check; an unreadable input's `FeedFileError`.
    package func check(checking: () -> Void = {}, stopOnUnusable: Bool = false) throws -> [BenchRunner.FeedCheck] {
        try plan.checkFeedHost()
        checking()
        let checks = try BenchRunner(plan: plan).checkAgreement()
        if let signal = WorkerProcess.interruption { throw Interrupted(signal: signal) }
        if stopOnUnusable {
            let unusable = checks.compactMap { UnusableInput($0, workload: plan.workload) }
            if !unusable.isEmpty { throw UnusableInputs(inputs: unusable) }
        }
        return checks
    }

    /// Runs the plan.
    ///
    /// - Parameters:
    ///   - environment: the run's environment (its ID names it in the recorder).
    ///   - recorder: where the run is recorded as it goes, if anywhere.
    ///   - checking: called before the agreement check starts.
    ///   - progress: called before each worker and, with `iterationProgress`, after each iteration.
    ///   - iterationProgress: ask workers to report each finished iteration (for a terminal only).
    /// - Returns: the run's outcome: its checks, cells, summaries and any failure of the recorder.
    /// - Throws: what ``check(checking:stopOnUnusable:)`` throws; what the recorder throws when the
    ///   run begins, or a failure to start the feed server. A recorder that fails later (a cell, the
    ///   end) is not asked again: the run goes on and says so in ``Outcome/recorderFailure``; the
    ///   cells recorded before stay recorded, the run incomplete there.
    package func run(
        environment: RunEnvironment, recorder: (any RunRecorder)?, checking: () -> Void = {},
        progress: (RunProgress) -> Void = { _ in }, iterationProgress: Bool = false
    ) throws -> Outcome {
        let checks = try check(checking: checking)
        return try run(
            checks: checks, environment: environment, recorder: recorder, progress: progress,
            iterationProgress: iterationProgress)
    }

    /// Runs the plan from its agreement check (``check(checking:stopOnUnusable:)``): steps 2 to 5.
    ///
    /// The recorder's run begins here, after the check. When the process is interrupted
    /// (`WorkerProcess/interruption`) the rounds stop, the workers that finished are kept, and
    /// the recorder's run stays incomplete (``Outcome/interruption``).
    package func run(
        checks: [BenchRunner.FeedCheck], environment: RunEnvironment, recorder: (any RunRecorder)?,
        progress: (RunProgress) -> Void = { _ in }, iterationProgress: Bool = false
    ) throws -> Outcome {
        var runner = BenchRunner(plan: plan)
        // Before the run is recorded: a run that cannot start its server records nothing.
        try plan.checkFeedHost()
        try recorder?.beginRun(environment, settings: plan.settings)
        var (problems, notTimed) = notTimedCells(checks)
        Self.describeParsers(&notTimed, samples: [])
        let cells = runner.cells(for: checks)
        var references: [String: String] = [:]
        for check in checks { references[check.feed.path] = check.verification.referenceDigest }
        var recorder = recorder
        var recorderFailure: (any Error)?
        let documents = plan.workload == .document ? checks.compactMap { Self.profile($0.feed) } : nil
        do {
            if let documents { try recorder?.recordDocuments(documents, runID: environment.runID) }
            // Known now, before anything is timed: a run that stops halfway still says who was not
            // timed and why, as its file does.
            if !notTimed.isEmpty { try recorder?.recordNotTimed(notTimed, runID: environment.runID) }
        } catch {
            recorderFailure = error
            recorder = nil
        }
        let load = MachineLoadProbe.start()
        runner.loadProbe = load
        let harness = WorkerHarnessProbe(executable: plan.executable)
        runner.harnessProbe = harness
        let started = ContinuousClock.now
        var stopped: StoppingOutcome?
        var planned = 0
        var lastStartedRound: Int?
        // What the run concludes so far of every cell it has measured: written with the last
        // worker of each round and at the end. Each worker's samples are written as it ends; its
        // summaries wait for the round (summarising every cell after every worker made a run's cost
        // grow with the square of its workers: 72 cells and 40 rounds spent more time there than
        // in the workers).
        func recordSummaries(_ runs: [CellRun]) -> [CellSummary] {
            let samples = runs.flatMap(\.samples)
            let measured = Set(runs.map(\.cell))
            let sofar = summarise(runs, cells: cells.filter(measured.contains), samples: samples)
            do {
                try recorder?.record(
                    [], cells: CellRecord.of(sofar + notTimed, samples: samples), runID: environment.runID)
            } catch {
                recorderFailure = error
                recorder = nil
            }
            return sofar
        }
        let runs = try runner.measure(
            cells, referenceDigests: references, iterationProgress: iterationProgress,
            progress: { step in
                planned = step.cellCount
                lastStartedRound = step.round
                progress(step)
            },
            cellFinished: { run in
                do {
                    try recorder?.record(run.samples, runID: environment.runID)
                } catch {
                    // The samples are measured and kept in the result: losing the store must not lose them.
                    recorderFailure = error
                    recorder = nil
                }
            },
            afterRound: { round, runs in
                let sofar = recordSummaries(runs)
                guard let rule = plan.settings.stopping else { return true }
                let elapsed = started.duration(to: .now)
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
                stopped = rule.decide(
                    afterRound: round, elapsedSeconds: seconds, cells: sofar, reference: plan.settings.reference)
                return stopped == nil
            })
        let machine = load.finish()
        let interruption = WorkerProcess.interruption

        let samples = runs.flatMap(\.samples)
        let timed = summarise(runs, cells: cells, samples: samples)
        // A parser asked for whose cell has no figure is a problem, whatever the reason: a run that
        // measured nothing of it must not pass.
        problems += RunProblem.withoutFigure(timed, asked: Set(plan.parsers))
        problems += timed.filter {
            $0.failed > 0 && !(plan.parsers.contains($0.cell.parser) && RunProblem.hasNoFigure($0))
        }
        .map { summary in
            RunProblem(
                parser: summary.cell.parser, feed: summary.cell.feedPath,
                kind: .failedIterations(summary.failed, outcome: summary.outcome))
        }
        // A worker that could not start measured nothing: the run is not the run asked for.
        let unstarted = runs.filter { $0.outcome?.hasPrefix(CellContext.notStartedPrefix) ?? false }
        for (cell, cellRuns) in Dictionary(grouping: unstarted, by: \.cell).sorted(by: { $0.key.parser < $1.key.parser }
        ) {
            problems.append(
                RunProblem(
                    parser: cell.parser, feed: cell.feedPath,
                    kind: .workersNotStarted(cellRuns.count, cellRuns.first?.outcome ?? "")))
        }
        let noise =
            plan.settings.counter == nil
            ? NoiseReport.assess(
                cells: timed, samples: samples, settings: plan.settings, load: machine,
                baseline: ParserRegistry.baseline.name)
            : nil

        var finished = environment
        finished.endedAt = RunEnvironment.iso8601(Date())
        finished.complete = unstarted.isEmpty && interruption == nil
        var settings = plan.settings
        if let stopped { settings.rounds = stopped.rounds }
        // A cell measured by another's worker (the 304 of `conditional`) is not a worker of its own.
        let workersFinished = runs.filter { $0.cell.engineScenario?.startsWorker($0.cell.scenario) ?? true }.count
        // An interrupted run says the rounds it began, in its settings, its header and the store.
        let interrupted = interruption.map { signal in
            RunInterruption(
                signal: signalName(signal), lastStartedRound: lastStartedRound, finishedRounds: runs.map(\.round),
                roundsAsked: plan.settings.rounds, workersFinished: workersFinished, workersPlanned: planned)
        }
        if let interrupted { settings.rounds = interrupted.rounds }
        let kept: (profiles: [CellProfile], problems: [String]) =
            plan.instructionCounter?.keepsProfiles == true ? KeptProfiles.of(runs, cells: cells) : ([], [])
        do {
            if !kept.profiles.isEmpty { try recorder?.recordProfiles(kept.profiles, runID: environment.runID) }
        } catch {
            recorderFailure = error
            recorder = nil
        }
        do {
            // A run with cells that could not run stays incomplete, as a run stopped halfway does:
            // interrupted, or with workers that could not start, it keeps the summaries of every
            // cell it measured, and its noise verdict and rounds as its report gives them.
            try recorder?.finishRun(
                environment.runID, endedAt: finished.endedAt ?? "", noise: noise,
                rounds: interrupted?.rounds ?? stopped.map(\.rounds),
                cells: CellRecord.of(timed + notTimed, samples: samples), complete: finished.complete)
        } catch {
            recorderFailure = error
        }
        var result = RunResult(
            environment: finished, settings: settings, cells: timed + notTimed, samples: samples, noise: noise,
            documents: documents)
        result.stopped = stopped
        result.interrupted = interrupted
        result.workerHarness = harness.finish()
        var outcome = Outcome(result: result, problems: problems, recorderFailure: recorderFailure)
        outcome.interruption = interruption
        outcome.workersFinished = workersFinished
        outcome.workersPlanned = planned
        outcome.profiles = kept.profiles
        outcome.profileProblems = kept.problems
        return outcome
    }

    /// A document's measured shape (in this process, before the workers start: outside every timed
    /// region); `nil` for one that expat refuses (the agreement check has said so).
    static func profile(_ feed: FeedFile) -> DocumentProfile? {
        guard let counts = try? DocumentProfiler.measure(feed.bytes) else { return nil }
        return DocumentProfile(
            document: feed.path, bytes: feed.bytes.count, elements: counts.elements, attributes: counts.attributes,
            textBytes: counts.textBytes, maximumDepth: counts.maximumDepth, namespaces: counts.namespaces,
            references: counts.references, sha256: feed.sha256)
    }

    /// The parsers the agreement check refused, as problems and as summaries that say why.
    func notTimedCells(_ checks: [BenchRunner.FeedCheck]) -> ([RunProblem], [CellSummary]) {
        var problems: [RunProblem] = []
        var notTimed: [CellSummary] = []
        for check in checks {
            for verdict in check.verification.verdicts where verdict.status.isProblem {
                if case .unverified(let detail) = verdict.status, plan.allowUnverified.contains(verdict.parser) {
                    problems.append(
                        RunProblem(parser: verdict.parser, feed: check.feed.path, kind: .timedUnverified(detail)))
                    continue
                }
                problems.append(
                    RunProblem(parser: verdict.parser, feed: check.feed.path, kind: .notTimed(verdict.status)))
                notTimed.append(
                    CellSummary.notTimed(
                        parser: verdict.parser, feedPath: check.feed.path, feedSHA256: check.feed.sha256,
                        feedBytes: check.feed.bytes.count, chunkSize: plan.settings.chunkSize,
                        why: "\(verdict.status)"))
            }
        }
        return (problems, notTimed)
    }

    /// The timed cells' summaries, ranked against the reference and with their parsers' kinds.
    func summarise(_ runs: [CellRun], cells: [CellKey], samples: [Sample]) -> [CellSummary] {
        Self.summarise(runs, cells: cells, samples: samples, reference: plan.settings.reference)
    }

    /// The timed cells' summaries, ranked against `reference` and with their parsers' kinds.
    ///
    /// The one function that makes a run's summary, for the run itself (its table, files and every format),
    /// its store (the `CellRecord`s it records, which `bench compare` reads back whole with
    /// `RunResult.readBack`) and a run read back from its samples
    /// (`RunResult.summarising(_:environment:settings:noise:documents:notTimed:)`, a writer's
    /// backfill). Each figure is over the values `Metric.counted(_:)` counts, as are the
    /// summaries kept by metric that `bench report` and `bench history` read.
    package static func summarise(_ runs: [CellRun], cells: [CellKey], samples: [Sample], reference: String?)
        -> [CellSummary]
    {
        var timed = BenchRunner.summarise(runs, cells: cells)
        RelativeSpeed.rank(
            &timed, samples: samples, reference: reference, baseline: ParserRegistry.baseline.name,
            unranked: Self.floors.union([ParserRegistry.sinkBaseline.name]))
        describeParsers(&timed, samples: samples)
        ReadPairs.divide(&timed, samples: samples)
        return timed
    }

    /// The parsers that only touch the bytes (the floor): timed, never ranked among the parsers.
    static var floors: Set<String> {
        Set(ParserRegistry.all.filter { $0.kind == .floor }.map { $0.name })
    }

    /// Fills in each cell's parser kind, its binding tax (against its C reference) and its multiple
    /// of the floor, from the registry.
    package static func describeParsers(_ cells: inout [CellSummary], samples: [Sample]) {
        var references: [String: String] = [:]
        var toFloor: [String: String] = [:]
        let floor = floors.sorted().first
        for index in cells.indices {
            let name = cells[index].cell.parser
            if let kind = ParserRegistry.kind(of: name) { cells[index].kind = kind.rawValue }
            guard let parser = ParserRegistry.parser(named: name) else { continue }
            if let reference = parser.cReference { references[name] = reference }
            if let floor, parser.kind != .floor, parser.kind != .baseline { toFloor[name] = floor }
        }
        RelativeSpeed.divide(&cells, samples: samples, by: references, into: \.bindingTax)
        RelativeSpeed.divide(&cells, samples: samples, by: toFloor, into: \.floorMultiple)
    }
}
