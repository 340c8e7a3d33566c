import BenchResults
import FeedParsers
import Foundation
import SongFeed

/// Fetching a feed that comes in pages, as a GData client does.
public enum PagedFetch {
    /// Follows the feed's next links from `url` until a page has none; a fresh `parser` per page.
    ///
    /// - Throws: ``DownloadError`` for a failed page, or a `loop` one when a next link leads back
    ///   to a page already fetched, or when there are more than `maxPages`.
    public static func followingNextLinks(
        from url: URL, parser: any SongFeedParser.Type, downloader: FeedDownloader, gzip: Bool = false,
        maxPages: Int = 10_000
    ) throws -> (measurement: PagedFetchMeasurement, songs: [Song]) {
        var songs: [Song] = []
        var seen: Set<String> = [url.absoluteString]
        var next: URL? = url
        var start: UInt64?
        var measured = PagedFetchMeasurement(
            requests: 0, bytes: 0, wireBytes: 0, downloadNs: 0, parseNs: 0, totalNs: 0, songs: 0)
        while let page = next {
            var pageStart: UInt64 = 0
            let result: FetchResult
            do {
                result = try downloader.fetch(page, parser: parser, gzip: gzip, keepHead: headBytes) { time in
                    pageStart = time
                    if start == nil { start = time }
                }
            } catch var error as DownloadError {
                error.message = "page \(measured.requests + 1) (\(page.relativeString)): " + error.message
                throw error
            }
            let offset = Int(pageStart &- (start ?? pageStart))
            let m = result.measurement
            measured.requests += 1
            measured.bytes += m.bytes
            measured.wireBytes += m.wireBytes ?? m.bytes
            measured.parseNs += m.parseNs
            measured.downloadNs = offset + m.downloadNs
            measured.totalNs = offset + m.totalNs
            if measured.firstSongNs == nil, let first = m.firstSongNs { measured.firstSongNs = offset + first }
            songs += result.songs
            next = nil
            if let link = NextLink.find(in: result.head) {
                guard let resolved = URL(string: link, relativeTo: page)?.absoluteURL else {
                    throw DownloadError(
                        kind: .other, message: "page \(measured.requests): unreadable next link '\(link.prefix(200))'",
                        bytesReceived: m.bytes)
                }
                guard seen.insert(resolved.absoluteString).inserted else {
                    throw DownloadError(
                        kind: .loop,
                        message:
                            "page \(measured.requests): the next link leads back to a page already fetched (\(resolved.relativeString))",
                        bytesReceived: m.bytes)
                }
                guard measured.requests < maxPages else {
                    throw DownloadError(kind: .loop, message: "more than \(maxPages) pages", bytesReceived: m.bytes)
                }
                next = resolved
            }
        }
        measured.songs = songs.count
        return (measured, songs)
    }

    /// The URLs of the pages of `pageSize` entries of a feed of `entries` entries.
    public static func pageURLs(_ base: URL, entries: Int, pageSize: Int, fields: String? = nil) -> [URL] {
        stride(from: 1, through: max(1, entries), by: max(1, pageSize)).compactMap { start in
            var components = URLComponents(url: base, resolvingAgainstBaseURL: true)
            var items = components?.queryItems ?? []
            items.append(URLQueryItem(name: "start-index", value: String(start)))
            items.append(URLQueryItem(name: "max-results", value: String(pageSize)))
            if let fields { items.append(URLQueryItem(name: "fields", value: fields)) }
            components?.queryItems = items
            return components?.url
        }
    }

    /// Fetches `pages` through a bounded queue (an `OperationQueue` of width `maxConcurrent`).
    ///
    /// The first page goes at `.veryHigh` priority, the others at `.normal`, all queued before the queue
    /// starts. With `cancelAfterFirstPage`, everything is cancelled the moment the first page's songs
    /// are in (the user left): queued requests never start, running ones are cancelled, bytes still
    /// arriving are not parsed, and only the first page's songs are kept.
    ///
    /// - Throws: ``DownloadError`` for a failed page (not for one ended by the cancel).
    public static func queued(
        _ pages: [URL], parser: any SongFeedParser.Type, maxConcurrent: Int, cancelAfterFirstPage: Bool = false,
        timeout: Double
    ) throws -> (measurement: PagedFetchMeasurement, songs: [Song]) {
        let downloader = FeedDownloader(timeout: timeout, maxConnections: maxConcurrent)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = max(1, maxConcurrent)
        queue.isSuspended = true
        let state = QueueState()
        let origin = monotonicNow()
        var operations: [FetchOperation] = []
        let parserType = ParserType(type: parser)
        for (index, page) in pages.enumerated() {
            // Asynchronous operations: no thread waits for a download. (Operations that block their
            // thread starve libdispatch's pool, which URLSession itself runs on: on this 2-core
            // machine four blocked operations delayed the first page by 3 s.)
            let operation = FetchOperation { startedAt, done in
                guard state.start(page: index, operationStartedAt: startedAt, at: monotonicNow()) else { return done() }
                do {
                    try downloader.start(page, parser: parserType.type) { result in
                        switch result {
                        case .success(let fetched):
                            state.finish(page: index, with: fetched, at: monotonicNow())
                            if index == 0 && cancelAfterFirstPage {
                                state.cancelled(at: monotonicNow())
                                queue.cancelAllOperations()
                                state.queueCancelled(at: monotonicNow())
                                downloader.cancelAll()
                            }
                        case .failure(let error):
                            state.fail(page: index, error)
                        }
                        done()
                    }
                } catch {
                    state.fail(page: index, error)
                    done()
                }
            }
            operation.queuePriority = index == 0 ? .veryHigh : .normal
            operations.append(operation)
        }
        // The first page is queued last, yet starts first: its priority is what puts it ahead.
        queue.addOperations(Array(operations.dropFirst()) + Array(operations.prefix(1)), waitUntilFinished: false)
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        let settled = monotonicNow()
        return try state.result(
            origin: origin, settled: settled, cancelling: cancelAfterFirstPage, afterCancel: downloader.afterCancel)
    }

    /// How many bytes of each page are kept to find its next link (it comes before the entries).
    static let headBytes = 16_384
}

/// An asynchronous operation: `body` starts the work and calls its second argument when the work is
/// done; its first is when the queue started the operation (the monotonic clock on entry to `start()`).
private final class FetchOperation: Operation, @unchecked Sendable {
    private let body: (UInt64, @escaping @Sendable () -> Void) -> Void
    private let lock = NSLock()
    private var executing = false
    private var done = false

    init(_ body: @escaping (UInt64, @escaping @Sendable () -> Void) -> Void) {
        self.body = body
    }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { lock.withLock { executing } }
    override var isFinished: Bool { lock.withLock { done } }

    override func start() {
        let startedAt = monotonicNow()
        guard !isCancelled else { return finish() }
        willChangeValue(forKey: "isExecuting")
        lock.withLock { executing = true }
        didChangeValue(forKey: "isExecuting")
        body(startedAt) { self.finish() }
    }

    private func finish() {
        willChangeValue(forKey: "isExecuting")
        willChangeValue(forKey: "isFinished")
        lock.withLock {
            executing = false
            done = true
        }
        didChangeValue(forKey: "isFinished")
        didChangeValue(forKey: "isExecuting")
    }
}

/// A parser type handed to the queue's threads (a metatype is immutable).
private struct ParserType: @unchecked Sendable {
    let type: any SongFeedParser.Type
}

/// The pages of one queued fetch, written from the queue's threads under a lock.
private final class QueueState: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Int: FetchResult] = [:]
    private var startTimes: [Int: UInt64] = [:]
    private var finishTimes: [Int: UInt64] = [:]
    private var errors: [Int: DownloadError] = [:]
    private var cancelTime: UInt64?
    private var queueCancelTime: UInt64?
    private var runningAtCancel = 0
    private var startedAfterCancel = 0
    private var active = 0

    /// Whether the page may start (not once cancelled).
    ///
    /// An operation the queue started once `cancelAllOperations()` had returned (it should have
    /// dropped it) counts in `startedAfterCancel`. One it started before, whose body only got here
    /// after the cancel, does not, nor one started between the cancel and the queue's being told
    /// (a busy machine widens that gap: CI once counted one there): its request is not made either way.
    func start(page: Int, operationStartedAt: UInt64, at time: UInt64) -> Bool {
        lock.withLock {
            if cancelTime != nil {
                if let queueCancelTime, operationStartedAt >= queueCancelTime { startedAfterCancel += 1 }
                return false
            }
            startTimes[page] = time
            active += 1
            return true
        }
    }

    func finish(page: Int, with result: FetchResult, at time: UInt64) {
        lock.withLock {
            results[page] = result
            finishTimes[page] = time
            active -= 1
        }
    }

    func fail(page: Int, _ error: any Error) {
        lock.withLock {
            active -= 1
            errors[page] =
                (error as? DownloadError) ?? DownloadError(kind: .other, message: "\(error)", bytesReceived: 0)
        }
    }

    /// The cancel came: the pages still running are counted, and no page starts from now on.
    func cancelled(at time: UInt64) {
        lock.withLock {
            cancelTime = time
            runningAtCancel = active
        }
    }

    /// The queue has been told (`cancelAllOperations()` returned): what it starts from now on, it
    /// started after the cancel.
    func queueCancelled(at time: UInt64) {
        lock.withLock { queueCancelTime = time }
    }

    func result(
        origin: UInt64, settled: UInt64, cancelling: Bool, afterCancel: (bytes: Int, parseNs: Int)
    ) throws -> (measurement: PagedFetchMeasurement, songs: [Song]) {
        try lock.withLock {
            // A page ended by the cancel is not a failure; any other failure is.
            if let (page, error) = errors.sorted(by: { $0.key < $1.key }).first(where: {
                !(cancelling && $0.value.kind == .cancelled)
            }) {
                var error = error
                error.message = "page \(page + 1): " + error.message
                throw error
            }
            let first = startTimes.values.min() ?? origin
            func since(_ time: UInt64) -> Int { Int(time &- first) }
            let kept = cancelling ? results.filter { $0.key == 0 } : results
            var measured = PagedFetchMeasurement(
                requests: startTimes.count, bytes: 0, wireBytes: 0, downloadNs: 0, parseNs: 0, totalNs: 0, songs: 0)
            var songs: [Song] = []
            for (page, result) in results.sorted(by: { $0.key < $1.key }) {
                let m = result.measurement
                let start = startTimes[page] ?? first
                measured.bytes += m.bytes
                measured.wireBytes += m.wireBytes ?? m.bytes
                measured.parseNs += m.parseNs
                measured.downloadNs = max(measured.downloadNs, since(start) + m.downloadNs)
                if kept[page] != nil {
                    songs += result.songs
                    measured.totalNs = max(measured.totalNs, since(finishTimes[page] ?? start))
                }
                if page == 0, let firstSong = m.firstSongNs { measured.firstSongNs = since(start) + firstSong }
            }
            if cancelling, let cancelTime {
                measured.cancel = CancelMeasurement(
                    runningAtCancel: runningAtCancel, startedAfterCancel: startedAfterCancel,
                    bytesAfterCancel: afterCancel.bytes, parseNsAfterCancel: afterCancel.parseNs,
                    settleNs: Int(settled &- cancelTime), otherPagesCompleted: results.count - kept.count)
            } else if cancelling {
                throw DownloadError(
                    kind: .other, message: "the first page never completed, so nothing was cancelled", bytesReceived: 0)
            } else if results.count != startTimes.count || results.isEmpty {
                throw DownloadError(
                    kind: .other, message: "\(startTimes.count - results.count) page(s) did not complete",
                    bytesReceived: 0)
            }
            measured.songs = songs.count
            measured.startOrder = startTimes.sorted { $0.value < $1.value }.map(\.key)
            return (measured, songs)
        }
    }
}
