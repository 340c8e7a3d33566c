import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// The local feed server: serves feed files over HTTP/1.1 on 127.0.0.1, shaped by a
/// ``NetworkProfile``.
///
/// Each feed is served by its file name (`/top300.rss.xml`) with `Content-Length`, a strong `ETag`
/// (an FNV-1a 64 hash of the file's bytes and length: enough to tell versions of a feed apart) and `Last-Modified` (the file's modification time). A `GET` with a
/// matching `If-None-Match`, or with `If-Modified-Since` not older than the file when there is no
/// `If-None-Match`, gets `304 Not Modified`; `HEAD` gets the headers alone. Every response waits the
/// profile's round-trip time, then sends the body in slices every 10 ms at the profile's bandwidth.
/// Each connection serves one request (`Connection: close`).
///
/// Faults, for tests and for trying a client, are switched on by the query string:
/// `?fault=404`, `?fault=500`, `?fault=reset&at=N` (reset the connection after N body bytes),
/// `?fault=short&at=N` (announce the full length, send N bytes, close), `?fault=stall&at=N` (send N
/// bytes, then nothing, keeping the connection open).
///
/// ```swift
/// let server = try FeedServer.start(feeds: ["Data/top300.rss.xml"], profile: .wifi)
/// print(server.url(for: "top300.rss.xml"))
/// try server.stop()
/// ```
public final class FeedServer: Sendable {
    /// One served file.
    public struct Feed: Sendable {
        public var name: String
        public var bytes: [UInt8]
        public var etag: String
        public var lastModified: Date
    }

    public let profile: NetworkProfile
    /// The port the server listens on (127.0.0.1).
    public let port: Int
    private let feeds: [String: Feed]
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel

    /// Starts a server for the given feed files on an ephemeral port of 127.0.0.1 (or `port`).
    ///
    /// - Throws: ``FeedServerError`` when a feed cannot be read or the port cannot be bound.
    public static func start(feeds paths: [String], profile: NetworkProfile, port: Int = 0) throws -> FeedServer {
        var feeds: [String: Feed] = [:]
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw FeedServerError(description: "cannot read feed \(path)")
            }
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            let modified = (attributes?[.modificationDate] as? Date) ?? Date()
            let name = (path as NSString).lastPathComponent
            let bytes = [UInt8](data)
            // A strong validator from the content: the same bytes give the same ETag on every run.
            let etag = "\"\(FeedServer.contentTag(bytes))\""
            feeds[name] = Feed(name: name, bytes: bytes, etag: etag, lastModified: Date(timeIntervalSince1970: modified.timeIntervalSince1970.rounded(.down)))
        }
        return try FeedServer(feeds: feeds, profile: profile, port: port)
    }

    private init(feeds: [String: Feed], profile: NetworkProfile, port: Int) throws {
        self.feeds = feeds
        self.profile = profile
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let served = feeds
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 64)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(FeedRequestHandler(feeds: served, profile: profile))
                }
            }
        do {
            channel = try bootstrap.bind(host: "127.0.0.1", port: port).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw FeedServerError(description: "cannot listen on 127.0.0.1:\(port): \(error)")
        }
        self.group = group
        self.port = channel.localAddress?.port ?? port
    }

    /// The URL of a served feed, by file name.
    public func url(for name: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name)")
            ?? URL(fileURLWithPath: "/")
    }

    /// The served feeds' names, sorted.
    public var feedNames: [String] { feeds.keys.sorted() }

    /// Stops listening, closes every connection and ends the event loop.
    public func stop() throws {
        try? channel.close().wait()
        try group.syncShutdownGracefully()
    }

    /// Blocks until the server stops (for `bench serve`).
    public func wait() throws {
        try channel.closeFuture.wait()
    }

    static func contentTag(_ bytes: [UInt8]) -> String {
        // FNV-1a 64 over the bytes plus the length: enough to tell versions of a feed apart.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3  // wrapping multiplication is FNV's definition
        }
        return String(hash, radix: 16) + "-" + String(bytes.count, radix: 16)
    }
}

/// The server could not start.
public struct FeedServerError: Error, CustomStringConvertible, Sendable {
    public var description: String
}

/// A fault the server injects into one response.
enum InjectedFault: Equatable {
    case status(Int)
    case reset(after: Int)
    case short(after: Int)
    case stall(after: Int)

    init?(query: String?) {
        // A query that is not a valid one (a bad percent escape) injects no fault.
        guard let query, let components = URLComponents(string: "http://localhost/?" + query) else { return nil }
        var fields: [String: String] = [:]
        for item in components.queryItems ?? [] where fields[item.name] == nil {
            fields[item.name] = item.value
        }
        let at = fields["at"].flatMap(Int.init) ?? 0
        switch fields["fault"] {
        case "404": self = .status(404)
        case "500": self = .status(500)
        case "reset": self = .reset(after: at)
        case "short": self = .short(after: at)
        case "stall": self = .stall(after: at)
        default: return nil
        }
    }

    /// Body bytes to send before the fault strikes.
    var cutoff: Int? {
        switch self {
        case .status: return nil
        case .reset(let n), .short(let n), .stall(let n): return n
        }
    }
}

/// Answers one request per connection; runs on the connection's event loop only.
final class FeedRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let feeds: [String: FeedServer.Feed]
    private let profile: NetworkProfile
    private var head: HTTPRequestHead?
    private var responding = false

    /// How long a client may take to send its whole request: a slow or silent client (slowloris)
    /// is disconnected instead of holding its connection for ever.
    static let requestTimeLimit = TimeAmount.seconds(10)
    private var requestDeadline: Scheduled<Void>?

    init(feeds: [String: FeedServer.Feed], profile: NetworkProfile) {
        self.feeds = feeds
        self.profile = profile
    }

    func handlerAdded(context: ChannelHandlerContext) {
        requestDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: Self.requestTimeLimit) {
            if !self.responding { context.close(promise: nil) }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        requestDeadline?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break
        case .end:
            guard let head, !responding else { return }
            responding = true
            requestDeadline?.cancel()
            respond(to: head, context: context)
        }
    }

    private func respond(to request: HTTPRequestHead, context: ChannelHandlerContext) {
        let parts = request.uri.split(separator: "?", maxSplits: 1).map(String.init)
        let path = parts.first ?? "/"
        let fault = InjectedFault(query: parts.count > 1 ? parts[1] : nil)
        let name = String(path.drop { $0 == "/" }).removingPercentEncoding ?? ""
        let loop = context.eventLoop.assumeIsolated()
        let delay = TimeAmount.milliseconds(Int64(profile.rttMs))

        guard request.method == .GET || request.method == .HEAD else {
            loop.scheduleTask(in: delay) { self.sendStatus(.methodNotAllowed, context: context) }
            return
        }
        if case .status(let code) = fault {
            loop.scheduleTask(in: delay) { self.sendStatus(HTTPResponseStatus(statusCode: code), context: context) }
            return
        }
        guard let feed = feeds[name] else {
            loop.scheduleTask(in: delay) { self.sendStatus(.notFound, context: context) }
            return
        }

        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/rss+xml; charset=utf-8")
        headers.add(name: "ETag", value: feed.etag)
        headers.add(name: "Last-Modified", value: HTTPDate.format(feed.lastModified))
        headers.add(name: "Cache-Control", value: "no-cache")
        headers.add(name: "Connection", value: "close")
        if Self.notModified(request.headers, feed: feed) {
            headers.add(name: "Content-Length", value: "0")
            loop.scheduleTask(in: delay) {
                context.write(self.wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .notModified, headers: headers))), promise: nil)
                self.finish(context: context)
            }
            return
        }
        headers.add(name: "Content-Length", value: String(feed.bytes.count))
        let sendBody = request.method == .GET
        loop.scheduleTask(in: delay) {
            context.write(self.wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
            guard sendBody else {
                self.finish(context: context)
                return
            }
            let limit = min(fault?.cutoff ?? feed.bytes.count, feed.bytes.count)
            self.sendBody(feed.bytes, upTo: limit, from: 0, started: .now(), fault: fault, context: context)
        }
    }

    /// Sends the body in slices every 10 ms at the profile's bandwidth (at once when unshaped).
    private func sendBody(_ bytes: [UInt8], upTo limit: Int, from offset: Int, started: NIODeadline, fault: InjectedFault?, context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        var end = limit
        if let rate = profile.bytesPerSecond {
            let elapsed = Double((NIODeadline.now() - started).nanoseconds) / 1e9
            // Bytes allowed by now, at least one 10 ms slice ahead so that the first write is not empty.
            end = min(limit, max(offset + 1, Int(rate * (elapsed + 0.01))))
        }
        if end > offset {
            var buffer = context.channel.allocator.buffer(capacity: end - offset)
            buffer.writeBytes(bytes[offset..<end])
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        if end < limit {
            context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(10)) {
                self.sendBody(bytes, upTo: limit, from: end, started: started, fault: fault, context: context)
            }
            return
        }
        switch fault {
        case .reset:
            // SO_LINGER 0: close with a TCP reset instead of an orderly shutdown.
            if let provider = context.channel as? any SocketOptionProvider {
                let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
                provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in loopBound.value.close(promise: nil) }
            } else {
                context.close(promise: nil)
            }
        case .short:
            context.close(promise: nil)
        case .stall:
            break  // send nothing more; the client's time limit must end it
        case .status, .none:
            finish(context: context)
        }
    }

    private func sendStatus(_ status: HTTPResponseStatus, context: ChannelHandlerContext) {
        let body = "\(status.code) \(status.reasonPhrase)\n"
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: String(body.utf8.count))
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        var buffer = context.channel.allocator.buffer(capacity: body.utf8.count)
        buffer.writeString(body)
        context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        finish(context: context)
    }

    private func finish(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in loopBound.value.close(promise: nil) }
    }

    static func notModified(_ headers: HTTPHeaders, feed: FeedServer.Feed) -> Bool {
        let tags = headers[canonicalForm: "If-None-Match"].map(String.init)
        if !tags.isEmpty {
            return tags.contains { $0 == "*" || $0 == feed.etag || $0 == "W/" + feed.etag }
        }
        if let since = headers.first(name: "If-Modified-Since").flatMap(HTTPDate.parse) {
            return feed.lastModified <= since
        }
        return false
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// HTTP dates (RFC 9110 IMF-fixdate): "Sun, 06 Nov 1994 08:49:37 GMT".
public enum HTTPDate {
    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }

    public static func format(_ date: Date) -> String { formatter().string(from: date) }

    public static func parse(_ text: String) -> Date? { formatter().date(from: text) }
}
