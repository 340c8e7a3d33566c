import FeedParsers
import Foundation
import SongFeed

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension FeedDownloader {
    /// The session's delegate: routes each task's events to its ``Download``.
    final class Delegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var downloads: [Int: Download] = [:]
        private var tasks: [Int: URLSessionTask] = [:]
        /// When ``FeedDownloader/cancelAll()`` was called, if it was.
        private var cancelledAt: UInt64?
        private var bytesAfterCancel = 0
        private var parseAfterCancel: UInt64 = 0

        /// Registers a download; `false` once everything has been cancelled.
        func set(_ download: Download, for task: URLSessionTask) -> Bool {
            lock.withLock {
                guard cancelledAt == nil else { return false }
                downloads[task.taskIdentifier] = download
                tasks[task.taskIdentifier] = task
                return true
            }
        }

        func cancelAll(at time: UInt64) {
            let running = lock.withLock {
                if cancelledAt == nil { cancelledAt = time }
                return Array(tasks.values)
            }
            for task in running { task.cancel() }
        }

        var cancelTime: UInt64? { lock.withLock { cancelledAt } }

        var afterCancel: (bytes: Int, parseNs: Int) {
            lock.withLock { (bytesAfterCancel, Int(parseAfterCancel)) }
        }

        func remove(_ task: URLSessionTask) {
            lock.withLock {
                downloads[task.taskIdentifier] = nil
                tasks[task.taskIdentifier] = nil
            }
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
            // curl inflates a compressed body by itself; its Content-Length is the size on the wire.
            let encoding = http.value(forHTTPHeaderField: "Content-Encoding")?.lowercased()
            state.contentEncoding = encoding == nil || encoding == "identity" ? nil : encoding
            state.expected =
                http.value(forHTTPHeaderField: "Content-Length").flatMap { Int64($0) } ?? http.expectedContentLength
            state.etag = http.value(forHTTPHeaderField: "ETag")
            state.lastModified = http.value(forHTTPHeaderField: "Last-Modified")
            let acceptable = http.statusCode == 200 || (http.statusCode == 304 && state.acceptNotModified)
            if !acceptable {
                // The server's own words (a 400's message) are read, then the download fails.
                state.refusedStatus = http.statusCode
                completionHandler(state.expected >= 0 && state.expected <= 4_096 ? .allow : .cancel)
                if state.expected < 0 || state.expected > 4_096 { state.failRefused() }
                return
            }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            guard let state = download(dataTask), state.error == nil else { return }
            if state.refusedStatus != nil {
                state.body.append(contentsOf: data.prefix(max(0, 4_096 - state.body.count)))
                return
            }
            if cancelTime != nil {
                // Bytes already on their way when the cancel came: counted, never parsed.
                lock.withLock { bytesAfterCancel += data.count }
                return
            }
            let now = monotonicNow()
            if state.firstByte == nil { state.firstByte = now }
            // The last byte so far arrived now, before this chunk's parse: download time never
            // includes parse work queued behind it.
            state.lastByte = now
            state.bytes += data.count
            if state.keepBody { state.body.append(contentsOf: data) }
            if state.head.count < state.keepHead {
                state.head.append(contentsOf: data.prefix(state.keepHead - state.head.count))
            }
            guard state.activeParser != nil else { return }
            let before = monotonicNow()
            do {
                try data.withUnsafeBytes { try state.consume($0) }
            } catch {
                state.fail(.parse, "\(error)")
                dataTask.cancel()
            }
            let after = monotonicNow()
            state.parseTime += after - before
            if let cancelled = cancelTime, cancelled < after {
                // A parse that was running when the cancel came: its part after the cancel.
                lock.withLock { parseAfterCancel += after - max(before, cancelled) }
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let state = download(task) else { return }
            // A body with no data callback (a 304, an empty body) ends when the task completes.
            if state.lastByte == 0 { state.lastByte = monotonicNow() }
            if state.refusedStatus != nil { state.failRefused() }
            // Cancelled: whatever still came (even the whole body) is not this download's result.
            if cancelTime != nil { state.fail(.cancelled, "cancelled") }
            let encoded = state.contentEncoding != nil
            let short = state.status == 200 && state.expected >= 0 && Int64(state.bytes) < state.expected
            if let error, state.error == nil {
                let nsError = error as NSError
                switch nsError.code {
                case NSURLErrorCancelled: state.fail(.cancelled, "cancelled")
                case _ where encoded && state.status == 200:
                    // curl checks a compressed body's length and its gzip trailer itself.
                    state.fail(
                        .truncated,
                        "\(state.contentEncoding ?? "compressed") body cut short or corrupt: \(nsError.localizedDescription) (Content-Length \(state.expected), \(state.bytes) bytes inflated)"
                    )
                case NSURLErrorTimedOut:
                    state.fail(.timedOut, "no data for the time limit (\(nsError.localizedDescription))")
                case NSURLErrorCannotConnectToHost, NSURLErrorCannotFindHost:
                    state.fail(.connectionFailed, "cannot connect: \(nsError.localizedDescription)")
                case NSURLErrorNetworkConnectionLost:
                    state.fail(.truncated, "connection lost in the middle of the body: \(nsError.localizedDescription)")
                default:
                    // curl reports a body cut short by a close as a generic error.
                    if short {
                        state.fail(
                            .truncated,
                            "body shorter than its Content-Length: \(state.bytes) of \(state.expected) bytes (\(nsError.localizedDescription))"
                        )
                    } else {
                        state.fail(.other, "\(nsError.localizedDescription) (URLError \(nsError.code))")
                    }
                }
            }
            if state.error == nil, state.status == 200, !encoded, state.expected >= 0,
                Int64(state.bytes) != state.expected
            {
                state.fail(.truncated, "body of \(state.bytes) bytes, but its Content-Length is \(state.expected)")
            }
            if state.error == nil, state.status == 200, state.activeParser != nil {
                let before = monotonicNow()
                do {
                    state.songs = try state.finishParsing() ?? []
                } catch {
                    state.fail(.parse, "\(error)")
                }
                state.parseTime += monotonicNow() - before
            }
            state.ready = monotonicNow()
            state.finished?()
            state.finished = nil
        }
    }
}
