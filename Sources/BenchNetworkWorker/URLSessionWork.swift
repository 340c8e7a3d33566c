import BenchResults
import BenchWorker
import FeedParsers
import FeedTransport
import Foundation
import SongFeed

/// The network worker executable: what `bench` starts for the jobs that fetch over HTTP, with
/// its job as JSON on standard input.
///
/// The worker that parses from memory (`WorkerTool`) with every fetch over URLSession
/// (FeedTransport), whose libraries it does not load. A package whose parsers run the download
/// scenarios adds an executable target whose `main.swift` is
///
/// ```swift
/// import BenchNetworkWorker
///
/// NetworkWorkerTool.main(parsers: appParsers)
/// ```
///
/// and names it in its tool's `BenchTool.main(parsers:worker:networkWorker:)`.
public enum NetworkWorkerTool {
    /// Registers `parsers` beside the built-in ones, runs the job on standard input, and exits (as
    /// `WorkerTool.main(parsers:)` does).
    public static func main(parsers: [any SongFeedParser.Type] = []) -> Never {
        WorkerTool.main(parsers: parsers, network: URLSessionWork.self)
    }
}

/// The network worker's work: every fetch with URLSession (FeedTransport).
package enum URLSessionWork: NetworkWork {
    package static func download(_ job: DownloadJob) throws -> DownloadWorkerReport {
        try DownloadWorker.run(job)
    }

    package static func fetch(
        _ job: PracticeJob, parser: any SongFeedParser.Type
    ) throws -> (PagedFetchMeasurement, [Song]) {
        guard let url = job.url else { throw WorkFailure(description: "a network cell needs the feed's URL") }
        switch job.practice {
        case .paged(let size):
            return try PagedWork.fetch(pageSize: size, parser: parser, url: url, timeout: job.timeout)
        case .fields(let selected):
            return try FieldsWork.fetch(selected: selected, parser: parser, url: url, timeout: job.timeout)
        case .gzip(let on): return try GzipWork.fetch(on: on, parser: parser, url: url, timeout: job.timeout)
        case .queue(let width, let size, let cancel):
            return try QueueWork.fetch(
                width: width, pageSize: size, cancel: cancel, parser: parser, url: url, entries: job.entries,
                timeout: job.timeout)
        case .store, .read: throw WorkFailure(description: "\(job.practice.cell) cells do not fetch")
        }
    }

    package static func firstPage(
        width: Int, pageSize: Int, parser: any SongFeedParser.Type, url: URL, entries: Int, timeout: Double
    ) throws -> (digest: String, firstPage: [Song]) {
        try CancelWork.firstPage(
            width: width, pageSize: pageSize, parser: parser, url: url, entries: entries, timeout: timeout)
    }

    /// The whole feed in one request, as a one-page fetch.
    static func fetchWhole(
        _ url: URL, parser: any SongFeedParser.Type, gzip: Bool, timeout: Double
    ) throws -> (PagedFetchMeasurement, [Song]) {
        let result = try FeedDownloader(timeout: timeout).fetch(url, parser: parser, gzip: gzip)
        let m = result.measurement
        return (
            PagedFetchMeasurement(
                requests: 1, bytes: m.bytes, wireBytes: m.wireBytes ?? m.bytes, downloadNs: m.downloadNs,
                parseNs: m.parseNs, totalNs: m.totalNs, firstSongNs: m.firstSongNs, songs: result.songs.count),
            result.songs
        )
    }
}

/// A network job that cannot run, and why.
struct WorkFailure: Error, CustomStringConvertible {
    var description: String
}
