import BenchResults
import BenchWorker
import FeedParsers
import FeedTransport
import Foundation
import SongFeed

/// The worker side of the `download` and `conditional` scenarios.
///
/// Each iteration fetches the feed with a fresh parser that consumes every chunk the moment it
/// arrives (Foundation's adapter buffers and parses once the body is complete, as the original
/// study did). For `conditional`, a second request follows with the first one's validators: it must
/// get 304 and the songs of the first are reused, as an app that keeps a cache would.
enum DownloadWorker {
    /// Downloads `warmup` + `iterations` times and reports the last `iterations`.
    ///
    /// The warm-ups fetch `DownloadJob/warmupURL` when there is one (the embedded server's
    /// unshaped URL: they warm the process, their times are not kept, and the profile's transfer
    /// time would only be waited). The parse's own peak memory is taken on the first download, warm-up
    /// or not, as before: a later one reuses the heap the first one grew, and shows no rise.
    static func run(_ job: DownloadJob) throws -> DownloadWorkerReport {
        let parserType = try ParserRegistry.worker(job.parser)
        let (warmup, conditional) = (max(0, job.warmup), job.conditional)
        try AllocationCounter.check(counting: false)
        let downloader = FeedDownloader(timeout: job.timeout)
        var results: [DownloadWorkerReport.Iteration] = []
        var lastSongs: [Song]?
        var window: PeakMemory.Window?
        var parsePeak: Int?
        for index in 0..<(warmup + max(0, job.iterations)) {
            let url = index < warmup ? job.warmupURL ?? job.url : job.url
            var iteration = DownloadWorkerReport.Iteration()
            do {
                if index == 0 { window = PeakMemory.Window.open() }
                let first = try downloader.fetch(url, parser: parserType)
                if index == 0 { parsePeak = window?.close() }
                iteration.download = first.measurement
                lastSongs = first.songs
                if conditional {
                    var again = try downloader.fetch(
                        url, parser: nil, conditional: (first.measurement.etag, first.measurement.lastModified)
                    )
                    .measurement
                    if again.status == 304 {
                        again.songs = first.songs.count  // the cached songs, reused
                    } else {
                        iteration.error = "the conditional request got HTTP \(again.status), not 304"
                    }
                    iteration.revalidation = again
                }
            } catch {
                iteration.error = "\(error)"
            }
            if index >= warmup { results.append(iteration) }
        }
        let lifetimePeak = [window?.lifetimePeakBefore, PeakMemory.currentProcessPeakBytes()].compactMap { $0 }.max()
        return DownloadWorkerReport(
            parser: job.parser, url: job.url.absoluteString, digest: lastSongs.map { SongDigest.sha256(of: $0) },
            iterations: results, peakResidentBytes: lifetimePeak, parsePeakBytes: parsePeak)
    }
}
