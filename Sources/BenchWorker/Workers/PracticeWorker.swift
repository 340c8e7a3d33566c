import BenchResults
import FeedParsers
import Foundation
import SongFeed
import SongStore

/// The worker side of the practice cells; what one iteration does is in each practice's work
/// (`StoreWork`, `ReadWork` here; the network practices' in the network worker,
/// ``NetworkWork``).
package enum PracticeWorker {
    /// Runs `warmup` + `iterations` iterations of the practice and reports the last `iterations`.
    ///
    /// - Parameter job: the practice, the parser and where the feed is.
    /// - Returns: one entry per measured iteration; an iteration that failed has its error.
    /// - Throws: an unknown parser, an unreadable feed, or (for `cancel`) a failed uncancelled fetch.
    package static func run(_ job: PracticeJob) throws -> PracticeWorkerReport {
        let parserType = try ParserRegistry.worker(job.parser)
        try AllocationCounter.check(counting: job.countAllocations)
        var report = PracticeWorkerReport(parser: job.parser, cell: job.practice.cell.name, iterations: [])
        var firstPage: [Song]?
        if case .queue(let width, let size, true) = job.practice, let url = job.url {
            // The cancelled fetches keep the first page: check it against the whole, uncancelled fetch.
            let whole = try NetworkWorkRegistry.registered().firstPage(
                width: width, pageSize: size, parser: parserType, url: url, entries: job.entries,
                timeout: job.timeout)
            report.digest = whole.digest
            firstPage = whole.firstPage
        }
        let feedBytes = try job.feed.map { path -> [UInt8] in
            guard let data = FileManager.default.contents(atPath: path) else {
                throw VerifyWorkerError(description: "cannot read \(path)")
            }
            return [UInt8](data)
        }
        if case .read(let choice) = job.practice {
            guard let feedBytes else { throw VerifyWorkerError(description: "a read cell needs the feed's file") }
            return try read(job, choice: choice, feed: feedBytes, parser: parserType, report: report)
        }
        for index in 0..<(max(0, job.warmup) + max(0, job.iterations)) {
            var iteration = PracticeWorkerReport.Iteration()
            do {
                let songs: [Song]
                if case .store(let plan) = job.practice {
                    guard let feedBytes else {
                        throw VerifyWorkerError(description: "a store cell needs the feed's file")
                    }
                    let stored = try store(feedBytes, parser: parserType, plan: plan, in: job.scratchDirectory)
                    iteration.store = stored.0
                    songs = stored.1
                    report.storeSettings = stored.2
                } else {
                    let fetched = try NetworkWorkRegistry.registered().fetch(job, parser: parserType)
                    iteration.fetch = fetched.0
                    songs = fetched.1
                }
                if let firstPage {
                    iteration.error =
                        songs == firstPage
                        ? nil : "after the cancel, the kept songs are not the first page's (\(songs.count) songs kept)"
                } else {
                    report.digest = SongDigest.sha256(of: songs)
                }
            } catch {
                iteration.error = "\(error)"
            }
            if index >= job.warmup { report.iterations.append(iteration) }
        }
        report.peakResidentBytes = PeakMemory.currentProcessPeakBytes()
        return report
    }

    /// A `read` cell's worker: the feed parsed and stored once (untimed), then one session of an
    /// app's screens per iteration; an iteration that fails (a locked or missing database, a table
    /// from elsewhere, a screen with other songs) has its message, and the next goes on.
    static func read(
        _ job: PracticeJob, choice: SongShelf.Choice, feed: [UInt8], parser: any SongFeedParser.Type,
        report: PracticeWorkerReport
    ) throws -> PracticeWorkerReport {
        var report = report
        let path = (job.scratchDirectory as NSString).appendingPathComponent("shelf-\(getpid()).sqlite")
        defer { SongStore.removeFiles(at: path) }
        let (shelf, digest) = try ReadWork.shelve(feed, parser: parser, path: path)
        report.digest = digest
        report.songs = shelf.songs.count
        let reader = SongShelfReader(shelf: shelf, choice: choice)
        report.storeSettings = try reader.settings()
        var next = 0
        for index in 0..<(max(0, job.warmup) + max(0, job.iterations)) {
            var iteration = PracticeWorkerReport.Iteration()
            do {
                iteration.read = try ReadWork.session(
                    reader, first: next, countingAllocations: job.countAllocations)
            } catch {
                iteration.error = "\(error)"
            }
            next += SongShelf.visitsPerIteration
            if index >= job.warmup { report.iterations.append(iteration) }
        }
        report.peakResidentBytes = PeakMemory.currentProcessPeakBytes()
        return report
    }

    /// One `store` iteration into a fresh database in `directory`, removed afterwards.
    static func store(
        _ bytes: [UInt8], parser: any SongFeedParser.Type, plan: SongStore.Plan, in directory: String
    ) throws -> (StoreMeasurement, [Song], SongStore.Settings) {
        let path = (directory as NSString).appendingPathComponent("songs-\(getpid()).sqlite")
        defer { SongStore.removeFiles(at: path) }
        return try StoreWork.store(bytes, parser: parser, plan: plan, path: path)
    }
}
