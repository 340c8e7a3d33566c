import FeedParsers
import SongFeed

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a measuring worker reports for one cell: one entry per measured iteration.
public struct MeasureWorkerReport: Codable, Sendable {
    /// One measured iteration.
    public struct Iteration: Codable, Sendable, Equatable {
        public var wallNs: Int
        public var cpuNs: Int
        /// From the start of the iteration to the first song; `nil` when no song was built.
        public var firstSongNs: Int?
        public var songs: Int
        public var error: String?
    }

    public var parser: String
    public var feedBytes: Int
    /// ``SongDigest`` of the songs of the last successful iteration.
    public var digest: String?
    public var iterations: [Iteration]
    /// The worker's own peak resident set at its end, bytes (``PeakMemory``).
    public var peakResidentBytes: Int?
}

/// The measuring side of a worker process: times a parser over a feed held in memory.
///
/// Each iteration makes a fresh parser, pushes the feed `chunkSize` bytes at a time and finishes.
/// The timed region covers exactly that: it starts the wall clock (`CLOCK_MONOTONIC`) and the
/// thread's CPU clock (`CLOCK_THREAD_CPUTIME_ID`) before the parser is made and stops them once
/// `finish()` has returned and the parser is gone. Nothing inside it prints, stores or allocates for
/// the harness: the results array is reserved beforehand, the first-song closure is made once, and
/// the songs are kept alive past the clocks' stop (then handed to ``blackHole(_:)``).
public enum MeasureWorker {
    /// Measures `warmup` + `iterations` parses and reports the last `iterations`.
    ///
    /// - Throws: ``VerifyWorkerError`` for an unknown parser, ``FeedFileError`` for an unreadable feed.
    public static func run(
        parser name: String, feed path: String, iterations: Int, warmup: Int, chunkSize: Int, slowdownPercent: Int = 0
    ) throws -> MeasureWorkerReport {
        guard let parserType = ParserRegistry.parser(named: name) else {
            throw VerifyWorkerError(description: "unknown parser '\(name)'")
        }
        let feed = try FeedFile(path: path)
        let progress = fcntl(WorkerProcess.progressDescriptor, F_GETFD) >= 0 ? WorkerProcess.progressDescriptor : nil
        let measured = measure(
            parserType, bytes: feed.bytes, iterations: iterations, warmup: warmup, chunkSize: chunkSize,
            progressDescriptor: progress, slowdownPercent: slowdownPercent)
        return MeasureWorkerReport(
            parser: name, feedBytes: feed.bytes.count, digest: measured.digest, iterations: measured.iterations,
            peakResidentBytes: PeakMemory.currentProcessPeakBytes())
    }

    /// Times `parserType` over `bytes`; see ``run(parser:feed:iterations:warmup:chunkSize:)``.
    ///
    /// When `progressDescriptor` is open, one byte is written to it after each iteration, once the
    /// clocks have stopped (the parent opens it only to draw a progress line on a terminal).
    public static func measure(
        _ parserType: any SongFeedParser.Type, bytes: [UInt8], iterations: Int, warmup: Int, chunkSize: Int,
        progressDescriptor: Int32? = nil, slowdownPercent: Int = 0
    ) -> (iterations: [MeasureWorkerReport.Iteration], digest: String?) {
        var tick: UInt8 = 0x2E
        let total = max(0, warmup) + max(0, iterations)
        var results: [MeasureWorkerReport.Iteration] = []
        results.reserveCapacity(total)
        var errors: [Int: String] = [:]
        var kept: [Song] = []
        var lastGood: [Song] = []
        // Set by the song callback; a class so that the closure allocates its context once, here.
        let firstSong = Timestamp()
        let onSong: (Song) -> Void = { _ in
            if firstSong.value == 0 { firstSong.value = monotonicNanoseconds() }
        }
        let step = max(1, chunkSize == 0 ? bytes.count : chunkSize)
        // Read the environment before the clocks start, not in the first parse.
        _ = HashSeeding.deterministic
        let extraBytes = min(bytes.count, bytes.count * max(0, slowdownPercent) / 100)
        bytes.withUnsafeBytes { all in
            for index in 0..<total {
                firstSong.value = 0
                var failure: (any Error)?
                var songs: [Song] = []
                // ---- timed region ----
                let cpuStart = threadCPUNanoseconds()
                let wallStart = monotonicNanoseconds()
                do {
                    songs = try callgrindParseRegion(parserType, all, step: step, onSong: onSong, extraBytes: extraBytes)
                } catch {
                    failure = error
                }
                let wallEnd = monotonicNanoseconds()
                let cpuEnd = threadCPUNanoseconds()
                // ---- end of timed region ----
                kept = songs
                let first = firstSong.value == 0 ? nil : Int(firstSong.value - wallStart)
                results.append(.init(
                    wallNs: Int(wallEnd - wallStart), cpuNs: Int(cpuEnd &- cpuStart), firstSongNs: first,
                    songs: songs.count, error: nil))
                if let failure { errors[index] = "\(failure)" } else { lastGood = kept }
                if let progressDescriptor { _ = write(progressDescriptor, &tick, 1) }
            }
        }
        blackHole(kept)
        for (index, message) in errors { results[index].error = message }
        // Every measured iteration must build as many songs as the last good one.
        let measured = Array(results.suffix(max(0, iterations)))
        let expected = lastGood.count
        let checked = measured.map { iteration -> MeasureWorkerReport.Iteration in
            var iteration = iteration
            if iteration.error == nil && iteration.songs != expected {
                iteration.error = "built \(iteration.songs) songs, other iterations \(expected)"
            }
            return iteration
        }
        let anyGood = checked.contains { $0.error == nil }
        return (checked, anyGood ? SongDigest.sha256(of: lastGood) : nil)
    }

    /// One parse: a fresh parser, the feed pushed `step` bytes at a time, `finish()`.
    ///
    /// Its own function, never inlined, so that `bench run --counter instructions` can tell
    /// callgrind to count only while it runs (`--toggle-collect`) and to write the count of each
    /// call apart (`--dump-after`): see ``InstructionCounter``. Keep its name unique in the program.
    ///
    /// `extraBytes` > 0 is the injected slowdown that validates the regression gate: after the
    /// parse, a second parser of the same kind parses the feed's first `extraBytes` bytes (which end
    /// mid-document, so it fails; its songs and its error are dropped). That is extra parse work in
    /// the proportion `extraBytes` / feed size, done by the code under test.
    @inline(never)
    static func callgrindParseRegion(
        _ parserType: any SongFeedParser.Type, _ all: UnsafeRawBufferPointer, step: Int, onSong: @escaping (Song) -> Void,
        extraBytes: Int
    ) throws -> [Song] {
        let parser = try parserType.init(onSong: onSong)
        var offset = 0
        while offset < all.count {
            let end = min(offset + step, all.count)
            try parser.consume(UnsafeRawBufferPointer(rebasing: all[offset..<end]))
            offset = end
        }
        let songs = try parser.finish()
        if extraBytes > 0 {
            let extra = try parserType.init(onSong: nil)
            var offset = 0
            while offset < extraBytes {
                let end = min(offset + step, extraBytes)
                try? extra.consume(UnsafeRawBufferPointer(rebasing: all[offset..<end]))
                offset = end
            }
            _ = try? extra.finish()
        }
        return songs
    }

    private final class Timestamp: @unchecked Sendable {
        var value: UInt64 = 0
    }
}

/// The CPU time of the calling thread in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`).
public func threadCPUNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Keeps a value alive and opaque to the optimizer, so that the work that made it cannot be dropped.
@inline(never)
@_optimize(none)
public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
