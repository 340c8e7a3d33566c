import FeedParsers
import Foundation
import SongFeed

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What one download measured. Times are nanoseconds from the moment the request was started.
public struct DownloadMeasurement: Codable, Sendable, Equatable {
    /// The HTTP status (200, or 304 for a conditional request that was not modified).
    public var status: Int
    /// Body bytes received.
    public var bytes: Int
    /// Request started → last byte received: stamped when the last data callback starts, before
    /// that chunk is parsed (the end of the task for a body without data).
    public var downloadNs: Int
    /// Time spent inside the parser's calls, the final `finish()` included.
    public var parseNs: Int
    /// Request started → songs ready.
    public var totalNs: Int
    /// Request started → first body byte.
    public var firstByteNs: Int?
    /// Request started → first song delivered.
    public var firstSongNs: Int?
    /// Songs built (for a 304, the cached ones reused).
    public var songs: Int
    /// The response's validators, for a later conditional request.
    public var etag: String?
    public var lastModified: String?
}

/// Why a download failed: what happened, and at which byte.
public struct DownloadError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        case connectionFailed, httpStatus, truncated, timedOut, parse, other
    }

    public var kind: Kind
    public var message: String
    /// Body bytes received before it failed.
    public var bytesReceived: Int

    public var description: String { "\(message) (after \(bytesReceived) body bytes)" }
}

/// Fetches a feed with URLSession, as an app would, and hands each chunk to a push parser the
/// moment it arrives (on Linux, URLSession's data delegate delivers at most 16,384 bytes a call).
///
/// Every request bypasses caches (ephemeral session, no URL cache, `reloadIgnoringLocalCacheData`);
/// a conditional request sends `If-None-Match` and `If-Modified-Since` itself. A stall longer than
/// the time limit, a refused connection, a reset, a body shorter than its `Content-Length`, or a
/// status other than 200 (or 304 when asked for) ends the download with a ``DownloadError``.
public final class FeedDownloader {
    private let session: URLSession
    private let delegate: Delegate
    private let timeout: Double

    /// - Parameter timeout: seconds without progress before a download is abandoned.
    public init(timeout: Double = 30) {
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = max(timeout * 20, 600)
        configuration.httpMaximumConnectionsPerHost = 1
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
    ///   - conditional: validators of an earlier response; the request then carries
    ///     `If-None-Match` / `If-Modified-Since` and a 304 is a success.
    ///   - keepBody: keep the body's bytes in the result (for a cache, or to check them).
    /// - Returns: the measurement, the songs (none for a 304) and the body when asked for.
    /// - Throws: ``DownloadError``.
    public func fetch(
        _ url: URL, parser: (any SongFeedParser.Type)?, conditional: (etag: String?, lastModified: String?)? = nil,
        keepBody: Bool = false
    ) throws -> (measurement: DownloadMeasurement, songs: [Song], body: [UInt8]) {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        if let conditional {
            if let etag = conditional.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
            if let date = conditional.lastModified { request.setValue(date, forHTTPHeaderField: "If-Modified-Since") }
        }
        let state = try Download(parserType: parser, acceptNotModified: conditional != nil, keepBody: keepBody)
        let done = DispatchSemaphore(value: 0)
        state.done = done
        let task = session.dataTask(with: request)
        delegate.set(state, for: task)
        state.started = monotonicNow()
        task.resume()
        done.wait()
        delegate.remove(task)
        if let error = state.error { throw error }
        return (state.measurement(), state.songs, state.body)
    }

    /// One download's state; touched only on the session's serial delegate queue, then read by
    /// `fetch` after the semaphore.
    final class Download: @unchecked Sendable {
        /// The push parser fed as bytes arrive, if any.
        private(set) var activeParser: (any SongFeedParser)?
        let acceptNotModified: Bool
        let keepBody: Bool
        var done: DispatchSemaphore?
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
        var error: DownloadError?

        init(parserType: (any SongFeedParser.Type)?, acceptNotModified: Bool, keepBody: Bool) throws {
            self.acceptNotModified = acceptNotModified
            self.keepBody = keepBody
            // The parser reports its first song to this object, through a weak box (no cycle).
            if let parserType {
                let box = WeakDownload()
                activeParser = try parserType.init(songEnded: SongEndSignal {
                    if let download = box.value, download.firstSong == nil { download.firstSong = monotonicNow() }
                })
                box.value = self
            }
        }

        func fail(_ kind: DownloadError.Kind, _ message: String) {
            if error == nil { error = DownloadError(kind: kind, message: message, bytesReceived: bytes) }
        }

        func measurement() -> DownloadMeasurement {
            func since(_ time: UInt64?) -> Int? { time.map { Int($0 &- started) } }
            return DownloadMeasurement(
                status: status, bytes: bytes, downloadNs: Int(lastByte &- started), parseNs: Int(parseTime),
                totalNs: Int(ready &- started), firstByteNs: since(firstByte), firstSongNs: since(firstSong),
                songs: songs.count, etag: etag, lastModified: lastModified)
        }
    }

    final class WeakDownload {
        weak var value: Download?
    }

    /// The session's delegate: routes each task's events to its ``Download``.
    final class Delegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var downloads: [Int: Download] = [:]

        func set(_ download: Download, for task: URLSessionTask) {
            lock.withLock { downloads[task.taskIdentifier] = download }
        }

        func remove(_ task: URLSessionTask) {
            _ = lock.withLock { downloads.removeValue(forKey: task.taskIdentifier) }
        }

        private func download(_ task: URLSessionTask) -> Download? {
            lock.withLock { downloads[task.taskIdentifier] }
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            guard let state = download(dataTask), let http = response as? HTTPURLResponse else {
                completionHandler(.cancel)
                return
            }
            state.status = http.statusCode
            state.expected = http.expectedContentLength
            state.etag = http.value(forHTTPHeaderField: "ETag")
            state.lastModified = http.value(forHTTPHeaderField: "Last-Modified")
            let acceptable = http.statusCode == 200 || (http.statusCode == 304 && state.acceptNotModified)
            if !acceptable {
                state.fail(.httpStatus, "HTTP \(http.statusCode) \(HTTPURLResponse.localizedString(forStatusCode: http.statusCode))")
                completionHandler(.cancel)
                return
            }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            guard let state = download(dataTask), state.error == nil else { return }
            let now = monotonicNow()
            if state.firstByte == nil { state.firstByte = now }
            // The last byte so far arrived now, before this chunk's parse: download time never
            // includes parse work queued behind it.
            state.lastByte = now
            state.bytes += data.count
            if state.keepBody { state.body.append(contentsOf: data) }
            guard let parser = state.activeParser else { return }
            let before = monotonicNow()
            do {
                try data.withUnsafeBytes { try parser.consume($0) }
            } catch {
                state.fail(.parse, "\(error)")
                dataTask.cancel()
            }
            state.parseTime += monotonicNow() - before
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let state = download(task) else { return }
            // A body with no data callback (a 304, an empty body) ends when the task completes.
            if state.lastByte == 0 { state.lastByte = monotonicNow() }
            let short = state.status == 200 && state.expected >= 0 && Int64(state.bytes) < state.expected
            if let error, state.error == nil {
                let nsError = error as NSError
                switch nsError.code {
                case NSURLErrorTimedOut: state.fail(.timedOut, "no data for the time limit (\(nsError.localizedDescription))")
                case NSURLErrorCannotConnectToHost, NSURLErrorCannotFindHost:
                    state.fail(.connectionFailed, "cannot connect: \(nsError.localizedDescription)")
                case NSURLErrorNetworkConnectionLost:
                    state.fail(.truncated, "connection lost in the middle of the body: \(nsError.localizedDescription)")
                default:
                    // curl reports a body cut short by a close as a generic error.
                    if short {
                        state.fail(.truncated, "body shorter than its Content-Length: \(state.bytes) of \(state.expected) bytes (\(nsError.localizedDescription))")
                    } else {
                        state.fail(.other, "\(nsError.localizedDescription) (URLError \(nsError.code))")
                    }
                }
            }
            if state.error == nil, state.status == 200, state.expected >= 0, Int64(state.bytes) != state.expected {
                state.fail(.truncated, "body of \(state.bytes) bytes, but its Content-Length is \(state.expected)")
            }
            if state.error == nil, state.status == 200, let parser = state.activeParser {
                let before = monotonicNow()
                do {
                    state.songs = try parser.finish()
                } catch {
                    state.fail(.parse, "\(error)")
                }
                state.parseTime += monotonicNow() - before
            }
            state.ready = monotonicNow()
            state.done?.signal()
        }
    }
}

func monotonicNow() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}
