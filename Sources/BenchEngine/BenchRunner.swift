import BenchResults
import FeedParsers
import Foundation
import SongFeed

/// What `bench run` measures: parsers × feeds, with the measuring settings.
public struct RunPlan: Sendable {
    public var parsers: [String]
    public var feeds: [String]
    public var settings: RunSettings
    /// The `bench` executable to run as the workers.
    public var executable: String
    /// Whether this is a debug build (its samples are marked).
    public var debugBuild: Bool

    public init(parsers: [String], feeds: [String], settings: RunSettings, executable: String, debugBuild: Bool) {
        self.parsers = parsers
        self.feeds = feeds
        self.settings = settings
        self.executable = executable
        self.debugBuild = debugBuild
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
}

/// Where the runner is, for a progress line.
public struct RunProgress: Sendable {
    public var cellIndex: Int
    public var cellCount: Int
    public var parser: String
    public var feed: String
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
                feed: path, parsers: plan.parsers, chunkSizes: [plan.settings.chunkSize], executable: plan.executable,
                timeout: plan.settings.timeoutSeconds)
            let agreeing = verification.verdicts.filter { $0.status == .agrees }.map(\.parser)
            return FeedCheck(feed: feed, verification: verification, agreeing: agreeing)
        }
    }

    /// The cells to time for the checked feeds: the baseline first, then the agreeing parsers.
    public func cells(for checks: [FeedCheck]) -> [CellKey] {
        checks.flatMap { check in
            ([ParserRegistry.baseline.name] + check.agreeing).map { parser in
                CellKey(
                    parser: parser, scenario: "parse", feedPath: check.feed.path, feedSHA256: check.feed.sha256,
                    feedBytes: check.feed.bytes.count, chunkSize: plan.settings.chunkSize)
            }
        }
    }

    /// Times every cell, round after round, calling `cellFinished` after each worker (to store it).
    ///
    /// - Parameters:
    ///   - cells: from ``cells(for:)``.
    ///   - referenceDigests: the agreed songs' digest per feed path; a worker whose songs differ has
    ///     its samples marked failed.
    ///   - progress: called before each worker starts and, when `iterationProgress` is set, after each
    ///     of its iterations.
    ///   - iterationProgress: ask workers to report each finished iteration (for a terminal only).
    ///   - cellFinished: called with each worker's outcome; an error it throws stops the run.
    public func measure(
        _ cells: [CellKey], referenceDigests: [String: String], iterationProgress: Bool = false,
        progress: (RunProgress) -> Void, cellFinished: (CellRun) throws -> Void
    ) throws -> [CellRun] {
        var runs: [CellRun] = []
        let settings = plan.settings
        let total = cells.count * settings.rounds
        var done = 0
        for round in 1...max(1, settings.rounds) {
            let shift = cells.isEmpty ? 0 : (round - 1) % cells.count
            let order = Array(cells[shift...] + cells[..<shift])
            for cell in order {
                let step = RunProgress(
                    cellIndex: done + 1, cellCount: total, parser: cell.parser, feed: cell.feedPath, round: round, iteration: 0)
                progress(step)
                let run = withoutActuallyEscaping(progress) { report in
                    measureCell(
                        cell, round: round, reference: referenceDigests[cell.feedPath],
                        iterations: iterationProgress ? { count in
                            var next = step
                            next.iteration = count
                            report(next)
                        } : nil)
                }
                try cellFinished(run)
                runs.append(run)
                done += 1
            }
        }
        return runs
    }

    private func measureCell(_ cell: CellKey, round: Int, reference: String?, iterations: ((Int) -> Void)?) -> CellRun {
        let settings = plan.settings
        let arguments = [
            "worker", "measure", "--parser", cell.parser, "--iterations", String(settings.iterations),
            "--warmup", String(settings.warmup), "--chunk-size", String(settings.chunkSize), cell.feedPath,
        ]
        let firstIteration = (round - 1) * settings.iterations + 1
        func failed(_ message: String, peak: Int?) -> CellRun {
            let sample = Sample(
                cell: cell, songs: 0, round: round, iteration: firstIteration, wallNs: nil, cpuNs: nil, firstSongNs: nil,
                peakResidentBytes: peak, error: message, debug: plan.debugBuild)
            return CellRun(cell: cell, round: round, samples: [sample], peakResidentBytes: peak, outcome: message)
        }
        let outcome: WorkerProcess.Outcome
        do {
            outcome = try WorkerProcess.run(
                executable: plan.executable, arguments: arguments, timeout: settings.timeoutSeconds, progress: iterations)
        } catch {
            return failed("worker could not start: \(error)", peak: nil)
        }
        guard outcome.termination == .exited(0) else {
            var message = "worker \(outcome.termination)"
            if let line = outcome.standardError.split(separator: "\n").last(where: { !$0.isEmpty }) {
                message += ": \(line.prefix(300))"
            }
            // No peak: wait4's figure would include this process's own (see PeakMemory).
            return failed(message, peak: nil)
        }
        let report: MeasureWorkerReport
        do {
            report = try JSONDecoder().decode(MeasureWorkerReport.self, from: Data(outcome.result))
        } catch {
            return failed("unreadable worker report: \(error)", peak: nil)
        }
        let peak = report.peakResidentBytes
        var disagreement: String?
        if cell.parser != ParserRegistry.baseline.name, let reference, let digest = report.digest, digest != reference {
            disagreement = "songs differ from the agreed songs (digest \(digest.prefix(12))…, expected \(reference.prefix(12))…)"
        }
        let samples = report.iterations.enumerated().map { offset, iteration in
            Sample(
                cell: cell, songs: iteration.songs, round: round, iteration: firstIteration + offset,
                wallNs: iteration.wallNs, cpuNs: iteration.cpuNs, firstSongNs: iteration.firstSongNs,
                peakResidentBytes: peak, error: iteration.error ?? disagreement, debug: plan.debugBuild)
        }
        return CellRun(cell: cell, round: round, samples: samples, peakResidentBytes: peak, outcome: disagreement)
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
