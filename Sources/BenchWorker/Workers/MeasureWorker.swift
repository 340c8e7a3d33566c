import BenchResults
import CCallgrind
import FeedParsers
import SongFeed

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The measuring side of a worker process: times a parser over a feed held in memory.
///
/// Each iteration makes a fresh parser, pushes the feed `chunkSize` bytes at a time and finishes.
/// The timed region covers exactly that: it starts the wall clock (`CLOCK_MONOTONIC`) and the
/// process's CPU clock (`CLOCK_PROCESS_CPUTIME_ID`, the worker's every thread, which is one but for a
/// parser that parses on a thread of its own) before the parser is made and stops them once
/// `finish()` has returned and the parser is gone. Nothing inside it prints, stores or allocates for
/// the harness: the results array is reserved beforehand, the first-song closure is made once, and
/// the songs are kept alive past the clocks' stop (then handed to ``blackHole(_:)``).
///
/// **Parses that lose the CPU.** On a machine doing other work a parse can be descheduled in the
/// middle: its wall time then counts the other work. Such an iteration (wall time more than
/// ``preemptionShare`` above the process's CPU time) is reported with `preempted` set and, when
/// `retryPreempted` is on, measured again after a short pause, until `iterations` parses kept the
/// CPU or ``attemptsPerIteration`` × `iterations` were made. The figures use only the parses that
/// kept the CPU; the others stay in the report (and the store) with their flag.
///
/// **Memory.** The worker's first parse (a warm-up one when there is warm-up) runs in a
/// ``PeakMemory/Window``: its peak above the resident set just before it is the parse's own memory.
///
/// **Documents.** A document parse reports its events to the checksum sink
/// (`DocumentSink.Mode.checksum`: every event's bytes read into a checksum, nothing kept), so that
/// its time is the parser's, not the canonical sink's (which costs half of the fastest walk on
/// event-dense documents). Untimed, the same parser walks the document once into the canonical sink:
/// its digest is the one compared with the agreed events, and its checksum must be the timed parses'
/// (else every one of them is an error). That walk is the last warm-up (the first, in the memory
/// window, warms the timed path), so it costs no parse; with fewer than two warm-ups, or under a
/// counter (whose counts are of every parse of the timed path), it comes after the timed parses.
package enum MeasureWorker {
    /// A parse lost the CPU when its wall time exceeds its CPU time by more than this share
    /// of the wall time (a parse that kept the CPU shows well under 1% here).
    ///
    /// ``preemptionShareVariable`` sets another share in the environment, for tests: `-1` makes
    /// every parse one that lost the CPU, as on a machine at its busiest.
    package static let preemptionShare: Double = {
        guard let text = getenv(preemptionShareVariable).map({ String(cString: $0) }), let share = Double(text),
            share.isFinite
        else { return 0.03 }
        return share
    }()

    /// The environment variable that sets ``preemptionShare`` (tests only).
    package static let preemptionShareVariable = "BENCH_PREEMPTION_SHARE"

    /// At most this many measured parses per iteration asked, when parses that lost the CPU are
    /// measured again.
    package static let attemptsPerIteration = 4

    /// Whether a parse lost the CPU to other work; see ``preemptionShare``.
    package static func lostTheCPU(wallNs: Int, cpuNs: Int) -> Bool {
        Double(wallNs - cpuNs) > preemptionShare * Double(wallNs)
    }

    /// Measures `warmup` + `iterations` parses and reports the measured ones.
    ///
    /// - Throws: ``VerifyWorkerError`` for an unknown parser, ``FeedFileError`` for an unreadable feed.
    ///
    /// `countingOnly` is for a worker under callgrind (`--counter instructions`): no memory window and
    /// no calibration, whose reads of `/proc` and allocations would change the heap that the counted
    /// parses allocate from, and so their counts, from one run to the next.
    ///
    /// `countAllocations` is for a worker with the allocation interposer loaded: each parse's
    /// `malloc`-family calls are counted (``AllocationCounter``), as `countingOnly`; its times are
    /// reported but mean nothing. Any other worker checks that the interposer is *not* its `malloc`.
    package static func run(_ job: MeasureJob) throws -> MeasureWorkerReport {
        let target: ParseTarget =
            job.workload == .document
            ? .document(try ParserRegistry.documentWorker(job.parser)) : .songs(try ParserRegistry.worker(job.parser))
        try AllocationCounter.check(counting: job.countAllocations)
        let bytes = try FeedFile.bytes(at: job.feed)
        let progress = fcntl(WorkerProcess.progressDescriptor, F_GETFD) >= 0 ? WorkerProcess.progressDescriptor : nil
        // The scenario's input (a page-aligned copy of the feed unless its scenario says otherwise).
        let input: any ParseInput = job.scenario?.parseInput ?? AlignedCopy()
        let measured = try measure(
            target, bytes: bytes, input: input, path: job.feed, iterations: job.iterations, warmup: job.warmup,
            chunkSize: job.chunkSize, progressDescriptor: progress, slowdownPercent: job.slowdownPercent,
            retryPreempted: job.retryPreempted && !job.countAllocations,
            countingOnly: job.countingOnly || job.countAllocations, countAllocations: job.countAllocations)
        let lifetimePeak = [measured.lifetimePeakBefore, PeakMemory.currentProcessPeakBytes()].compactMap { $0 }.max()
        return MeasureWorkerReport(
            parser: job.parser, feedBytes: bytes.count, digest: measured.digest, iterations: measured.iterations,
            peakResidentBytes: lifetimePeak, parsePeakBytes: measured.parsePeakBytes)
    }

    /// What a measuring worker parses: a song parser, or a document parser into the canonical sink.
    package enum ParseTarget {
        case songs(any SongFeedParser.Type)
        case document(any DocumentParser.Type)
    }

    /// The sink a document parse reports to while it is timed (`DocumentSink.Mode.checksum`): what
    /// a run records as its timed sink.
    package static let timedDocumentSink = DocumentSink.Mode.checksum.rawValue

    /// What `measure(_:bytes:…)` found.
    package struct Measured: Sendable {
        /// The measured iterations (warm-up left out), those that lost the CPU included.
        package var iterations: [MeasureWorkerReport.Iteration]
        /// `SongDigest` of the last good iteration's songs; for a document, its events' digest from
        /// the untimed walk into the canonical sink (`DocumentSink.digestText`).
        package var digest: String?
        /// The first parse's own peak, bytes (``PeakMemory/Window``).
        package var parsePeakBytes: Int?
        /// The process's high-water mark before the first parse reset it, bytes.
        package var lifetimePeakBefore: Int?
    }

    /// Times `parserType` over `bytes`; see ``run(_:)``.
    ///
    /// When `progressDescriptor` is open, one byte is written to it after each iteration, once the
    /// clocks have stopped (the parent opens it only to draw a progress line on a terminal).
    package static func measure(
        _ parserType: any SongFeedParser.Type, bytes: [UInt8], iterations: Int, warmup: Int, chunkSize: Int,
        progressDescriptor: Int32? = nil, slowdownPercent: Int = 0, retryPreempted: Bool = false,
        countingOnly: Bool = false,
        countAllocations: Bool = false
    ) -> Measured {
        // A song parse needs no sink: nothing can throw.
        (try? measure(
            .songs(parserType), bytes: bytes, iterations: iterations, warmup: warmup, chunkSize: chunkSize,
            progressDescriptor: progressDescriptor, slowdownPercent: slowdownPercent, retryPreempted: retryPreempted,
            countingOnly: countingOnly, countAllocations: countAllocations))
            ?? Measured(iterations: [], digest: nil)
    }

    /// Times `target` over `bytes` (in a page-aligned copy); see ``run(_:)``.
    ///
    /// - Throws: `FeedParseError` when a document's sink cannot be made.
    package static func measure(
        _ target: ParseTarget, bytes: [UInt8], iterations: Int, warmup: Int, chunkSize: Int,
        progressDescriptor: Int32? = nil, slowdownPercent: Int = 0, retryPreempted: Bool = false,
        countingOnly: Bool = false, countAllocations: Bool = false
    ) throws -> Measured {
        try measure(
            target, bytes: bytes, input: AlignedCopy(), path: "", iterations: iterations, warmup: warmup,
            chunkSize: chunkSize, progressDescriptor: progressDescriptor, slowdownPercent: slowdownPercent,
            retryPreempted: retryPreempted, countingOnly: countingOnly, countAllocations: countAllocations)
    }

    /// Times `target` over `bytes` as `input` holds them (the scenario's hook; `path` is the feed's).
    static func measure(
        _ target: ParseTarget, bytes: [UInt8], input: any ParseInput, path: String, iterations: Int, warmup: Int,
        chunkSize: Int, progressDescriptor: Int32?, slowdownPercent: Int, retryPreempted: Bool, countingOnly: Bool,
        countAllocations: Bool
    ) throws -> Measured {
        var tick: UInt8 = 0x2E
        let warmup = max(0, warmup)
        let wanted = max(0, iterations)
        let limit = warmup + (retryPreempted ? wanted * attemptsPerIteration : wanted)
        var log = IterationLog(capacity: limit)
        var window: PeakMemory.Window?
        var missed = 0
        // Set by the song callback; a class so that the closure allocates its context once, here.
        let firstSong = Timestamp()
        // A counted parse only notes that a song ended: reading the clock there would count the
        // clock's own work, whose path can repeat when the kernel updates the time meanwhile.
        let songEnded =
            countingOnly
            ? SongEndSignal { firstSong.value = 1 }
            : SongEndSignal { if firstSong.value == 0 { firstSong.value = monotonicNanoseconds() } }
        let work: ParseWork
        switch target {
        case .songs(let parserType): work = .songs(parserType, songEnded)
        case .document(let parserType):
            let sink = try DocumentSink()
            let extra = try DocumentSink()
            try parserType.prepare(sink, for: bytes)
            if slowdownPercent > 0 { try parserType.prepare(extra, for: bytes) }
            work = .document(parserType, sink, extra: extra)
        }
        let parse = OneParse(
            work: work, step: max(1, chunkSize == 0 ? bytes.count : chunkSize),
            extraBytes: min(bytes.count, bytes.count * max(0, slowdownPercent) / 100),
            countingOnly: countingOnly, countAllocations: countAllocations)
        // Read the environment before the clocks start, not in the first parse.
        _ = HashSeeding.deterministic
        // The figures' table of slots is made on its first use: here, not between two parses.
        _ = MetricValues()[.wallNs]
        // The scenario's input is made here, where the feed's page-aligned copy always was.
        return try input.withBytes(bytes, path: path) { all in
            var canonical: CanonicalWalk?
            var canonicalParser: (any DocumentParser.Type)?
            if case .document(let parserType, _, _) = work, parserType.reportsEvents { canonicalParser = parserType }
            let canonicalWarmup = warmup >= 2 && !countingOnly ? warmup - 1 : nil
            // Under callgrind, its instrumentation starts here, before the warm-up parses: the
            // worker's start-up runs at valgrind's lightest (see InstructionCounter.startsInstrumenting).
            if countingOnly { bench_callgrind_start_instrumentation() }
            var index = 0
            while index < limit && (index < warmup || log.keptCPU < wanted) {
                if index == canonicalWarmup, let canonicalParser, case .document(_, let sink, _) = work {
                    canonical = CanonicalWalk(canonicalParser, bytes: bytes, step: parse.step, sink: sink)
                    if let progressDescriptor { _ = write(progressDescriptor, &tick, 1) }
                    index += 1
                    continue
                }
                if index == 0 && !countingOnly { window = PeakMemory.Window.open() }
                let timed = parse.time(all, firstSong: firstSong)
                if index == 0 { log.parsePeak = window?.close() }
                log.record(timed, measured: index >= warmup)
                if let progressDescriptor { _ = write(progressDescriptor, &tick, 1) }
                index += 1
                // Other work has the CPU: let it pass before measuring again (10 ms, growing to 200 ms).
                if timed.preempted && retryPreempted && index > warmup {
                    missed += 1
                    usleep(useconds_t(min(200, 10 * missed) * 1000))
                } else {
                    missed = 0
                }
            }
            // The parses are counted: the rest of the worker runs at valgrind's lightest again.
            if countingOnly { bench_callgrind_stop_instrumentation() }
            if canonical == nil, let canonicalParser, case .document(_, let sink, _) = work {
                canonical = CanonicalWalk(canonicalParser, bytes: bytes, step: parse.step, sink: sink)
            }
            return log.measured(lifetimePeakBefore: window?.lifetimePeakBefore, canonical: canonical)
        }
    }

    /// The untimed walk of a document into the canonical sink: the digest that is compared with the
    /// agreed events, and the checksum the timed walks must have had.
    struct CanonicalWalk {
        var digest: String?
        var checksum: String?
        var failure: String?

        init(_ parserType: any DocumentParser.Type, bytes: [UInt8], step: Int, sink: DocumentSink) {
            do {
                try parserType.walk(bytes, chunkSize: step, into: sink)
                digest = sink.digestText
                checksum = sink.checksumText
            } catch {
                failure = "the untimed walk into the canonical sink failed: \(error)"
            }
        }
    }

    /// One parse as the loop of ``measure(_:bytes:iterations:warmup:chunkSize:progressDescriptor:slowdownPercent:retryPreempted:countingOnly:countAllocations:)``
    /// runs it: the calibration before it, the clocks around ``callgrindParseRegion(_:_:step:extraBytes:)``,
    /// and the songs made after the clocks stop.
    private struct OneParse {
        let work: ParseWork
        let step: Int
        let extraBytes: Int
        let countingOnly: Bool
        let countAllocations: Bool

        /// What one parse gave.
        struct Outcome {
            var iteration: MeasureWorkerReport.Iteration
            var songs: [Song]
            /// A document's events' checksum (`DocumentSink.checksumText`); `nil` for songs.
            var documentDigest: String?
            var failure: (any Error)?
            var preempted: Bool { iteration.preempted }
        }

        @inline(__always)
        func time(_ all: UnsafeRawBufferPointer, firstSong: Timestamp) -> Outcome {
            firstSong.value = 0
            var failure: (any Error)?
            var songs: [Song] = []
            if case .document(_, let sink, _) = work { sink.reset(mode: .checksum) }
            let calibration = countingOnly ? nil : Calibration.time(all)
            // The page faults so far (a system call, outside the clocks; not in a counting worker,
            // whose parse runs under callgrind or the interposer).
            let faultsBefore = countingOnly ? nil : minorPageFaults()
            // ---- timed region ----
            let cpuStart = processCPUNanoseconds()
            let wallStart = monotonicNanoseconds()
            if countAllocations { AllocationCounter.start() }
            var parsed: ParsedRegion?
            do {
                parsed = try callgrindParseRegion(work, all, step: step, extraBytes: extraBytes)
            } catch {
                failure = error
            }
            let allocations = countAllocations ? AllocationCounter.stop() : nil
            let wallEnd = monotonicNanoseconds()
            let cpuEnd = processCPUNanoseconds()
            // ---- end of timed region ----
            let faultsAfter = countingOnly ? nil : minorPageFaults()
            // A parser that leaves its fields outside Swift (the C references) makes its songs now.
            if var parsed {
                do {
                    songs = try parsed.songs ?? parsed.parser?.finish() ?? []
                } catch {
                    failure = error
                }
            }
            let first = countingOnly || firstSong.value == 0 ? nil : Int(firstSong.value - wallStart)
            let wall = Int(wallEnd - wallStart)
            let cpu = Int(cpuEnd &- cpuStart)
            var count = songs.count
            var documentDigest: String?
            if case .document(let parserType, let sink, _) = work {
                count = sink.eventCount
                documentDigest = parserType.reportsEvents ? sink.checksumText : nil
            }
            // The figures, by metric, now that the clocks have stopped (inline: nothing is allocated).
            var figures = MetricValues()
            figures[.wallNs] = wall
            figures[.cpuNs] = cpu
            figures[.firstSongNs] = first
            figures[.calibrationNs] = calibration
            if let faultsBefore, let faultsAfter { figures[.minorPageFaults] = faultsAfter - faultsBefore }
            if let allocations {
                figures[.allocations] = allocations.allocations
                figures[.allocatedBytes] = allocations.bytes
                figures[.keptBytes] = allocations.keptBytes
            }
            return Outcome(
                iteration: .init(
                    figures: figures, songs: count, error: nil, preempted: lostTheCPU(wallNs: wall, cpuNs: cpu)),
                songs: songs, documentDigest: documentDigest, failure: failure)
        }
    }

    /// The measured iterations as the loop goes, and the songs of the last good one.
    private struct IterationLog {
        var results: [MeasureWorkerReport.Iteration] = []
        var kept: [Song] = []
        var lastGood: [Song] = []
        /// The songs (or a document's events) of the last good parse.
        var lastGoodCount = 0
        /// The document workload: the events' checksum of the first good parse, which every other must match.
        var documentDigest: String?
        /// Measured iterations that kept the CPU (or failed: a failure is not retried).
        var keptCPU = 0
        var parsePeak: Int?

        init(capacity: Int) {
            results.reserveCapacity(capacity)
        }

        /// Notes a parse; a warm-up one (`measured` false) only keeps its songs.
        mutating func record(_ parse: OneParse.Outcome, measured: Bool) {
            kept = parse.songs
            var failure = parse.failure.map { "\($0)" }
            if failure == nil, let digest = parse.documentDigest {
                if let documentDigest, digest != documentDigest {
                    failure =
                        "the events differ from the other iterations' (checksum \(digest), expected \(documentDigest))"
                }
                documentDigest = documentDigest ?? digest
            }
            if measured {
                var iteration = parse.iteration
                iteration.error = failure
                results.append(iteration)
                if !parse.preempted || parse.failure != nil { keptCPU += 1 }
            }
            if failure == nil {
                lastGood = kept
                lastGoodCount = parse.iteration.songs
            }
        }

        /// The iterations with their errors; every one must build as many songs as the last good one
        /// and, for a document, have the `canonical` walk's checksum.
        func measured(lifetimePeakBefore: Int?, canonical: CanonicalWalk? = nil) -> Measured {
            blackHole(kept)
            let expected = lastGoodCount
            let noun = documentDigest == nil ? "songs" : "events"
            var unverified: String?
            if let canonical {
                unverified =
                    canonical.failure
                    ?? (canonical.checksum == documentDigest || documentDigest == nil
                        ? nil
                        : "the timed events' checksum \(documentDigest ?? "") is not the canonical walk's "
                            + (canonical.checksum ?? ""))
            }
            let checked = results.map { iteration -> MeasureWorkerReport.Iteration in
                var iteration = iteration
                if iteration.error == nil && iteration.songs != expected {
                    iteration.error = "built \(iteration.songs) \(noun), other iterations \(expected)"
                }
                if iteration.error == nil, let unverified { iteration.error = unverified }
                return iteration
            }
            let anyGood = checked.contains { $0.error == nil }
            let digest = canonical?.digest ?? documentDigest ?? SongDigest.sha256(of: lastGood)
            return Measured(
                iterations: checked, digest: anyGood ? digest : nil, parsePeakBytes: parsePeak,
                lifetimePeakBefore: lifetimePeakBefore)
        }
    }

    /// What one timed parse does: build songs, or walk a document into the canonical sink (and, for
    /// the injected slowdown, a second sink).
    enum ParseWork {
        case songs(any SongFeedParser.Type, SongEndSignal)
        case document(any DocumentParser.Type, DocumentSink, extra: DocumentSink)
    }

    /// What ``callgrindParseRegion(_:_:step:extraBytes:)`` leaves: the parser, and its
    /// songs unless it makes them after the clocks stop (`SongFeedParser/finishParsing()`).
    struct ParsedRegion {
        /// The parser, kept only when its songs are still to be made; otherwise it is freed inside
        /// the timed region, as its cost is part of the parse.
        var parser: (any SongFeedParser)?
        var songs: [Song]?
    }

    /// One parse: a fresh parser, the feed pushed `step` bytes at a time, `SongFeedParser/finishParsing()`
    /// (or, for a document, `DocumentParser.finishDocument()`, every event in the sink).
    ///
    /// Its own function, never inlined, so that `bench run --counter instructions` can tell
    /// callgrind to count only while it runs (`--toggle-collect`) and to write the count of each
    /// call apart (`--dump-after`): see `InstructionCounter`. Keep its name unique in the program.
    ///
    /// `extraBytes` > 0 is the injected slowdown that validates the regression gate: after the
    /// parse, a second parser of the same kind parses the feed's first `extraBytes` bytes (which end
    /// mid-document, so it fails; its songs and its error are dropped). That is extra parse work in
    /// the proportion `extraBytes` / feed size, done by the code under test.
    @inline(never)
    static func callgrindParseRegion(
        _ work: ParseWork, _ all: UnsafeRawBufferPointer, step: Int, extraBytes: Int
    ) throws -> ParsedRegion {
        switch work {
        case .songs(let parserType, let songEnded):
            var parser = try parserType.init(songEnded: songEnded)
            try parser.consume(all, inChunksOf: step)
            let songs = try parser.finishParsing()
            if extraBytes > 0 {
                var extra = try parserType.init(onSong: nil)
                try? extra.consume(UnsafeRawBufferPointer(rebasing: all[0..<extraBytes]), inChunksOf: step)
                _ = try? extra.finish()
            }
            return ParsedRegion(parser: songs == nil ? parser : nil, songs: songs)
        case .document(let parserType, let sink, let extraSink):
            var parser = try parserType.init(sink: sink)
            try parser.consume(all, inChunksOf: step)
            try parser.finishDocument()
            if extraBytes > 0 {
                extraSink.reset(mode: .checksum)
                var extra = try parserType.init(sink: extraSink)
                try? extra.consume(UnsafeRawBufferPointer(rebasing: all[0..<extraBytes]), inChunksOf: step)
                try? extra.finishDocument()
            }
            return ParsedRegion(parser: nil, songs: [])
        }
    }

    private final class Timestamp: @unchecked Sendable {
        var value: UInt64 = 0
    }
}

/// The minor page faults this process has taken (`getrusage`'s `ru_minflt`): pages first touched,
/// read from no disk.
func minorPageFaults() -> Int {
    var usage = rusage()
    #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
        getrusage(RUSAGE_SELF, &usage)
    #endif
    return Int(usage.ru_minflt)
}

/// The CPU time of the process, every thread's, in nanoseconds (`CLOCK_PROCESS_CPUTIME_ID`): a
/// parser that parses on a thread of its own (`foundation-stream`) is counted whole.
package func processCPUNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Keeps a value alive and opaque to the optimizer, so that the work that made it cannot be dropped.
@inline(never)
@_optimize(none)
package func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
