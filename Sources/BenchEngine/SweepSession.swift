import BenchWorker
import BenchResults
import FeedParsers
import Foundation

/// A sweep as `bench sweep` makes it: one timing run over every feed and chunk size, then (up to
/// a size) one run counting instructions, then the fitted slopes (`SweepResult`).
///
/// The documents are files the caller made (generated, deterministic: song feeds, or documents of
/// one shape for the document workload); the sweep only measures them.
package struct SweepSession: Sendable {
    package var plan: SweepPlan
    package var parsers: [String]
    /// The scale sweep's document of each size, by size (`SweepPlan.sizes`).
    package var scaleFeeds: [Int: String]
    /// The chunk sweep's document, if there is a chunk sweep.
    package var chunkFeed: String?
    package var iterations: Int
    package var warmup: Int
    package var rounds: Int
    /// Seconds one timed parse may take (a counted parse under valgrind may take 50 times as long).
    package var timeoutSeconds: Double
    /// The `bench` executable to run as the workers.
    package var executable: String
    package var debugBuild: Bool
    /// Whether parses that lost the CPU count in the figures (`RunSettings.countsPreempted`: the
    /// tool's own tests on a busy machine).
    package var countsPreempted = false

    package init(
        plan: SweepPlan, parsers: [String], scaleFeeds: [Int: String], chunkFeed: String?, iterations: Int,
        warmup: Int, rounds: Int, timeoutSeconds: Double, executable: String, debugBuild: Bool
    ) {
        self.plan = plan
        self.parsers = parsers
        self.scaleFeeds = scaleFeeds
        self.chunkFeed = chunkFeed
        self.iterations = iterations
        self.warmup = warmup
        self.rounds = rounds
        self.timeoutSeconds = timeoutSeconds
        self.executable = executable
        self.debugBuild = debugBuild
    }

    /// What a sweep produced.
    package struct Outcome: Sendable {
        package var result: SweepResult
        /// The timing run.
        package var timed: BenchSession.Outcome
        /// The counting run, when there was one.
        package var counted: BenchSession.Outcome?
        /// Why there are no instruction counts, when they were asked for and cannot be made.
        package var countsUnavailable: String?
        /// Why the timing run counted no allocations: the interposer is not beside the executable.
        package var allocationCountsUnavailable: String?

        /// The problems that are errors of the sweep: songs that differ, parses that failed once timed
        /// (a parser that refuses a feed, or crashes on it, has that as its outcome at that size).
        package var problems: [RunProblem] {
            (timed.problems + (counted?.problems ?? [])).filter { !$0.isRefusal }
        }

        /// The first run whose recorder failed, and that failure.
        package var recorderFailure: (run: BenchSession.Outcome, error: any Error)? {
            for run in [timed] + (counted.map { [$0] } ?? []) {
                if let error = run.recorderFailure { return (run, error) }
            }
            return nil
        }
    }

    /// The feeds in the order they are measured, and each feed's chunk sizes.
    func feeds() -> (feeds: [String], chunkSizes: [String: [Int]]) {
        var feeds = plan.sizes.compactMap { scaleFeeds[$0] }
        var chunkSizesByFeed: [String: [Int]] = [:]
        for feed in feeds { chunkSizesByFeed[feed] = [plan.chunkSize] }
        if let chunkFeed {
            if !feeds.contains(chunkFeed) { feeds.insert(chunkFeed, at: 0) }
            var both = plan.chunkSizes
            if chunkSizesByFeed[chunkFeed] != nil && !both.contains(plan.chunkSize) { both.append(plan.chunkSize) }
            chunkSizesByFeed[chunkFeed] = both
        }
        return (feeds, chunkSizesByFeed)
    }

    /// Runs the sweep.
    ///
    /// - Parameters:
    ///   - recorder: where both runs are recorded, if anywhere (a recorder that fails in the timing
    ///     run is not asked again).
    ///   - history: the host's earlier runs, which each run is assessed against as `bench run`'s are
    ///     (``RunAssessment``: the host state, the run-to-run noise in the timing run's intervals);
    ///     `nil`: not read (each run says so).
    ///   - environment: makes each run's environment (its ID, start time).
    ///   - checking: called with "timing" or "instructions" before each run's agreement check.
    ///   - progress: called with the run's label before each worker.
    /// - Returns: both runs and the analysis.
    /// - Throws: what a run throws when it begins.
    package func run(
        recorder: (any RunRecorder)?, history: (any RunHistorySource)? = nil, environment: () -> RunEnvironment,
        checking: (String, Int) -> Void = { _, _ in }, progress: (String, RunProgress) -> Void = { _, _ in }
    ) throws -> Outcome {
        let (feeds, chunkSizesByFeed) = feeds()
        var settings = RunSettings(
            iterations: iterations, warmup: warmup, rounds: rounds, chunkSize: plan.chunkSize,
            timeoutSeconds: timeoutSeconds, retryPreempted: !countsPreempted)
        settings.countsAllocations = true
        if countsPreempted { settings.countsPreempted = true }
        var timingPlan = RunPlan(
            parsers: parsers, feeds: feeds, settings: settings, executable: executable, debugBuild: debugBuild,
            scenarios: [scenario])
        timingPlan.chunkSizesByFeed = chunkSizesByFeed
        timingPlan.leaveOutUnavailableAllocationCounts()
        var timed = try BenchSession(plan: timingPlan).run(
            environment: environment(), recorder: recorder, checking: { checking("timing", feeds.count) },
            progress: { progress("timing", $0) })
        RunAssessment.assess(&timed.result, history: history)
        var counted: BenchSession.Outcome?
        var unavailable: String?
        do {
            // A store that failed during the timing run is not asked again.
            counted = try count(
                feeds, chunkSizes: chunkSizesByFeed, recorder: timed.recorderFailure == nil ? recorder : nil,
                environment: environment, checking: checking, progress: progress)
        } catch let error as InstructionCounter.Unavailable {
            unavailable = "\(error)"
        }
        if var run = counted {
            RunAssessment.assess(&run.result, history: history)
            counted = run
        }
        let result = SweepResult.analyse(
            plan: plan, timed: timed.result, counted: counted?.result, scaleFeeds: scaleFeeds, chunkFeed: chunkFeed,
            parsers: parsers + [ParserRegistry.baseline.name]
                + (plan.workload == .document ? [ParserRegistry.sinkBaseline.name] : []))
        return Outcome(
            result: result, timed: timed, counted: counted, countsUnavailable: unavailable,
            allocationCountsUnavailable: timingPlan.allocationCountsUnavailable)
    }

    /// The scenario of every cell: a parse from memory, into songs or into the event sink.
    private var scenario: ScenarioID { .parseFromMemory(plan.workload) }

    /// The counting run over the documents of at most `SweepPlan.instructionsUpTo`, if any.
    private func count(
        _ feeds: [String], chunkSizes: [String: [Int]], recorder: (any RunRecorder)?,
        environment: () -> RunEnvironment, checking: (String, Int) -> Void, progress: (String, RunProgress) -> Void
    ) throws -> BenchSession.Outcome? {
        var sizeOfFeed: [String: Int] = [:]
        for (size, path) in scaleFeeds { sizeOfFeed[path] = size }
        if let chunkFeed { sizeOfFeed[chunkFeed] = plan.chunkDocumentSize }
        let countedFeeds = feeds.filter { (sizeOfFeed[$0] ?? Int.max) <= plan.instructionsUpTo }
        guard plan.instructionsUpTo > 0, !countedFeeds.isEmpty else { return nil }
        let counter = try InstructionCounter.prepare(executable: executable)
        defer { counter.remove() }
        // One counted parse per cell, after one warm-up: a first parse's count moves from run to
        // run (Foundation's by 0.5%: the heap it starts from differs); the second's repeats exactly.
        let settings = RunSettings(
            iterations: 1, warmup: 1, rounds: 1, chunkSize: plan.chunkSize, timeoutSeconds: timeoutSeconds * 50,
            counter: RunSettings.instructionCounter)
        var countingPlan = RunPlan(
            parsers: parsers, feeds: countedFeeds, settings: settings, executable: executable,
            debugBuild: debugBuild, scenarios: [scenario], instructionCounter: counter)
        countingPlan.chunkSizesByFeed = chunkSizes.filter { countedFeeds.contains($0.key) }
        countingPlan.includesBaseline = false
        return try BenchSession(plan: countingPlan).run(
            environment: environment(), recorder: recorder, checking: { checking("instructions", countedFeeds.count) },
            progress: { progress("instructions", $0) })
    }
}
