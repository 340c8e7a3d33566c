import BenchResults
import FeedParsers
import FeedTransport
import Foundation
import SongFeed
import SongStore

/// What `bench run` measures: parsers × feeds, with the measuring settings.
public struct RunPlan: Sendable {
    public var parsers: [String]
    /// Feed files; for `download` and `conditional` they are served by the embedded server.
    public var feeds: [String]
    public var settings: RunSettings
    /// The `bench` executable to run as the workers.
    public var executable: String
    /// Whether this is a debug build (its samples are marked).
    public var debugBuild: Bool
    /// What to measure.
    public var scenarios: [ScenarioID]
    /// The embedded server's network profile.
    public var network: NetworkProfile
    /// For `download` and `conditional`: fetch these URLs instead of the embedded server's, by feed
    /// path (a real remote feed, downloaded once to a local file for the agreement check).
    public var remoteURLs: [String: URL]
    /// When set, `parse` cells count instructions under callgrind instead of timing (settings.counter
    /// is then "instructions").
    public var instructionCounter: InstructionCounter?
    /// The chunk sizes of the `parse` cells of a feed (a chunk-size sweep), by feed path; a feed not
    /// named here is pushed `settings.chunkSize` bytes at a time.
    public var chunkSizesByFeed: [String: [Int]] = [:]
    /// Whether the `null` baseline gets cells (a sweep's instruction counts leave it out: under
    /// valgrind each worker costs seconds to start, and the baseline's count is not fitted).
    public var includesBaseline = true
    /// The `paged` practice's page sizes (songs per page).
    public var pageSizes: [Int] = [25, 100, 300]
    /// The `queue` practice's widths (requests at once), and its pages' size.
    public var queueWidths: [Int] = [1, 2, 4]
    public var queuePageSize = 25
    /// The `store` practice's ways of writing the songs.
    public var storePlans: [SongStore.Plan] = SongStore.Plan.all

    /// The practices a practice scenario measures, one cell each (empty for the others); `queue`
    /// includes its `cancel` cells.
    public func practices(of scenario: ScenarioID) -> [Practice] {
        switch scenario {
        case .parse, .download, .conditional: return []
        case .paged: return pageSizes.map { .paged(pageSize: $0) }
        case .fields: return [.fields(selected: false), .fields(selected: true)]
        case .gzip: return [.gzip(on: false), .gzip(on: true)]
        case .queue:
            return queueWidths.map { .queue(width: $0, pageSize: queuePageSize, cancel: false) }
                + practices(of: .cancel)
        case .cancel: return queueWidths.map { .queue(width: $0, pageSize: queuePageSize, cancel: true) }
        case .store: return storePlans.map { .store($0) }
        }
    }

    /// The scenario names of a scenario's cells.
    func cellScenarios(_ scenario: ScenarioID) -> [CellScenario] {
        switch scenario {
        case .parse: return [.parse]
        case .download: return [.download]
        case .conditional: return [.conditional200, .conditional304]
        default: return practices(of: scenario).map(\.cell)
        }
    }

    /// The chunk sizes the `parse` cells of `feed` are timed with.
    public func chunkSizes(for feed: String) -> [Int] {
        chunkSizesByFeed[feed] ?? [settings.chunkSize]
    }

    public init(
        parsers: [String], feeds: [String], settings: RunSettings, executable: String, debugBuild: Bool,
        scenarios: [ScenarioID] = [.parse], network: NetworkProfile = .loopback, remoteURLs: [String: URL] = [:],
        instructionCounter: InstructionCounter? = nil
    ) {
        self.parsers = parsers
        self.feeds = feeds
        self.settings = settings
        self.executable = executable
        self.debugBuild = debugBuild
        self.scenarios = scenarios
        self.network = network
        self.remoteURLs = remoteURLs
        self.instructionCounter = instructionCounter
    }
}

/// One worker's outcome for one cell in one round.
public struct CellRun: Sendable {
    public var cell: CellKey
    public var round: Int
    /// The measured samples; a worker that crashed or timed out leaves one failed sample.
    public var samples: [Sample]
    public var peakResidentBytes: Int?
    /// What went wrong with the worker as a whole, if anything.
    public var outcome: String?

    public init(cell: CellKey, round: Int, samples: [Sample], peakResidentBytes: Int?, outcome: String?) {
        self.cell = cell
        self.round = round
        self.samples = samples
        self.peakResidentBytes = peakResidentBytes
        self.outcome = outcome
    }
}

/// Where the runner is, for a progress line.
public struct RunProgress: Sendable {
    public var cellIndex: Int
    public var cellCount: Int
    public var parser: String
    public var feed: String
    /// The round; 0 for the allocation-counting workers that follow the rounds.
    public var round: Int
    /// Iterations finished in this cell so far, warm-up included.
    public var iteration: Int
}

/// Runs a ``RunPlan``: checks that the parsers agree on each feed, then measures every agreeing
/// parser and the `null` baseline, one worker process per cell and round.
///
/// A parser that disagrees or fails on a feed is reported as wrong and not timed. `rounds` repeats
/// the whole set of cells, rotating their order by one each round, so that drift on a noisy machine
/// does not favour the parser that happens to run first.
public struct BenchRunner: Sendable {
    public var plan: RunPlan

    public init(plan: RunPlan) {
        self.plan = plan
    }

    /// The outcome of the agreement check on one feed.
    public struct FeedCheck: Sendable {
        public var feed: FeedFile
        public var verification: FeedVerification
        /// The parsers that agree and will be timed.
        public var agreeing: [String]
    }

    /// Checks the parsers on every feed (one worker per parser and feed), with the chunk size that
    /// will be timed: that is the configuration whose songs must agree. (`bench verify` sweeps other
    /// chunk sizes; libxml2, for one, rejects a feed over 10,000,000 bytes pushed in one piece.)
    public func checkAgreement() throws -> [FeedCheck] {
        try plan.feeds.map { path in
            let feed = try FeedFile(path: path)
            let verification = try FeedVerifier.verify(
                feed: path, parsers: plan.parsers, chunkSizes: plan.chunkSizes(for: path), executable: plan.executable,
                timeout: plan.settings.timeoutSeconds * 2)
            let agreeing = verification.verdicts.filter(\.status.mayBeTimed).map(\.parser)
            return FeedCheck(feed: feed, verification: verification, agreeing: agreeing)
        }
    }

    /// The cells to time for the checked feeds: per feed, scenario and chunk size, the baseline first,
    /// then the agreeing parsers.
    ///
    /// A `download` cell's chunk size is 0: chunks are as the network
    /// delivers them.
    public func cells(for checks: [FeedCheck]) -> [CellKey] {
        // Each cell once, in the order asked (`queue,cancel` names the cancel cells twice).
        var seen: Set<CellScenario> = []
        let named = plan.scenarios.flatMap(plan.cellScenarios).filter { seen.insert($0).inserted }
        return checks.flatMap { check in
            named.flatMap { name in
                (name == .parse ? plan.chunkSizes(for: check.feed.path) : [0]).flatMap { chunkSize in
                    ((plan.includesBaseline ? [ParserRegistry.baseline.name] : []) + check.agreeing).map { parser in
                        CellKey(
                            parser: parser, scenario: name, feedPath: check.feed.path,
                            feedSHA256: check.feed.sha256,
                            feedBytes: check.feed.bytes.count, chunkSize: chunkSize,
                            network: name == .parse || name.kind == .store ? "" : networkName(for: check.feed.path))
                    }
                }
            }
        }
    }

    private func networkName(for path: String) -> String {
        plan.remoteURLs[path] == nil ? plan.network.name : "remote"
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
    /// - Returns: every worker's outcome, in the order they ran.
    /// - Throws: what `cellFinished` throws, or a failure to start the feed server.
    public func measure(
        _ cells: [CellKey], referenceDigests: [String: String], iterationProgress: Bool = false,
        progress: (RunProgress) -> Void, cellFinished: (CellRun) throws -> Void
    ) throws -> [CellRun] {
        var runs: [CellRun] = []
        let settings = plan.settings
        // One worker measures both cells of `conditional`; the 304 cell rides with the 200 one.
        let jobs = cells.filter { $0.scenario != .conditional304 }
        let parseCells = jobs.filter { $0.scenario == .parse }
        let parseJobs = parseCells.count
        let countsAllocations = settings.countsAllocations == true && plan.instructionCounter == nil
        let total =
            parseJobs * (max(1, settings.rounds) + (countsAllocations ? 1 : 0))
            + (jobs.count - parseJobs) * settings.downloadWorkers
        var done = 0
        let needsServer = jobs.contains {
            $0.scenario != .parse && plan.remoteURLs[$0.feedPath] == nil
        }
        let server = needsServer ? try FeedServer.start(feeds: plan.feeds, profile: plan.network) : nil
        defer { try? server?.stop() }
        var nextIteration: [CellKey: Int] = [:]
        // Numbers the samples of a cell 1, 2, 3, … across its workers, then hands the worker's run on.
        func finish(_ finished: CellRun) throws {
            var run = finished
            let first = nextIteration[run.cell, default: 1]
            for k in run.samples.indices { run.samples[k].iteration = first + k }
            nextIteration[run.cell] = first + run.samples.count
            try cellFinished(run)
            runs.append(run)
        }
        if plan.instructionCounter != nil {
            // Instruction counts do not depend on the machine's load: callgrind's workers run side by
            // side, one per core, and are recorded in order.
            let lanes = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
            let ordered = (1...max(1, settings.rounds)).flatMap { round in
                Self.order(parseCells, round: round).map { (round, $0) }
            }
            for start in stride(from: 0, to: ordered.count, by: lanes) {
                let batch = Array(ordered[start..<min(start + lanes, ordered.count)])
                progress(
                    RunProgress(
                        cellIndex: done + 1, cellCount: total, parser: batch.map(\.1.parser).joined(separator: ", "),
                        feed: batch[0].1.feedPath, round: batch[0].0, iteration: 0))
                let results = Self.concurrently(batch) { job in
                    measureCell(job.1, round: job.0, reference: referenceDigests[job.1.feedPath], iterations: nil)
                }
                for run in results {
                    try finish(run)
                    done += 1
                }
            }
            return runs
        }
        for round in 1...max(1, settings.rounds) {
            let downloads = settings.runsDownloads(inRound: round)
            for cell in Self.order(jobs, round: round) where downloads || cell.scenario == .parse {
                let step = RunProgress(
                    cellIndex: done + 1, cellCount: total, parser: cell.parser, feed: cell.feedPath, round: round,
                    iteration: 0)
                progress(step)
                let cellRuns: [CellRun]
                if cell.scenario == .parse {
                    cellRuns = [
                        withoutActuallyEscaping(progress) { report in
                            measureCell(
                                cell, round: round, reference: referenceDigests[cell.feedPath],
                                iterations: iterationProgress
                                    ? { count in
                                        var next = step
                                        next.iteration = count
                                        report(next)
                                    } : nil)
                        }
                    ]
                } else {
                    let name = (cell.feedPath as NSString).lastPathComponent
                    let url = plan.remoteURLs[cell.feedPath] ?? server?.url(for: name)
                    if let practice = Practice(cell: cell.scenario, queuePageSize: plan.queuePageSize) {
                        cellRuns = [
                            practiceCell(
                                cell, practice: practice, url: url, entries: server?.entryCount(of: name) ?? 0,
                                round: round,
                                reference: referenceDigests[cell.feedPath])
                        ]
                    } else {
                        cellRuns = downloadCell(
                            cell, url: url, round: round, reference: referenceDigests[cell.feedPath])
                    }
                }
                for run in cellRuns { try finish(run) }
                done += 1
            }
        }
        // Allocation counts are exact: one worker per cell, with the interposer loaded, after the
        // timed rounds (its samples have no times; they are round 0).
        if countsAllocations {
            for cell in parseCells {
                progress(
                    RunProgress(
                        cellIndex: done + 1, cellCount: total, parser: cell.parser, feed: cell.feedPath, round: 0,
                        iteration: 0))
                try finish(measureCell(cell, round: 0, reference: referenceDigests[cell.feedPath], iterations: nil))
                done += 1
            }
        }
        return runs
    }

    /// `body` over `items`, all at once on their own threads; the results in the items' order.
    static func concurrently<Item: Sendable, Result: Sendable>(
        _ items: [Item], _ body: @escaping @Sendable (Item) -> Result
    ) -> [Result] {
        let slots = ConcurrentSlots<Result>()
        DispatchQueue.concurrentPerform(iterations: items.count) { index in
            let value = body(items[index])
            slots.lock.lock()
            slots.values[index] = value
            slots.lock.unlock()
        }
        return items.indices.compactMap { slots.values[$0] }
    }

    /// The order of the cells in a round: each table's cells (one feed and scenario) stay together,
    /// so that a parser's worker and the reference's worker of a round run seconds apart at most,
    /// and within a table the order turns by one each round, so that no parser always runs first.
    public static func order(_ jobs: [CellKey], round: Int) -> [CellKey] {
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

    /// Runs a measuring worker for a `parse` cell; round 0 is the cell's allocation-counting worker.
    private func measureCell(_ cell: CellKey, round: Int, reference: String?, iterations: ((Int) -> Void)?) -> CellRun {
        let settings = plan.settings
        let countingAllocations = round == 0
        let measured = countingAllocations ? Self.allocationIterations : settings.iterations
        // Counted parses come after a warm-up: the first parse of a process allocates its caches.
        let warmup = countingAllocations ? max(1, settings.warmup) : settings.warmup
        let job = MeasureJob(
            parser: cell.parser, feed: cell.feedPath, iterations: measured, warmup: warmup, chunkSize: cell.chunkSize,
            slowdownPercent: max(0, settings.slowdownPercent ?? 0),
            retryPreempted: settings.retryPreempted == true && plan.instructionCounter == nil && !countingAllocations,
            countingOnly: plan.instructionCounter != nil, countAllocations: countingAllocations)
        func failed(_ message: String, peak: Int?) -> CellRun {
            let sample = Sample(
                cell: cell, songs: 0, round: round, iteration: 1, wallNs: nil, cpuNs: nil, firstSongNs: nil,
                peakResidentBytes: peak, error: message, debug: plan.debugBuild)
            return CellRun(cell: cell, round: round, samples: [sample], peakResidentBytes: peak, outcome: message)
        }
        var command = WorkerCommand(
            executable: plan.executable, job: .measure(job),
            environment: countingAllocations ? AllocationCounter.countingEnvironment(executable: plan.executable) : [:])
        var dumps: String?
        if let counter = plan.instructionCounter {
            let prefix = (counter.directory as NSString).appendingPathComponent("callgrind-\(cell.parser)-\(round)")
            command = counter.command(job, outputPrefix: prefix)
            dumps = prefix
        }
        let report: MeasureWorkerReport
        switch runWorker(
            MeasureWorkerReport.self, command,
            timeout: settings.workerLimit(
                iterations: measured * (settings.retryPreempted == true ? MeasureWorker.attemptsPerIteration : 1),
                requestsPerIteration: 1),
            progress: iterations)
        {
        case .success(let decoded): report = decoded
        case .failure(let failure): return failed(failure.message, peak: nil)
        }
        // Under callgrind, times and memory mean nothing: keep only the counts of the measured parses.
        var counts: [Int]?
        if let dumps {
            do {
                let measured = report.iterations.count
                counts = Array(
                    try InstructionCounter.counts(outputPrefix: dumps, count: settings.warmup + measured).suffix(
                        measured))
            } catch {
                return failed("\(error)", peak: nil)
            }
        }
        let peak = counts == nil && !countingAllocations ? report.peakResidentBytes : nil
        let disagreement = Self.disagreement(cell, digest: report.digest, reference: reference)
        let samples = report.iterations.enumerated().map { offset, iteration in
            var sample = Sample(
                cell: cell, songs: iteration.songs, round: round, iteration: offset + 1,
                wallNs: counts == nil ? iteration.wallNs : nil, cpuNs: counts == nil ? iteration.cpuNs : nil,
                firstSongNs: counts == nil ? iteration.firstSongNs : nil,
                peakResidentBytes: peak, error: iteration.error ?? disagreement, debug: plan.debugBuild)
            if let counts, offset < counts.count { sample.instructions = counts[offset] }
            if let allocations = iteration.allocations {
                // The interposer changes times and memory: keep only the counts.
                sample.wallNs = nil
                sample.cpuNs = nil
                sample.firstSongNs = nil
                sample.allocations = allocations.allocations
                sample.allocatedBytes = allocations.bytes
                sample.keptBytes = allocations.keptBytes
            } else if counts == nil {
                sample.preempted = iteration.preempted
                sample.parsePeakBytes = report.parsePeakBytes
                sample.calibrationNs = iteration.calibrationNs
            }
            return sample
        }
        return CellRun(cell: cell, round: round, samples: samples, peakResidentBytes: peak, outcome: disagreement)
    }

    /// Parses counted by a cell's allocation worker (after its warm-up): two, to show that they repeat.
    public static let allocationIterations = 2

    /// Runs a download worker for a `download` or `conditional-200` cell (the latter also yields its
    /// `conditional-304` twin).
    private func downloadCell(_ cell: CellKey, url: URL?, round: Int, reference: String?) -> [CellRun] {
        let settings = plan.settings
        let conditional = cell.scenario == .conditional200
        var revalidationCell = cell
        revalidationCell.scenario = .conditional304
        func failed(_ message: String) -> [CellRun] {
            ([cell] + (conditional ? [revalidationCell] : [])).map { key in
                let sample = Sample(
                    cell: key, songs: 0, round: round, iteration: 1, wallNs: nil, cpuNs: nil,
                    firstSongNs: nil, peakResidentBytes: nil, error: message, debug: plan.debugBuild)
                return CellRun(cell: key, round: round, samples: [sample], peakResidentBytes: nil, outcome: message)
            }
        }
        guard let url else { return failed("no URL to download \(cell.feedPath) from") }
        let job = DownloadJob(
            parser: cell.parser, url: url, iterations: settings.downloadIterationsPerWorker, warmup: settings.warmup,
            timeout: settings.timeoutSeconds, conditional: conditional)
        // The worker's own limit is per stalled download; this one bounds the whole cell.
        let report: DownloadWorkerReport
        switch runWorker(
            DownloadWorkerReport.self, WorkerCommand(executable: plan.executable, job: .download(job)),
            timeout: settings.workerLimit(
                iterations: settings.downloadIterationsPerWorker, requestsPerIteration: conditional ? 2 : 1,
                transferSeconds: plan.network.bytesPerSecond.map {
                    Double(cell.feedBytes) / $0 + Double(plan.network.rttMs) / 1_000
                } ?? 0))
        {
        case .success(let decoded): report = decoded
        case .failure(let failure): return failed(failure.message)
        }
        let disagreement = Self.disagreement(cell, digest: report.digest, reference: reference)
        let peak = report.peakResidentBytes
        func sample(_ key: CellKey, _ offset: Int, _ m: DownloadMeasurement?, error: String?) -> Sample {
            var sample = Sample(
                cell: key, songs: m?.songs ?? 0, round: round, iteration: offset + 1,
                wallNs: m.map { $0.parseNs }, cpuNs: nil, firstSongNs: m?.firstSongNs, downloadNs: m?.downloadNs,
                totalNs: m?.totalNs, peakResidentBytes: peak, bytes: m?.bytes, httpStatus: m?.status,
                error: error ?? (m == nil ? "no measurement" : nil), debug: plan.debugBuild)
            sample.parsePeakBytes = report.parsePeakBytes
            return sample
        }
        let downloads = report.iterations.enumerated().map { offset, iteration in
            sample(cell, offset, iteration.download, error: iteration.error ?? disagreement)
        }
        var runs = [
            CellRun(cell: cell, round: round, samples: downloads, peakResidentBytes: peak, outcome: disagreement)
        ]
        if conditional {
            let revalidations = report.iterations.enumerated().map { offset, iteration in
                sample(revalidationCell, offset, iteration.revalidation, error: iteration.error)
            }
            runs.append(
                CellRun(
                    cell: revalidationCell, round: round, samples: revalidations, peakResidentBytes: peak, outcome: nil)
            )
        }
        return runs
    }

    /// Runs a practice worker for one practice cell.
    private func practiceCell(
        _ cell: CellKey, practice: Practice, url: URL?, entries: Int, round: Int, reference: String?
    ) -> CellRun {
        let settings = plan.settings
        func failed(_ message: String) -> CellRun {
            let sample = Sample(
                cell: cell, songs: 0, round: round, iteration: 1, wallNs: nil, cpuNs: nil,
                firstSongNs: nil, peakResidentBytes: nil, error: message, debug: plan.debugBuild)
            return CellRun(cell: cell, round: round, samples: [sample], peakResidentBytes: nil, outcome: message)
        }
        var job = PracticeJob(
            practice: practice, parser: cell.parser, iterations: settings.downloadIterationsPerWorker,
            warmup: settings.warmup, timeout: settings.timeoutSeconds, entries: entries)
        if practice.usesNetwork {
            guard let url else { return failed("no URL to download \(cell.feedPath) from") }
            guard plan.remoteURLs[cell.feedPath] == nil else {
                return failed("the practices are measured against the embedded server, not a --url")
            }
            guard entries > 0 else {
                return failed(
                    "\(cell.feedPath) cannot be served in pages (not an RSS or Atom feed with entries the server can read)"
                )
            }
            job.url = url
        } else {
            job.feed = cell.feedPath
        }
        let requests = practice.requests(entries: entries)
        var iterations = settings.downloadIterationsPerWorker
        if case .queue(_, _, true) = practice { iterations += 1 }  // the uncancelled fetch it checks against
        let transfer =
            practice.usesNetwork
            ? plan.network.bytesPerSecond.map {
                Double(cell.feedBytes) / $0 + Double(plan.network.rttMs * requests) / 1_000
            } ?? 0
            : Double(cell.feedBytes) / 1e6  // writing a store: generous, about 1 s per MB of feed
        let report: PracticeWorkerReport
        switch runWorker(
            PracticeWorkerReport.self, WorkerCommand(executable: plan.executable, job: .practice(job)),
            timeout: settings.workerLimit(
                iterations: iterations, requestsPerIteration: requests, transferSeconds: transfer))
        {
        case .success(let decoded): report = decoded
        case .failure(let failure): return failed(failure.message)
        }
        let disagreement = Self.disagreement(cell, digest: report.digest, reference: reference)
        let peak = report.peakResidentBytes
        let samples = report.iterations.enumerated().map { offset, iteration in
            let fetch = iteration.fetch
            let store = iteration.store
            var sample = Sample(
                cell: cell, songs: fetch?.songs ?? store?.songs ?? 0, round: round, iteration: offset + 1,
                wallNs: fetch?.parseNs ?? store?.parseNs, cpuNs: nil, firstSongNs: fetch?.firstSongNs,
                downloadNs: fetch?.downloadNs, totalNs: fetch?.totalNs ?? store.map { $0.parseNs + $0.storeNs },
                peakResidentBytes: peak, bytes: fetch?.bytes, httpStatus: fetch == nil ? nil : 200,
                error: iteration.error ?? disagreement ?? (fetch == nil && store == nil ? "no measurement" : nil),
                debug: plan.debugBuild)
            sample.requests = fetch?.requests
            sample.wireBytes = fetch?.wireBytes
            sample.storeNs = store?.storeNs
            sample.afterCancelBytes = fetch?.cancel?.bytesAfterCancel
            sample.afterCancelParseNs = fetch?.cancel?.parseNsAfterCancel
            sample.startedAfterCancel = fetch?.cancel?.startedAfterCancel
            return sample
        }
        return CellRun(cell: cell, round: round, samples: samples, peakResidentBytes: peak, outcome: disagreement)
    }

    struct WorkerFailure: Error {
        var message: String
    }

    /// Runs one worker and decodes its report; a crash, a time-out or an unreadable report is a
    /// failure with a message (and no peak memory: `wait4`'s figure includes this process's own).
    private func runWorker<Report: Decodable>(
        _ type: Report.Type, _ command: WorkerCommand,
        timeout: Double, progress: ((Int) -> Void)? = nil
    ) -> Result<Report, WorkerFailure> {
        let outcome: WorkerProcess.Outcome
        do {
            outcome = try WorkerProcess.run(command, timeout: timeout, progress: progress)
        } catch {
            return .failure(WorkerFailure(message: "worker could not start: \(error)"))
        }
        guard outcome.termination == .exited(0) else {
            var message = "worker \(outcome.termination)"
            if let line = outcome.standardError.split(separator: "\n").last(where: { !$0.isEmpty }) {
                message += ": \(line.prefix(300))"
            }
            return .failure(WorkerFailure(message: message))
        }
        do {
            return .success(try JSONDecoder().decode(Report.self, from: Data(outcome.result)))
        } catch {
            return .failure(WorkerFailure(message: "unreadable worker report: \(error)"))
        }
    }

    /// Why a worker's songs are not the agreed ones, if they are not (the baseline and the floor build none).
    private static func disagreement(_ cell: CellKey, digest: String?, reference: String?) -> String? {
        guard ParserRegistry.buildsSongs(cell.parser), let reference, let digest, digest != reference else {
            return nil
        }
        return "songs differ from the agreed songs (digest \(digest.prefix(12))…, expected \(reference.prefix(12))…)"
    }

    /// Summarises the runs of every cell (all rounds together), with peak memory above the baseline.
    public static func summarise(_ runs: [CellRun], cells: [CellKey]) -> [CellSummary] {
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

extension RunSettings {
    /// A worker's time limit: the time limit of one iteration (a parse, or a download's longest stall)
    /// for each of its `iterations`, warm-up included, and one more for its start.
    func workerLimit(iterations: Int, requestsPerIteration: Int, transferSeconds: Double = 0) -> Double {
        // Each request may stall for the time limit, and a shaped one takes its transfer time on top
        // (an edge download of the 900 KB feed is ~31 s: without it, 23 of them came within
        // seconds of a 720 s limit).
        (timeoutSeconds + transferSeconds) * Double((iterations + warmup) * requestsPerIteration + 1)
    }
}

/// Results written from several threads, under a lock.
private final class ConcurrentSlots<Value: Sendable>: @unchecked Sendable {
    let lock = NSLock()
    var values: [Int: Value] = [:]
}
