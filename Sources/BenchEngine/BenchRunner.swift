import BenchWorker
import BenchResults
import FeedParsers
import FeedTransport
import Foundation

/// Runs a ``RunPlan``: checks that the parsers agree on each feed, then measures every agreeing
/// parser and the `null` baseline, one worker process per cell and round.
///
/// A parser that disagrees or fails on a feed is reported as wrong and not timed. `rounds` repeats
/// the whole set of cells, rotating their order by one each round, so that drift on a noisy machine
/// does not favour the parser that happens to run first.
package struct BenchRunner: Sendable {
    package var plan: RunPlan
    /// The run's load probe, if it has one: the windows where download workers run side by side
    /// are left out of its CPU pressure (``MachineLoadProbe/excluding(_:)``).
    package var loadProbe: MachineLoadProbe?

    /// What the harness costs a worker (``WorkerHarnessProbe``): measured at the start of each timed round.
    package var harnessProbe: WorkerHarnessProbe?

    package init(plan: RunPlan) {
        self.plan = plan
    }

    /// The outcome of the agreement check on one feed.
    package struct FeedCheck: Sendable {
        package var feed: FeedFile
        package var verification: FeedVerification
        /// The parsers that agree and will be timed.
        package var agreeing: [String]
    }

    /// Checks the parsers on every feed (one worker per parser and feed), with the chunk size that
    /// will be timed: that is the configuration whose songs must agree. (`bench verify` sweeps other
    /// chunk sizes; libxml2, for one, rejects a feed over 10,000,000 bytes pushed in one piece.)
    package func checkAgreement() throws -> [FeedCheck] {
        try plan.feeds.map { path in
            let feed = try FeedFile(path: path)
            let verification = try FeedVerifier.verify(
                feed: path, parsers: plan.parsers, chunkSizes: plan.chunkSizes(for: path), executable: plan.executable,
                timeout: plan.settings.timeoutSeconds * 2, workload: plan.workload)
            let agreeing = verification.verdicts.filter { verdict in
                if case .unverified = verdict.status { return plan.allowUnverified.contains(verdict.parser) }
                return verdict.status.mayBeTimed
            }.map(\.parser)
            return FeedCheck(feed: feed, verification: verification, agreeing: agreeing)
        }
    }

    /// The cells to time for the checked feeds: per feed, scenario and chunk size, the baseline first,
    /// then the agreeing parsers.
    ///
    /// A `download` cell's chunk size is 0: chunks are as the network
    /// delivers them.
    package func cells(for checks: [FeedCheck]) -> [CellKey] {
        // Each cell once, in the order asked (`queue,cancel` names the cancel cells twice).
        var seen: Set<CellScenario> = []
        let named = plan.scenarios.flatMap { scenario in scenario.engine.cells(in: plan).map { (scenario, $0) } }
            .filter { seen.insert($0.1).inserted }
        let baselines =
            [ParserRegistry.baseline.name] + (plan.workload == .document ? [ParserRegistry.sinkBaseline.name] : [])
        let parsers = plan.includesBaseline ? baselines : []
        return checks.flatMap { check in
            named.flatMap { scenario, name in
                let engine = scenario.engine
                return engine.chunkSizes(for: check.feed.path, in: plan).flatMap { chunkSize in
                    engine.parsers(parsers + check.agreeing).map { parser in
                        CellKey(
                            parser: parser, scenario: name, feedPath: check.feed.path, feedSHA256: check.feed.sha256,
                            feedBytes: check.feed.bytes.count, chunkSize: chunkSize,
                            network: engine.fetchesFeed ? plan.networkName(for: check.feed.path) : "")
                    }
                }
            }
        }
    }

    /// Times every cell, round after round, calling `cellFinished` after each worker (to store it).
    ///
    /// - Parameters:
    ///   - cells: from ``cells(for:)``.
    ///   - referenceDigests: the agreed songs' digest per feed path; a worker whose songs differ has
    ///     its samples marked failed.
    ///   - iterationProgress: ask workers to report each finished iteration (for a terminal only).
    ///   - progress: called before each worker starts and, when `iterationProgress` is set, after each
    ///     of its iterations.
    ///   - cellFinished: called with each worker's outcome; an error it throws stops the run.
    ///   - afterRound: called after each timed round with its number and every worker's outcome so
    ///     far; `false` ends the rounds there (a `RunSettings.stopping` rule's decision).
    /// - Returns: every worker's outcome, in the order they ran.
    /// - Throws: what `cellFinished` throws, or a failure to start the feed server (``MissingFeedHost``
    ///   when the plan has no ``RunPlan/feedHost``).
    package func measure(
        _ cells: [CellKey], referenceDigests: [String: String], iterationProgress: Bool = false,
        progress: (RunProgress) -> Void, cellFinished: (CellRun) throws -> Void,
        afterRound: (_ round: Int, _ runs: [CellRun]) -> Bool = { _, _ in true }
    ) throws -> [CellRun] {
        // A cell that does not start a worker is measured by another's (the 304 of `conditional`).
        let jobs = cells.filter { $0.engineScenario?.startsWorker($0.scenario) ?? true }
        let everyRound = jobs.filter { $0.scenario.traits?.runsEveryRound ?? false }
        let countsAllocations = plan.settings.countsAllocations == true && plan.instructionCounter == nil
        let countedCells = countsAllocations ? jobs.filter { $0.scenario.traits?.countsAllocations ?? false } : []
        var recorder = RunLog(
            total: everyRound.count * max(1, plan.settings.rounds) + countedCells.count
                + (jobs.count - everyRound.count) * plan.settings.downloadWorkers)
        let server = try startServer(for: jobs)
        defer { try? server?.stop() }
        if plan.instructionCounter != nil {
            try countInstructions(
                jobs.filter { $0.scenario.traits?.countsInstructions ?? false }, referenceDigests: referenceDigests,
                progress: progress, log: &recorder,
                cellFinished: cellFinished)
            return recorder.runs
        }
        rounds: for round in 1...max(1, plan.settings.rounds) {
            if WorkerProcess.interruption == nil { harnessProbe?.measureOne() }
            let due = Self.order(jobs, round: round).filter {
                $0.scenario.traits?.runsEveryRound == true || plan.settings.runsDownloads(inRound: round)
            }
            for group in groupsAtOnce(due) {
                // Interrupted (SIGINT, SIGTERM): the run ends with the workers that finished.
                if WorkerProcess.interruption != nil { break rounds }
                if group.count > 1 {
                    // Each on a link of its own (1, 2, …).
                    try measureAtOnce(
                        group.map { (round, $0) }, progress: progress, log: &recorder, cellFinished: cellFinished
                    ) { index, round, cell in
                        self.context(
                            cell, round: round, server: server, referenceDigests: referenceDigests, link: index + 1)
                    }
                    continue
                }
                let cell = group[0]
                guard let scenario = cell.engineScenario else { continue }
                let step = recorder.step(cell, round: round)
                progress(step)
                let context = context(cell, round: round, server: server, referenceDigests: referenceDigests)
                // The reporting closure lives in a copy of the context that ends inside the block:
                // kept in `context`, it would outlive `progress` (a crash, caught by the runtime).
                let runs = withoutActuallyEscaping(progress) { report in
                    var reporting = context
                    if iterationProgress {
                        reporting.iterations = { count in
                            var next = step
                            next.iteration = count
                            report(next)
                        }
                    }
                    return scenario.measure(cell, in: reporting)
                }
                try recorder.finish(runs, to: cellFinished)
            }
            if !afterRound(round, recorder.runs) { break }
        }
        // Allocation counts are exact: one worker per cell, with the interposer loaded, after the
        // timed rounds (its samples have no times; they are round 0).
        for cell in countedCells where WorkerProcess.interruption == nil {
            guard let scenario = cell.engineScenario else { continue }
            progress(recorder.step(cell, round: 0))
            let context = CellContext(plan: plan, round: 0, reference: referenceDigests[cell.feedPath])
            try recorder.finish(scenario.measure(cell, in: context), to: cellFinished)
        }
        return recorder.runs
    }

    /// The embedded server, when a cell of `jobs` fetches its feed from it (not from a `--url`).
    private func startServer(for jobs: [CellKey]) throws -> (any FeedHost)? {
        guard jobs.contains(where: { ($0.engineScenario?.fetchesFeed ?? false) && plan.remoteURLs[$0.feedPath] == nil })
        else { return nil }
        guard let start = plan.feedHost else { throw MissingFeedHost() }
        return try start(plan.feeds, plan.network)
    }

    /// A plan whose cells fetch their feed from the embedded server, without ``RunPlan/feedHost``: an
    /// error of the program that made the plan, not of the run's input.
    package struct MissingFeedHost: Error, CustomStringConvertible {
        package var description: String {
            "internal error: the run's scenarios fetch their feed from the embedded server, and its plan has no "
                + "feedHost to start one (RunPlan.feedHost: FeedServer.starter, module FeedServing)"
        }
    }

    /// What a worker of `cell` needs in `round`: for a scenario that fetches the feed, its URL (over
    /// link `link` of the embedded server, when given), the unshaped URL of its warm-ups, its entries.
    private func context(
        _ cell: CellKey, round: Int, server: (any FeedHost)?, referenceDigests: [String: String], link: Int? = nil
    ) -> CellContext {
        var context = CellContext(plan: plan, round: round, reference: referenceDigests[cell.feedPath])
        guard cell.engineScenario?.fetchesFeed == true else { return context }
        let name = (cell.feedPath as NSString).lastPathComponent
        if let remote = plan.remoteURLs[cell.feedPath] {
            context.url = remote
        } else {
            context.url = link.flatMap { server?.url(for: name, link: $0) } ?? server?.url(for: name)
            context.warmupURL = server?.unshapedURL(for: name)
        }
        context.entries = server?.entryCount(of: name) ?? 0
        return context
    }

    /// A round's due cells in the groups that run at once, in their order: the download workers of
    /// one table side by side, `RunSettings/downloadWorkersAtOnce` at most (more than one only on
    /// the embedded server's shaped links: ``RunPlan``); every other worker alone.
    func groupsAtOnce(_ due: [CellKey]) -> [[CellKey]] {
        let width = plan.settings.downloadWorkersAtOnce
        func besideOthers(_ cell: CellKey) -> Bool { width > 1 && (cell.scenario.traits?.workersSideBySide ?? false) }
        var groups: [[CellKey]] = []
        for cell in due {
            if besideOthers(cell), let last = groups.last, last.count < width, let first = last.first,
                besideOthers(first), first.feedPath == cell.feedPath, first.scenario == cell.scenario
            {
                groups[groups.count - 1].append(cell)
            } else {
                groups.append([cell])
            }
        }
        return groups
    }

    /// Runs the workers of `batch` at once, one progress line naming them all.
    ///
    /// Each worker runs on a thread of its own that waits for it; they are recorded in the batch's
    /// order. The run's load probe leaves the window out of its CPU pressure (the workers compete
    /// with one another).
    ///
    /// - Parameters:
    ///   - batch: the workers, by round and cell.
    ///   - progress: called once, before they start.
    ///   - log: the run's workers so far.
    ///   - cellFinished: called with each worker's outcome, in the batch's order.
    ///   - contextOf: a worker's context, from its place in the batch, its round and cell.
    /// - Throws: what `cellFinished` throws.
    private func measureAtOnce(
        _ batch: [(round: Int, cell: CellKey)], progress: (RunProgress) -> Void, log: inout RunLog,
        cellFinished: (CellRun) throws -> Void,
        contextOf: @escaping @Sendable (_ index: Int, _ round: Int, _ cell: CellKey) -> CellContext
    ) throws {
        var step = log.step(batch[0].cell, round: batch[0].round)
        step.parser = batch.map(\.cell.parser).joined(separator: ", ")
        progress(step)
        let atOnce = {
            Self.onThreads(Array(batch.enumerated())) { index, job in
                job.cell.engineScenario?.measure(job.cell, in: contextOf(index, job.round, job.cell)) ?? []
            }
        }
        let results = loadProbe.map { $0.excluding(atOnce) } ?? atOnce()
        for runs in results { try log.finish(runs, to: cellFinished) }
    }

    /// `body` over `items`, each on a thread of its own, all at once (a worker's wait blocks its
    /// thread: a pool as wide as the cores would run two at a time); the results in the items' order.
    static func onThreads<Item: Sendable, Result: Sendable>(
        _ items: [Item], _ body: @escaping @Sendable (Item) -> Result
    ) -> [Result] {
        let slots = ConcurrentSlots<Result>()
        let group = DispatchGroup()
        for (index, item) in items.enumerated() {
            group.enter()
            Thread.detachNewThread {
                let value = body(item)
                slots.lock.lock()
                slots.values[index] = value
                slots.lock.unlock()
                group.leave()
            }
        }
        group.wait()
        return items.indices.compactMap { slots.values[$0] }
    }

    /// Counts the instructions of the cells whose scenario counts them (`parse`, `document`): callgrind's workers run side by side, one per
    /// core, and are recorded in order (counts do not depend on the machine's load).
    private func countInstructions(
        _ parseCells: [CellKey], referenceDigests: [String: String], progress: (RunProgress) -> Void,
        log: inout RunLog, cellFinished: (CellRun) throws -> Void
    ) throws {
        let lanes = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
        let ordered = (1...max(1, plan.settings.rounds)).flatMap { round in
            Self.order(parseCells, round: round).map { (round: round, cell: $0) }
        }
        let plan = plan
        for start in stride(from: 0, to: ordered.count, by: lanes) where WorkerProcess.interruption == nil {
            let batch = Array(ordered[start..<min(start + lanes, ordered.count)])
            try measureAtOnce(batch, progress: progress, log: &log, cellFinished: cellFinished) { _, round, cell in
                CellContext(plan: plan, round: round, reference: referenceDigests[cell.feedPath])
            }
        }
    }

    /// The order of the cells in a round: each table's cells (one feed and scenario) stay together,
    /// so that a parser's worker and the reference's worker of a round run seconds apart at most,
    /// and within a table the order turns by one each round, so that no parser always runs first.
    package static func order(_ jobs: [CellKey], round: Int) -> [CellKey] {
        var tables: [[CellKey]] = []
        var index: [String: Int] = [:]
        for cell in jobs {
            let key = "\(cell.feedPath)|\(cell.scenario)|\(cell.chunkSize)|\(cell.network)"
            if let position = index[key] {
                tables[position].append(cell)
            } else {
                index[key] = tables.count
                tables.append([cell])
            }
        }
        return tables.flatMap { table in
            let shift = (round - 1) % table.count
            return Array(table[shift...] + table[..<shift])
        }
    }

    /// Summarises the runs of every cell (all rounds together), with peak memory above the baseline:
    /// the first step of ``BenchSession/summarise(_:cells:samples:reference:)``, the one function
    /// that makes a run's summary (which ranks and describes what this gives).
    static func summarise(_ runs: [CellRun], cells: [CellKey]) -> [CellSummary] {
        let byCell = Dictionary(grouping: runs, by: \.cell)
        func peak(_ cell: CellKey) -> Int? { byCell[cell]?.compactMap(\.peakResidentBytes).max() }
        return cells.map { cell in
            let cellRuns = byCell[cell] ?? []
            var baseline = cell
            baseline.parser = ParserRegistry.baseline.name
            let outcomes = cellRuns.compactMap(\.outcome)
            return CellSummary.summarise(
                cell, samples: cellRuns.flatMap(\.samples), peakResidentBytes: peak(cell),
                baselinePeakBytes: cell.parser == baseline.parser ? nil : peak(baseline),
                outcome: outcomes.isEmpty ? nil : Array(Set(outcomes)).sorted().joined(separator: "; "))
        }
    }
}

/// The runs of a run so far: numbers each cell's samples 1, 2, 3, … across its workers, hands
/// each worker's runs on, and counts the workers for the progress line.
private struct RunLog {
    var total: Int
    var runs: [CellRun] = []
    var done = 0
    var nextIteration: [CellKey: Int] = [:]

    /// The progress line of the next worker.
    func step(_ cell: CellKey, round: Int) -> RunProgress {
        RunProgress(
            cellIndex: done + 1, cellCount: total, parser: cell.parser, feed: cell.feedPath, round: round, iteration: 0)
    }

    /// Records one worker's runs and hands each to `cellFinished`.
    mutating func finish(_ finished: [CellRun], to cellFinished: (CellRun) throws -> Void) throws {
        for finishedRun in finished {
            // A worker the interruption killed measured nothing whole: only one that ended well counts.
            if WorkerProcess.interruption != nil,
                finishedRun.outcome != nil || finishedRun.samples.contains(where: { $0.error != nil })
            {
                continue
            }
            var run = finishedRun
            let first = nextIteration[run.cell, default: 1]
            for k in run.samples.indices { run.samples[k].iteration = first + k }
            nextIteration[run.cell] = first + run.samples.count
            try cellFinished(run)
            runs.append(run)
        }
        done += 1
    }
}

/// Results written from several threads, under a lock.
private final class ConcurrentSlots<Value: Sendable>: @unchecked Sendable {
    let lock = NSLock()
    var values: [Int: Value] = [:]
}
