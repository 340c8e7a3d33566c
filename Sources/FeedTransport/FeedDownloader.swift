import BenchResults
import FeedParsers
import Foundation
import SongFeed

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches a feed with URLSession, as an app would, and hands each chunk to a push parser the
/// moment it arrives (on Linux, URLSession's data delegate delivers at most 16,384 bytes a call).
///
/// Every request bypasses caches (ephemeral session, no URL cache, `reloadIgnoringLocalCacheData`);
/// a conditional request sends `If-None-Match` and `If-Modified-Since` itself. Each request names
/// its `Accept-Encoding` (`identity` unless asked for gzip: URLSession on Linux would otherwise ask
/// for compression by itself); a compressed body is inflated by URLSession (curl) as it arrives,
/// and the parser is fed the inflated bytes. A stall longer than the time limit, a refused
/// connection, a reset, a body shorter than its `Content-Length`, or a status other than 200 (or
/// 304 when asked for) ends the download with a ``DownloadError``; ``cancelAll()`` ends every
/// download in progress with a `cancelled` one.
public final class FeedDownloader: @unchecked Sendable {
    private let session: URLSession
    private let delegate: Delegate
    private let timeout: Double

    /// - Parameters:
    ///   - timeout: seconds without progress before a download is abandoned.
    ///   - maxConnections: connections to one host at once (a fetch queue's width).
    public init(timeout: Double = 30, maxConnections: Int = 1) {
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = max(timeout * 20, 600)
        configuration.httpMaximumConnectionsPerHost = max(1, maxConnections)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        delegate = Delegate()
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Downloads `url`, parsing with a fresh `parser` as the bytes arrive (`nil`: keep the body).
    ///
    /// - Parameters:
    ///   - url: the feed's URL.
    ///   - parser: the parser to push the bytes into as they arrive; `nil` parses nothing.
    ///   - conditional: validators of an earlier response; the request then carries
    ///     `If-None-Match` / `If-Modified-Since` and a 304 is a success.
    ///   - keepBody: keep the body's bytes in the result (for a cache, or to check them).
    ///   - gzip: ask for a gzip body (`Accept-Encoding: gzip`) instead of `identity`.
    ///   - keepHead: keep the body's first bytes, up to this many.
    ///   - started: called with the request's start time (`monotonicNow()`) just before it starts.
    /// - Returns: the measurement, the songs (none for a 304) and the body when asked for.
    /// - Throws: ``DownloadError``.
    public func fetch(
        _ url: URL, parser: (any SongFeedParser.Type)?, conditional: (etag: String?, lastModified: String?)? = nil,
        keepBody: Bool = false, gzip: Bool = false, keepHead: Int = 0, started: ((UInt64) -> Void)? = nil
    ) throws -> FetchResult {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.setValue(gzip ? "gzip" : "identity", forHTTPHeaderField: "Accept-Encoding")
        if let conditional {
            if let etag = conditional.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
            if let date = conditional.lastModified { request.setValue(date, forHTTPHeaderField: "If-Modified-Since") }
        }
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        try start(
            url, parser: parser, conditional: conditional, keepBody: keepBody, gzip: gzip, keepHead: keepHead,
            started: started
        ) {
            outcome.value = $0
            done.signal()
        }
        done.wait()
        guard let result = outcome.value else {
            throw DownloadError(kind: .other, message: "no result", bytesReceived: 0)
        }
        return try result.get()
    }

    private final class Outcome: @unchecked Sendable {
        var value: Result<FetchResult, DownloadError>?
    }

    /// Starts the download of ``fetch(_:parser:conditional:keepBody:gzip:keepHead:started:)`` and
    /// returns at once: `completion` is called on the session's delegate queue when it ends.
    ///
    /// No thread waits for it (an `OperationQueue` of asynchronous operations runs on this).
    public func start(
        _ url: URL, parser: (any SongFeedParser.Type)?, conditional: (etag: String?, lastModified: String?)? = nil,
        keepBody: Bool = false, gzip: Bool = false, keepHead: Int = 0, started: ((UInt64) -> Void)? = nil,
        completion: @escaping @Sendable (Result<FetchResult, DownloadError>) -> Void
    ) throws {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.setValue(gzip ? "gzip" : "identity", forHTTPHeaderField: "Accept-Encoding")
        if let conditional {
            if let etag = conditional.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
            if let date = conditional.lastModified { request.setValue(date, forHTTPHeaderField: "If-Modified-Since") }
        }
        let state = try Download(parserType: parser, acceptNotModified: conditional != nil, keepBody: keepBody)
        state.keepHead = keepHead
        let task = session.dataTask(with: request)
        let delegate = self.delegate
        state.finished = {  // a cycle until the download ends: then `finished` is dropped
            delegate.remove(task)
            if let error = state.error {
                completion(.failure(error))
            } else {
                completion(
                    .success(
                        FetchResult(
                            measurement: state.measurement(), songs: state.songs, body: state.body, head: state.head)))
            }
        }
        guard delegate.set(state, for: task) else {
            throw DownloadError(kind: .cancelled, message: "cancelled before it started", bytesReceived: 0)
        }
        state.started = monotonicNow()
        started?(state.started)
        task.resume()
    }

    /// Cancels every download in progress, and every later one: each ends with a `cancelled`
    /// ``DownloadError``; bytes that still arrive are counted (``afterCancel``), never parsed.
    public func cancelAll() {
        delegate.cancelAll(at: monotonicNow())
    }

    /// What still happened after ``cancelAll()``: body bytes delivered, and time spent inside
    /// parser calls after the cancel (a call already running when it came is counted from the cancel).
    public var afterCancel: (bytes: Int, parseNs: Int) { delegate.afterCancel }

    /// One download's state; touched only on the session's serial delegate queue, then read by
    /// `fetch` after the semaphore.
    final class Download: @unchecked Sendable {
        /// The push parser fed as bytes arrive, if any.
        ///
        /// A parser may be a value: it is pushed and finished in place (``consume(_:)``,
        /// ``finishParsing()``), never through a copy.
        private(set) var activeParser: (any SongFeedParser)?

        /// Pushes `chunk` into ``activeParser`` (nothing when there is none).
        func consume(_ chunk: UnsafeRawBufferPointer) throws {
            try activeParser?.consume(chunk)
        }

        /// Ends ``activeParser``'s document: its songs, or `nil` when there is no parser.
        func finishParsing() throws -> [Song]? {
            try activeParser?.finish()
        }
        let acceptNotModified: Bool
        let keepBody: Bool
        /// Called once, when the download has ended.
        var finished: (() -> Void)?
        var started: UInt64 = 0
        var firstByte: UInt64?
        var lastByte: UInt64 = 0
        var ready: UInt64 = 0
        var firstSong: UInt64?
        var parseTime: UInt64 = 0
        var bytes = 0
        var expected: Int64 = -1
        var status = 0
        var etag: String?
        var lastModified: String?
        var songs: [Song] = []
        var body: [UInt8] = []
        var keepHead = 0
        var head: [UInt8] = []
        var contentEncoding: String?
        var error: DownloadError?

        init(parserType: (any SongFeedParser.Type)?, acceptNotModified: Bool, keepBody: Bool) throws {
            self.acceptNotModified = acceptNotModified
            self.keepBody = keepBody
            // The parser reports its first song to this object, through a weak box (no cycle).
            if let parserType {
                let box = WeakDownload()
                activeParser = try parserType.init(
                    songEnded: SongEndSignal {
                        if let download = box.value, download.firstSong == nil { download.firstSong = monotonicNow() }
                    })
                box.value = self
            }
        }

        /// A status other than the ones asked for; its body (a short message) is read first.
        var refusedStatus: Int?

        func failRefused() {
            guard let code = refusedStatus else { return }
            var message = "HTTP \(code) \(HTTPURLResponse.localizedString(forStatusCode: code))"
            let said = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if !said.isEmpty { message += " — the server said: \(said.prefix(500))" }
            body = []
            fail(.httpStatus, message)
        }

        func fail(_ kind: DownloadError.Kind, _ message: String) {
            if error == nil { error = DownloadError(kind: kind, message: message, bytesReceived: bytes) }
        }

        func measurement() -> DownloadMeasurement {
            func since(_ time: UInt64?) -> Int? { time.map { Int($0 &- started) } }
            return DownloadMeasurement(
                status: status, bytes: bytes,
                wireBytes: contentEncoding == nil ? bytes : (expected >= 0 ? Int(expected) : nil),
                contentEncoding: contentEncoding, downloadNs: Int(lastByte &- started), parseNs: Int(parseTime),
                totalNs: Int(ready &- started), firstByteNs: since(firstByte), firstSongNs: since(firstSong),
                songs: songs.count, etag: etag, lastModified: lastModified)
        }
    }

    final class WeakDownload {
        weak var value: Download?
    }
}

func monotonicNow() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}
