import BenchResults
import FeedParsers
import FeedTransport
import Foundation
import SongFeed
import SongStore

/// The practices around the parse that an app chooses (`bench run --scenario paged,fields,gzip,
/// queue,store`): each is a set of cells, one per choice, named by the choice.
///
/// | scenario | cells | one iteration |
/// |---|---|---|
/// | `paged` | `paged-N` per page size | follow the next links from the first page of N songs to the end |
/// | `fields` | `fields-all`, `fields-songs` | the whole feed, without / with `?fields=` naming the song fields |
/// | `gzip` | `gzip-off`, `gzip-on` | the whole feed, `Accept-Encoding: identity` / `gzip` |
/// | `queue` | `queue-N`, `cancel-N` per width | every page through a queue of width N; `cancel`: cancel all once page 1's songs are in |
/// | `store` | `store-song-ordered`, `store-song-shuffled`, `store-batch-ordered`, `store-batch-shuffled` | parse the feed in memory, then write its songs to SQLite |
public enum Practice: Codable, Sendable, Equatable {
    case paged(pageSize: Int)
    case fields(selected: Bool)
    case gzip(on: Bool)
    case queue(width: Int, pageSize: Int, cancel: Bool)
    case store(SongStore.Plan)

    /// The cell it is measured in.
    public var cell: CellScenario {
        switch self {
        case .paged(let size): return CellScenario(.paged, choice: String(size))
        case .fields(let selected): return CellScenario(.fields, choice: selected ? "songs" : "all")
        case .gzip(let on): return CellScenario(.gzip, choice: on ? "on" : "off")
        case .queue(let width, _, let cancel): return CellScenario(cancel ? .cancel : .queue, choice: String(width))
        case .store(let plan): return CellScenario(name: plan.description)
        }
    }

    /// The practice a cell measures (`pageSize` for the queue's pages), or `nil`.
    public init?(cell: CellScenario, queuePageSize: Int = 25) {
        guard let kind = cell.kind, let choice = cell.choice else { return nil }
        switch kind {
        case .paged:
            guard let size = Int(choice), size > 0 else { return nil }
            self = .paged(pageSize: size)
        case .fields where choice == "all" || choice == "songs": self = .fields(selected: choice == "songs")
        case .gzip where choice == "on" || choice == "off": self = .gzip(on: choice == "on")
        case .queue, .cancel:
            guard let width = Int(choice), width > 0 else { return nil }
            self = .queue(width: width, pageSize: queuePageSize, cancel: kind == .cancel)
        case .store:
            guard let plan = SongStore.Plan(cellName: cell.name) else { return nil }
            self = .store(plan)
        default: return nil
        }
    }

    /// Whether its cells fetch over HTTP (all but `store`).
    public var usesNetwork: Bool {
        if case .store = self { return false }
        return true
    }

    /// Requests one iteration makes at most (for the worker's time limit).
    public func requests(entries: Int) -> Int {
        switch self {
        case .paged(let size): return max(1, (entries + size - 1) / size)
        case .queue(_, let size, _): return max(1, (entries + size - 1) / size)
        case .fields, .gzip, .store: return 1
        }
    }
}

/// What a practice worker reports: one entry per measured iteration.
public struct PracticeWorkerReport: Codable, Sendable {
    public struct Iteration: Codable, Sendable {
        public var fetch: PagedFetchMeasurement?
        public var store: StoreMeasurement?
        public var error: String?
    }

    public var parser: String
    public var cell: String
    /// `SongDigest` of the songs of the whole feed, as this worker's way got them (for `cancel`,
    /// from the uncancelled fetch it makes first).
    public var digest: String?
    public var iterations: [Iteration]
    public var peakResidentBytes: Int?
    /// The song store's settings (`store` cells).
    public var storeSettings: SongStore.Settings?
}

/// What one `store` iteration measured.
public struct StoreMeasurement: Codable, Sendable, Equatable {
    /// The parse of the feed's bytes (in memory, 16 KiB chunks), ns.
    public var parseNs: Int
    /// Writing the songs: every transaction, commit included, ns.
    public var storeNs: Int
    public var songs: Int
}

/// The worker side of the practice cells; what one iteration does is in each practice's scenario
/// type (`PagedScenario`, `FieldsScenario`, `GzipScenario`, `QueueScenario`,
/// `CancelScenario`, `StoreScenario`).
public enum PracticeWorker {
    /// Runs `warmup` + `iterations` iterations of the practice and reports the last `iterations`.
    ///
    /// - Parameter job: the practice, the parser and where the feed is.
    /// - Returns: one entry per measured iteration; an iteration that failed has its error.
    /// - Throws: an unknown parser, an unreadable feed, or (for `cancel`) a failed uncancelled fetch.
    public static func run(_ job: PracticeJob) throws -> PracticeWorkerReport {
        let parserType = try ParserRegistry.worker(job.parser)
        try AllocationCounter.check(counting: false)
        var report = PracticeWorkerReport(parser: job.parser, cell: job.practice.cell.name, iterations: [])
        var firstPage: [Song]?
        if case .queue(let width, let size, true) = job.practice, let url = job.url {
            // The cancelled fetches keep the first page: check it against the whole, uncancelled fetch.
            let whole = try CancelScenario.firstPage(
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
                    let fetched = try fetch(job, parser: parserType)
                    iteration.fetch = fetched.0
                    songs = fetched.1
                }
                if let firstPage {
                    iteration.error = CancelScenario.check(kept: songs, firstPage: firstPage)
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

    /// One `store` iteration into a fresh database in `directory`, removed afterwards.
    static func store(
        _ bytes: [UInt8], parser: any SongFeedParser.Type, plan: SongStore.Plan, in directory: String
    ) throws -> (StoreMeasurement, [Song], SongStore.Settings) {
        let path = (directory as NSString).appendingPathComponent("songs-\(getpid()).sqlite")
        defer {
            for suffix in ["", "-journal", "-wal"] {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
        }
        return try StoreScenario.store(bytes, parser: parser, plan: plan, path: path)
    }

    /// One iteration of a network practice.
    static func fetch(_ job: PracticeJob, parser: any SongFeedParser.Type) throws -> (PagedFetchMeasurement, [Song]) {
        guard let url = job.url else { throw VerifyWorkerError(description: "a network cell needs the feed's URL") }
        switch job.practice {
        case .paged(let size):
            return try PagedScenario.fetch(pageSize: size, parser: parser, url: url, timeout: job.timeout)
        case .fields(let selected):
            return try FieldsScenario.fetch(selected: selected, parser: parser, url: url, timeout: job.timeout)
        case .gzip(let on): return try GzipScenario.fetch(on: on, parser: parser, url: url, timeout: job.timeout)
        case .queue(let width, let size, let cancel):
            return try QueueScenario.fetch(
                width: width, pageSize: size, cancel: cancel, parser: parser, url: url, entries: job.entries,
                timeout: job.timeout)
        case .store: throw VerifyWorkerError(description: "store cells do not fetch")
        }
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
