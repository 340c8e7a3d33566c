import BenchWorker
import BenchResults
import Foundation

/// `parse`: the feed's bytes in memory, consumed by a fresh parser in chunks.
///
/// The worker is a `MeasureWorker`. One cell per chunk size, no network.
///
/// Its cells are also the ones counted: under callgrind (`--counter instructions`) the same worker
/// counts instructions instead of timing, and after the rounds one worker per cell counts
/// allocations (round 0).
///
/// With the document workload it is the `document` scenario: the same worker and cells, each parse
/// a walk of the document into the canonical event sink (`MeasureJob/workload`). A scenario that
/// parses its own input the same way is this type too; its worker's input is a line of
/// `ScenarioID.parseInput`, in the worker. So is `cold`, whose worker times one parse, its first
/// (`ScenarioTraits.firstParseOnly`): no warm-up, the libraries' first use in the process included.
struct ParseScenario: BenchScenario {
    /// Parses counted by a cell's allocation worker (after its warm-up): two, to show that they repeat.
    static let allocationIterations = 2

    /// The scenario: its cells' name, and its workload (songs for `parse`, a document's events for `document`).
    var id: ScenarioID
    init(_ id: ScenarioID) {
        self.id = id
    }

    /// What each parse builds: songs or a document's events.
    var workload: Workload { id.workload }

    func cells(in plan: RunPlan) -> [CellScenario] { [CellScenario(id)] }

    func chunkSizes(for feed: String, in plan: RunPlan) -> [Int] { plan.chunkSizes(for: feed) }

    var fetchesFeed: Bool { false }

    /// The worker's job: round 0 counts allocations; a plan with an instruction counter counts instructions.
    func job(_ cell: CellKey, in context: CellContext) -> MeasureJob {
        let settings = context.settings
        let countingAllocations = context.round == 0
        let counting = context.plan.instructionCounter != nil
        // A cold cell's worker times its first parse alone (`cold`).
        let firstOnly = id.traits.firstParseOnly
        return MeasureJob(
            parser: cell.parser, feed: cell.feedPath,
            iterations: countingAllocations ? Self.allocationIterations : firstOnly ? 1 : settings.iterations,
            // Counted parses come after a warm-up: the first parse of a process allocates its caches.
            warmup: countingAllocations ? max(1, settings.warmup) : firstOnly ? 0 : settings.warmup,
            chunkSize: cell.chunkSize,
            slowdownPercent: max(0, settings.slowdownPercent ?? 0),
            retryPreempted: settings.retryPreempted == true && !counting && !countingAllocations && !firstOnly,
            countingOnly: counting, countAllocations: countingAllocations,
            workload: workload == .songs ? nil : workload,
            // The worker asks the scenario for its input unless it is the workload's own (parse, document).
            scenario: id == ScenarioID.parseFromMemory(workload) ? nil : id)
    }

    func measure(_ cell: CellKey, in context: CellContext) -> [CellRun] {
        let plan = context.plan
        let job = job(cell, in: context)
        var command = WorkerCommand(
            executable: plan.executable, job: .measure(job),
            environment: job.countAllocations ? AllocationCounter.countingEnvironment(executable: plan.executable) : [:]
        )
        var dumps: String?
        if let counter = plan.instructionCounter {
            let prefix = (counter.directory as NSString).appendingPathComponent(
                "callgrind-\(cell.parser)-\(context.round)")
            do {
                command = try counter.command(job, outputPrefix: prefix)
            } catch {
                return [context.failed(cell, "\(error)")]
            }
            dumps = prefix
        }
        let attempts = context.settings.retryPreempted == true ? MeasureWorker.attemptsPerIteration : 1
        let report: MeasureWorkerReport
        switch context.runWorker(
            MeasureWorkerReport.self, command,
            timeout: context.settings.workerLimit(
                iterations: job.iterations * attempts, warmup: job.warmup, requestsPerIteration: 1)
                * (plan.instructionCounter == nil ? 1 : InstructionCounter.timeLimitFactor),
            progress: context.iterations)
        {
        case .success(let decoded): report = decoded
        case .failure(let failure): return [context.failed(cell, failure.message)]
        }
        // Under callgrind, times and memory mean nothing: keep only the counts of the measured parses,
        // and the profile of their median one.
        var counts: [InstructionCounter.ParseCounts]?
        var read: InstructionCounter.Dumps?
        if let dumps, let counter = plan.instructionCounter {
            do {
                let measured = report.iterations.count
                read = try counter.dumps(outputPrefix: dumps, count: job.warmup + measured, measured: measured)
                counts = read.map { Array($0.counts.suffix(measured)) }
            } catch {
                return [context.failed(cell, "\(error)")]
            }
        }
        var cellRun = run(cell, report: report, counts: counts, countingAllocations: job.countAllocations, in: context)
        cellRun.profiles = read?.profiles ?? []
        cellRun.profileProblem = read?.profileProblem
        return [cellRun]
    }

    /// The worker's report as samples: times, or instruction counts and estimated cycles, or allocation counts.
    func run(
        _ cell: CellKey, report: MeasureWorkerReport, counts: [InstructionCounter.ParseCounts]?,
        countingAllocations: Bool,
        in context: CellContext
    ) -> CellRun {
        let peak = counts == nil && !countingAllocations ? report.peakResidentBytes : nil
        let disagreement = context.disagreement(cell, digest: report.digest)
        // A worker that counts (callgrind, the allocation interposer) keeps no times: there they mean nothing.
        let timed = counts == nil && !countingAllocations
        let samples = report.iterations.enumerated().map { offset, iteration in
            var sample = Sample(
                cell: cell, songs: iteration.songs, round: context.round, iteration: offset + 1, wallNs: nil,
                cpuNs: nil, firstSongNs: nil, peakResidentBytes: nil, error: iteration.error ?? disagreement,
                debug: context.plan.debugBuild)
            // What the worker recorded, by metric: a new figure it records reaches the sample with no code here.
            sample.figures = timed ? iteration.figures : iteration.figures.removing(where: \.isTime)
            sample.peakResidentBytes = peak
            if let counts, offset < counts.count {
                sample.instructions = counts[offset].instructions
                sample.estimatedCycles = counts[offset].estimatedCycles
            }
            if timed {
                // A test of the tool on a busy machine may count them (RunSettings.countsPreempted).
                sample.preempted = context.settings.countsPreempted == true ? false : iteration.preempted
                sample.parsePeakBytes = report.parsePeakBytes
            }
            return sample
        }
        return CellRun(
            cell: cell, round: context.round, samples: samples, peakResidentBytes: peak, outcome: disagreement)
    }
}
