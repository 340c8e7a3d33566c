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

    /// The `fields=` selection that keeps every song field of an RSS item.
    public static let songFields = "item(title,category,itms:artist,itms:album,itms:releasedate)"

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
    /// ``SongDigest`` of the songs of the whole feed, as this worker's way got them (for `cancel`,
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

/// The worker side of the practice cells.
public enum PracticeWorker {
    /// Runs `warmup` + `iterations` iterations of the practice and reports the last `iterations`.
    public static func run(_ job: PracticeJob) throws -> PracticeWorkerReport {
        let parserType = try ParserRegistry.worker(job.parser)
        let (practice, url, entries, timeout, warmup) = (job.practice, job.url, job.entries, job.timeout, job.warmup)
        try AllocationCounter.check(counting: false)
        var report = PracticeWorkerReport(parser: job.parser, cell: practice.cell.name, iterations: [])
        var expectedPrefix: [Song]?
        if case .queue(let width, let size, true) = practice, let url {
            // The cancelled fetches keep the first page: check it against the whole, uncancelled fetch.
            let whole = try PagedFetch.queued(
                PagedFetch.pageURLs(url, entries: entries, pageSize: size), parser: parserType, maxConcurrent: width,
                timeout: timeout)
            report.digest = SongDigest.sha256(of: whole.songs)
            expectedPrefix = Array(whole.songs.prefix(size))
        }
        let feedBytes = try job.feed.map { path -> [UInt8] in
            guard let data = FileManager.default.contents(atPath: path) else {
                throw VerifyWorkerError(description: "cannot read \(path)")
            }
            return [UInt8](data)
        }
        for index in 0..<(max(0, warmup) + max(0, job.iterations)) {
            var iteration = PracticeWorkerReport.Iteration()
            do {
                switch practice {
                case .store(let plan):
                    guard let feedBytes else {
                        throw VerifyWorkerError(description: "a store cell needs the feed's file")
                    }
                    let path = (job.scratchDirectory as NSString).appendingPathComponent("songs-\(getpid()).sqlite")
                    defer {
                        for suffix in ["", "-journal", "-wal"] {
                            try? FileManager.default.removeItem(atPath: path + suffix)
                        }
                    }
                    let (measurement, songs, settings) = try store(
                        feedBytes, parser: parserType, plan: plan, path: path)
                    iteration.store = measurement
                    report.storeSettings = settings
                    report.digest = SongDigest.sha256(of: songs)
                default:
                    guard let url else { throw VerifyWorkerError(description: "a network cell needs the feed's URL") }
                    let (measurement, songs) = try fetch(
                        practice, parser: parserType, url: url, entries: entries, timeout: timeout)
                    iteration.fetch = measurement
                    if let expectedPrefix {
                        if songs != expectedPrefix {
                            iteration.error =
                                "after the cancel, the kept songs are not the first page's (\(songs.count) songs kept)"
                        }
                    } else {
                        report.digest = SongDigest.sha256(of: songs)
                    }
                }
            } catch {
                iteration.error = "\(error)"
            }
            if index >= warmup { report.iterations.append(iteration) }
        }
        report.peakResidentBytes = PeakMemory.currentProcessPeakBytes()
        return report
    }

    static func fetch(
        _ practice: Practice, parser: any SongFeedParser.Type, url: URL, entries: Int, timeout: Double
    ) throws -> (PagedFetchMeasurement, [Song]) {
        switch practice {
        case .paged(let size):
            let first = PagedFetch.pageURLs(url, entries: 1, pageSize: size)[0]
            return try PagedFetch.followingNextLinks(
                from: first, parser: parser, downloader: FeedDownloader(timeout: timeout))
        case .fields(let selected), .gzip(let selected):
            var target = url
            var gzip = false
            if case .fields = practice, selected {
                var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
                components?.queryItems = [URLQueryItem(name: "fields", value: Practice.songFields)]
                target = components?.url ?? url
            }
            if case .gzip = practice { gzip = selected }
            let result = try FeedDownloader(timeout: timeout).fetch(target, parser: parser, gzip: gzip)
            let m = result.measurement
            return (
                PagedFetchMeasurement(
                    requests: 1, bytes: m.bytes, wireBytes: m.wireBytes ?? m.bytes, downloadNs: m.downloadNs,
                    parseNs: m.parseNs,
                    totalNs: m.totalNs, firstSongNs: m.firstSongNs, songs: result.songs.count), result.songs
            )
        case .queue(let width, let size, let cancel):
            return try PagedFetch.queued(
                PagedFetch.pageURLs(url, entries: entries, pageSize: size), parser: parser, maxConcurrent: width,
                cancelAfterFirstPage: cancel, timeout: timeout)
        case .store:
            throw VerifyWorkerError(description: "store cells do not fetch")
        }
    }

    /// Parses the feed from memory, then writes its songs as the plan says, into a fresh store.
    static func store(
        _ bytes: [UInt8], parser: any SongFeedParser.Type, plan: SongStore.Plan, path: String
    ) throws -> (StoreMeasurement, [Song], SongStore.Settings) {
        let parseStart = monotonicNanoseconds()
        let songs = try parser.parse(bytes, chunkSize: 16_384)
        let parseNs = Int(monotonicNanoseconds() - parseStart)
        // Untimed: a fresh database and its table, and the songs put in the plan's order.
        let queue = try SongStore.create(at: path, plan: plan, songs: songs.count)
        let ordered = SongStore.ordered(songs, plan: plan)
        let storeStart = monotonicNanoseconds()
        try SongStore.write(ordered, to: queue, plan: plan)
        let storeNs = Int(monotonicNanoseconds() - storeStart)
        let written = try SongStore.count(queue)
        guard written == songs.count else {
            throw VerifyWorkerError(description: "the store holds \(written) songs, not \(songs.count)")
        }
        return (
            StoreMeasurement(parseNs: parseNs, storeNs: storeNs, songs: songs.count), songs,
            try SongStore.settings(queue)
        )
    }
}
