import BenchResults
import FeedParsers
import Foundation
import SongFeed

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// ``WorkerJob/concurrent(_:)``: `threads` parses of a feed in memory at once.
package struct ConcurrentJob: Codable, Sendable, Equatable {
    /// What each thread parses, how many batches and in which chunks (its counting and slowdown
    /// fields are not used).
    package var parse: MeasureJob
    /// Parses at once, one per thread.
    package var threads: Int

    package init(parse: MeasureJob, threads: Int) {
        self.parse = parse
        self.threads = threads
    }
}

/// What a concurrent worker reports: one entry per measured batch of parses.
package struct ConcurrentWorkerReport: Codable, Sendable {
    /// One measured batch: `threads` parses at once.
    package struct Iteration: Codable, Sendable, Equatable {
        /// From the gate's opening to the last thread's end.
        package var wallNs: Int
        /// The process's CPU time over the same span, every thread's.
        package var cpuNs: Int
        /// The songs of one parse (every thread's, when they agree).
        package var songs: Int
        /// The first thread that failed or built other songs than the single-thread answer.
        package var error: String?
    }

    package var parser: String
    package var threads: Int
    /// `SongDigest` of the worker's single-thread answer (its first parse, untimed).
    package var digest: String?
    package var iterations: [Iteration]
    /// The worker's peak resident set over its life, bytes.
    package var peakResidentBytes: Int?
}

/// The concurrent worker: the single-thread answer, then `warmup` + `iterations` batches of parses
/// at once (see `ConcurrentScenario`).
package enum ConcurrentWorker {
    /// Runs `job`.
    ///
    /// - Throws: ``VerifyWorkerError`` for an unknown parser or one that may not run on several
    ///   threads, ``FeedFileError`` for an unreadable feed, the single-thread parse's error.
    package static func run(_ job: ConcurrentJob) throws -> ConcurrentWorkerReport {
        let parse = job.parse
        let parserType = try ParserRegistry.worker(parse.parser)
        if case .oneThreadAtATime(let reason) = parserType.concurrency {
            throw VerifyWorkerError(description: "\(parse.parser) may not parse on several threads at once: \(reason)")
        }
        let bytes = try FeedFile.bytes(at: parse.feed)
        let threads = max(1, job.threads)
        let progress = fcntl(WorkerProcess.progressDescriptor, F_GETFD) >= 0 ? WorkerProcess.progressDescriptor : nil
        let measured = try measure(
            parserType, bytes: bytes, threads: threads, iterations: parse.iterations, warmup: parse.warmup,
            chunkSize: parse.chunkSize, progressDescriptor: progress)
        return ConcurrentWorkerReport(
            parser: parse.parser, threads: threads, digest: measured.digest, iterations: measured.iterations,
            peakResidentBytes: PeakMemory.currentProcessPeakBytes())
    }

    /// The single-thread answer's digest, then `warmup` + `iterations` batches of `threads` parses
    /// of `bytes` at once, the measured ones reported.
    ///
    /// When `progressDescriptor` is open, one byte is written to it after each measured batch.
    ///
    /// - Throws: the single-thread parse's error.
    static func measure(
        _ parserType: any SongFeedParser.Type, bytes: [UInt8], threads: Int, iterations: Int, warmup: Int,
        chunkSize: Int, progressDescriptor: Int32? = nil
    ) throws -> (digest: String, iterations: [ConcurrentWorkerReport.Iteration]) {
        let step = max(1, chunkSize == 0 ? bytes.count : chunkSize)
        // The feed in a page-aligned copy, as every measuring worker's unless its scenario says otherwise.
        return try AlignedCopy().withBytes(bytes, path: "") { all in
            // The answer every thread must give, from one parse on this thread before any other starts:
            // libxml2's process-wide set-up (xmlInitParser) happens here, as an app's first parse does it.
            var first = try parserType.init(onSong: nil)
            try first.consume(all, inChunksOf: step)
            let answer = try first.finish()
            let digest = SongDigest.sha256(of: answer)
            var results: [ConcurrentWorkerReport.Iteration] = []
            results.reserveCapacity(max(0, iterations))
            var tick: UInt8 = 0x2E
            for index in 0..<(max(0, warmup) + max(0, iterations)) {
                let batch = Batch(parserType, all, step: step, threads: max(1, threads))
                let iteration = batch.run(expecting: digest, songs: answer.count)
                if index >= max(0, warmup) {
                    results.append(iteration)
                    if let progressDescriptor { _ = write(progressDescriptor, &tick, 1) }
                }
            }
            return (digest, results)
        }
    }

    /// One batch: its threads, started and waiting at the gate before the clocks start.
    private struct Batch {
        let lanes: [Lane]
        let gate: Gate

        init(_ parserType: any SongFeedParser.Type, _ all: UnsafeRawBufferPointer, step: Int, threads: Int) {
            gate = Gate()
            lanes = (0..<threads).map { _ in Lane(parserType, all, step: step) }
        }

        /// Starts the threads, times them from the gate's opening to the last one's end, then checks
        /// each thread's songs.
        func run(expecting digest: String, songs: Int) -> ConcurrentWorkerReport.Iteration {
            let gate = gate
            for lane in lanes {
                let thread = Thread {
                    gate.arrive()
                    lane.parse()
                    gate.leave()
                }
                thread.stackSize = 1 << 23
                thread.start()
            }
            gate.waitForArrivals(lanes.count)
            // ---- timed region ----
            let cpuStart = processCPUNanoseconds()
            let wallStart = monotonicNanoseconds()
            gate.open()
            gate.waitForDepartures(lanes.count)
            let wallEnd = monotonicNanoseconds()
            let cpuEnd = processCPUNanoseconds()
            // ---- end of timed region ----
            var error: String?
            for (index, lane) in lanes.enumerated() where error == nil {
                let which = "thread \(index + 1) of \(lanes.count)"
                if let failure = lane.failure {
                    error = "\(which): \(failure)"
                } else if SongDigest.sha256(of: lane.songs) != digest {
                    error =
                        "\(which): \(lane.songs.count) songs that differ from the single-thread answer's \(songs) "
                        + "(digest \(SongDigest.sha256(of: lane.songs).prefix(12))…, expected \(digest.prefix(12))…)"
                }
            }
            blackHole(lanes.map(\.songs))
            return ConcurrentWorkerReport.Iteration(
                wallNs: Int(wallEnd - wallStart), cpuNs: Int(cpuEnd &- cpuStart), songs: songs, error: error)
        }
    }

    /// One thread's parse and what it gave; written by its thread only, read after the gate says it ended.
    private final class Lane: @unchecked Sendable {
        let parserType: any SongFeedParser.Type
        let all: UnsafeRawBufferPointer
        let step: Int
        var songs: [Song] = []
        var failure: (any Error)?

        init(_ parserType: any SongFeedParser.Type, _ all: UnsafeRawBufferPointer, step: Int) {
            self.parserType = parserType
            self.all = all
            self.step = step
        }

        func parse() {
            do {
                var parser = try parserType.init(onSong: nil)
                try parser.consume(all, inChunksOf: step)
                songs = try parser.finish()
            } catch {
                failure = error
            }
        }
    }

    /// Where a batch's threads wait to start together, and the main thread for them to end.
    private final class Gate: @unchecked Sendable {
        private let condition = NSCondition()
        private var arrived = 0
        private var departed = 0
        private var isOpen = false

        /// A thread is ready: waits for the gate to open.
        func arrive() {
            update { $0.arrived += 1 }
            wait { $0.isOpen }
        }

        /// A thread has ended its parse.
        func leave() { update { $0.departed += 1 } }

        func waitForArrivals(_ count: Int) { wait { $0.arrived >= count } }

        func open() { update { $0.isOpen = true } }

        func waitForDepartures(_ count: Int) { wait { $0.departed >= count } }

        /// Changes the gate's state and wakes every thread that waits on it (closures that do not
        /// escape: nothing is allocated).
        private func update(_ change: (Gate) -> Void) {
            condition.lock()
            change(self)
            condition.broadcast()
            condition.unlock()
        }

        private func wait(until done: (Gate) -> Bool) {
            condition.lock()
            while !done(self) { condition.wait() }
            condition.unlock()
        }
    }
}
