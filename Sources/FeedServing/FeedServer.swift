import BenchResults
import FeedTransport
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// The local feed server: serves feed files over HTTP/1.1 on 127.0.0.1, shaped by a
/// `NetworkProfile`.
///
/// Each feed is served by its file name (`/top300.rss.xml`) with `Content-Length`, a strong `ETag`
/// (an FNV-1a 64 hash of the body's bytes and length: enough to tell versions apart) and
/// `Last-Modified` (the file's modification time). A `GET` with a matching `If-None-Match`, or with
/// `If-Modified-Since` not older than the file when there is no `If-None-Match`, gets
/// `304 Not Modified`; `HEAD` gets the headers alone.
///
/// As GData feeds are, a feed is served in pages (`?start-index=K&max-results=N`, 1-based, each page
/// an RSS channel with its items and an Atom `<link rel="next">` while items remain) and with only
/// some of each item's elements (`?fields=item(title,itms:artist)`); `FeedQuery` says what is
/// understood, and a query that cannot be honoured gets `400 Bad Request` with a message. Each page
/// has its own `ETag`. A request whose `Accept-Encoding` takes gzip gets a gzip body, compressed
/// whole by the system's zlib before it is sent (`GzipBody`; `Content-Length` is then the
/// compressed size).
///
/// Every response waits the profile's round-trip time, then its body leaves at the profile's
/// bandwidth through one `NetworkLink` shared by all the connections open at once. Each
/// connection serves one request (`Connection: close`). `?shaping=off` answers at once, at
/// loopback speed: a download worker's untimed warm-ups warm its process without spending the
/// profile's transfer time (``unshapedURL(for:)``). `?link=K` (1 … 64) sends the body over link K
/// instead, a link of the profile's bandwidth shared only by the requests that name K: download
/// workers side by side, each on its own link, as if on devices of their own (``url(for:link:)``).
///
/// Faults, for tests and for trying a client, are switched on by the query string:
/// `?fault=404`, `?fault=500`, `?fault=reset&at=N` (reset the connection after N body bytes as
/// sent), `?fault=short&at=N` (announce the full length, send N bytes, close), `?fault=stall&at=N`
/// (send N bytes, then nothing, keeping the connection open), `?fault=loop` (a page's next link
/// points back to the same page). `fault-start=K` limits the fault to the page that starts at K;
/// a page's next link keeps the fault.
///
/// ```swift
/// let server = try FeedServer.start(feeds: ["Data/top300.rss.xml"], profile: .wifi)
/// print(server.url(for: "top300.rss.xml"))
/// try server.stop()
/// ```
public final class FeedServer: FeedHost {
    /// One served file.
    final class Feed: Sendable {
        let name: String
        let content: PagedFeed
        let etag: String
        let lastModified: Date

        init(name: String, content: PagedFeed, etag: String, lastModified: Date) {
            self.name = name
            self.content = content
            self.etag = etag
            self.lastModified = lastModified
        }
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
        var pathsByName: [String: String] = [:]
        for path in paths {
            // A feed is served by its file name: two files of one name would hide one (the same file
            // twice is served once).
            let name = (path as NSString).lastPathComponent
            let resolved = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
            if let other = pathsByName[name] {
                guard other == resolved else {
                    throw FeedServerError(
                        description: "two feeds named \(name) (\(other) and \(resolved)): the server serves a feed by "
                            + "its file name; give one of them another name")
                }
                continue
            }
            pathsByName[name] = resolved
            // Only a regular file: a directory cannot be served, and a FIFO's read would wait for a writer.
            if let problem = FilePathProblem(path: path), problem != .missing {
                throw FeedServerError(description: "feed is \(problem.rawValue): \(path)")
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw FeedServerError(description: "cannot read feed \(path)")
            }
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            let modified = (attributes?[.modificationDate] as? Date) ?? Date()
            let bytes = [UInt8](data)
            // A strong validator from the content: the same bytes give the same ETag on every run.
            feeds[name] = Feed(
                name: name, content: PagedFeed(bytes: bytes), etag: FeedServer.entityTag(bytes),
                lastModified: Date(timeIntervalSince1970: modified.timeIntervalSince1970.rounded(.down)))
        }
        return try FeedServer(feeds: feeds, profile: profile, port: port)
    }

    private init(feeds: [String: Feed], profile: NetworkProfile, port: Int) throws {
        self.feeds = feeds
        self.profile = profile
        // One event loop: every connection, and the link they share, live on it.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let served = feeds
        let links = profile.bytesPerSecond.map { NetworkLinks(bytesPerSecond: $0, eventLoop: group.next()) }
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 64)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    let shaper = LinkShaper(link: links?.shared)
                    try channel.pipeline.syncOperations.addHandler(shaper)
                    try channel.pipeline.syncOperations.addHandler(
                        FeedRequestHandler(feeds: served, profile: profile, shaper: shaper, links: links))
                }
            }
        do {
            channel = try bootstrap.bind(host: "127.0.0.1", port: port).wait()
        } catch {
            try? group.syncShutdownGracefully()
            // The system's words for the usual cause, rather than the bind call's.
            let reason =
                (error as? IOError).map { String(cString: strerror($0.errnoCode)).lowercased() } ?? "\(error)"
            throw FeedServerError(description: "cannot listen on 127.0.0.1:\(port): \(reason)")
        }
        self.group = group
        self.port = channel.localAddress?.port ?? port
    }

    /// The URL of a served feed, by file name.
    public func url(for name: String) -> URL { url(for: name, query: nil) }

    /// The URL of a served feed, by file name, with a query string (none when `nil`).
    public func url(for name: String, query: String?) -> URL {
        let path = name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name
        return URL(string: "http://127.0.0.1:\(port)/\(path)" + (query.map { "?" + $0 } ?? ""))
            ?? URL(fileURLWithPath: "/")
    }

    /// ``url(for:query:)`` answered at once, without the profile's round trip and bandwidth
    /// (`shaping=off`): for untimed warm-ups.
    public func unshapedURL(for name: String) -> URL { url(for: name, query: "\(FeedRequestHandler.shapingItem)=off") }

    /// ``url(for:query:)`` sent over link `link` (1 … `NetworkProfile.mostLinks`) of the profile's
    /// bandwidth, shared by no request that names another: for download workers that run side by
    /// side, each as if alone.
    ///
    /// Each link is a timer and a list on the server's event loop, made on first use and kept.
    public func url(for name: String, link: Int) -> URL {
        url(for: name, query: "\(FeedRequestHandler.linkItem)=\(link)")
    }

    /// The served feeds' names, sorted.
    public var feedNames: [String] { feeds.keys.sorted() }

    /// The entries (RSS items, Atom entries) of a served feed, 0 when it cannot be paged.
    public func entryCount(of name: String) -> Int { feeds[name]?.content.entryCount ?? 0 }

    /// Stops listening, closes every connection and ends the event loop.
    public func stop() throws {
        try? channel.close().wait()
        try group.syncShutdownGracefully()
    }

    /// Blocks until the server stops (for `bench serve`).
    public func wait() throws {
        try channel.closeFuture.wait()
    }

    /// The strong ETag of a body.
    static func entityTag(_ bytes: [UInt8]) -> String { "\"\(contentTag(bytes))\"" }

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

/// A fault the server injects into one response.
enum InjectedFault: Equatable {
    case status(Int)
    case reset(after: Int)
    case short(after: Int)
    case stall(after: Int)
    /// A page's next link points back to the page itself.
    case loop

    init?(items: [URLQueryItem]) {
        var fields: [String: String] = [:]
        for item in items where fields[item.name] == nil {
            fields[item.name] = item.value
        }
        let at = fields["at"].flatMap(Int.init) ?? 0
        switch fields["fault"] {
        case "404": self = .status(404)
        case "500": self = .status(500)
        case "reset": self = .reset(after: at)
        case "short": self = .short(after: at)
        case "stall": self = .stall(after: at)
        case "loop": self = .loop
        default: return nil
        }
    }

    /// The faults `fault=` names, as ``init(items:)`` reads them (for the message of a bad one).
    static let kinds = ["404", "500", "reset", "short", "stall", "loop"]

    /// What is wrong with a query's fault items, in words; `nil` when it has none or they are valid.
    ///
    /// The server answers 400 with it: a fault asked for and not injected would pass a client's test.
    static func problem(_ items: [URLQueryItem]) -> String? {
        for item in items {
            let value = item.value ?? ""
            switch item.name {
            case "fault" where InjectedFault(items: [item]) == nil:
                return "fault must be one of \(kinds.joined(separator: ", ")), not '\(value)'"
            case "at" where (Int(value) ?? -1) < 0:
                return "at must be a count of body bytes (0 or more), not '\(value)'"
            case "fault-start" where (Int(value) ?? 0) < 1:
                return "fault-start must be an item number (1 or more), not '\(value)'"
            default: continue
            }
        }
        return nil
    }

    /// The fault of a query string (`nil` for none, or for a query that is not a valid one).
    init?(query: String?) {
        guard let query, let components = URLComponents(string: "http://localhost/?" + query) else { return nil }
        self.init(items: components.queryItems ?? [])
    }

    /// Body bytes to send before the fault strikes.
    var cutoff: Int? {
        switch self {
        case .status, .loop: return nil
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
    private let shaper: LinkShaper
    private let links: NetworkLinks?
    private var head: HTTPRequestHead?
    private var responding = false

    /// How long a client may take to send its whole request: a slow or silent client (slowloris)
    /// is disconnected instead of holding its connection for ever.
    static let requestTimeLimit = TimeAmount.seconds(10)
    private var requestDeadline: Scheduled<Void>?

    init(feeds: [String: FeedServer.Feed], profile: NetworkProfile, shaper: LinkShaper, links: NetworkLinks?) {
        self.feeds = feeds
        self.profile = profile
        self.shaper = shaper
        self.links = links
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
        let queryItems =
            parts.count > 1 ? (URLComponents(string: "http://localhost/?" + parts[1])?.queryItems ?? []) : []
        let name = String(path.drop { $0 == "/" }).removingPercentEncoding ?? ""
        let loop = context.eventLoop.assumeIsolated()
        let unshaped = queryItems.contains { $0.name == Self.shapingItem && $0.value == "off" }
        let delay = TimeAmount.milliseconds(unshaped ? 0 : Int64(profile.rttMs))
        func answer(_ status: HTTPResponseStatus, message: String? = nil) {
            loop.scheduleTask(in: delay) { self.sendStatus(status, message: message, context: context) }
        }

        guard request.method == .GET || request.method == .HEAD else { return answer(.methodNotAllowed) }
        if let problem = InjectedFault.problem(queryItems) { return answer(.badRequest, message: problem) }
        let query: FeedQuery
        do {
            query = try FeedQuery(queryItems: queryItems)
        } catch {
            return answer(.badRequest, message: "\(error)")
        }
        var link = links?.shared
        if let text = queryItems.first(where: { $0.name == Self.linkItem })?.value {
            guard let number = Int(text), (1...NetworkProfile.mostLinks).contains(number) else {
                return answer(
                    .badRequest, message: "\(Self.linkItem) must be an integer from 1 to \(NetworkProfile.mostLinks)")
            }
            link = links?.link(number)
        }
        let fault = Self.fault(queryItems, query: query)
        if case .status(let code) = fault { return answer(HTTPResponseStatus(statusCode: code)) }
        guard let feed = feeds[name] else { return answer(.notFound) }
        // The next link keeps the fault items (and points back to this page for `fault=loop`).
        let faultItems = queryItems.filter { ["fault", "at", "fault-start"].contains($0.name) }
        let body: [UInt8]
        do {
            body = try feed.content.body(for: query) { next in
                "/" + path.drop { $0 == "/" } + "?" + (fault == .loop ? query : next).queryString(extra: faultItems)
            }
        } catch {
            return answer(.badRequest, message: "\(error)")
        }
        let etag = query.isWholeFeed ? feed.etag : FeedServer.entityTag(body)
        var headers = Self.headers(etag: etag, lastModified: feed.lastModified)
        if Self.notModified(request.headers, etag: etag, lastModified: feed.lastModified) {
            headers.add(name: "Content-Length", value: "0")
            loop.scheduleTask(in: delay) {
                context.write(
                    self.wrapOutboundOut(
                        .head(HTTPResponseHead(version: .http1_1, status: .notModified, headers: headers))),
                    promise: nil)
                self.finish(context: context)
            }
            return
        }
        let sendBody = request.method == .GET
        // A HEAD response keeps the identity length: it has no body to compress.
        let zip = sendBody && GzipBody.accepted(request.headers["Accept-Encoding"])
        shaper.fault = fault
        shaper.unshaped = unshaped
        shaper.link = link
        loop.scheduleTask(in: delay) {
            // Compressed once the round trip has been waited, as a server compresses what it answers:
            // its time (10 ms for the top-300 feed) adds to the round trip's.
            var headers = headers
            var sent = body
            if zip, let zipped = GzipBody.compressed(body) {
                sent = zipped
                headers.add(name: "Content-Encoding", value: "gzip")
            }
            if sendBody, let cutoff = fault?.cutoff, cutoff >= sent.count {
                // Past the body's last byte the fault would never strike: said, not skipped.
                self.shaper.fault = nil
                self.sendStatus(
                    .badRequest,
                    message: "at=\(cutoff) is not before the end of the body (\(sent.count) bytes"
                        + (zip ? ", gzip" : "") + "): the fault would not strike", context: context)
                return
            }
            headers.add(name: "Content-Length", value: String(sent.count))
            context.write(
                self.wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))),
                promise: nil)
            if sendBody {
                var buffer = context.channel.allocator.buffer(capacity: sent.count)
                buffer.writeBytes(sent)
                context.write(self.wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
            }
            // The shaper paces the body (compressed, when it is) and strikes the fault.
            self.finish(context: context)
        }
    }

    /// The query item that turns the profile off for one response (`shaping=off`).
    static let shapingItem = "shaping"
    /// The query item that sends a response over a link of its own (`link=K`).
    static let linkItem = "link"

    /// The fault the query asks for, if any; `fault-start=N` limits it to the page that starts at item N.
    static func fault(_ queryItems: [URLQueryItem], query: FeedQuery) -> InjectedFault? {
        if let only = queryItems.first(where: { $0.name == "fault-start" })?.value.flatMap(Int.init),
            only != (query.startIndex ?? 1)
        {
            return nil
        }
        return InjectedFault(items: queryItems)
    }

    /// The headers of a feed response, but its length.
    static func headers(etag: String, lastModified: Date) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/rss+xml; charset=utf-8")
        headers.add(name: "ETag", value: etag)
        headers.add(name: "Last-Modified", value: HTTPDate.format(lastModified))
        headers.add(name: "Cache-Control", value: "no-cache")
        headers.add(name: "Vary", value: "Accept-Encoding")
        headers.add(name: "Connection", value: "close")
        return headers
    }

    private func sendStatus(_ status: HTTPResponseStatus, message: String? = nil, context: ChannelHandlerContext) {
        let body = "\(status.code) \(status.reasonPhrase)" + (message.map { ": " + $0 } ?? "") + "\n"
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: String(body.utf8.count))
        headers.add(name: "Connection", value: "close")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        var buffer = context.channel.allocator.buffer(capacity: body.utf8.count)
        buffer.writeString(body)
        context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        finish(context: context)
    }

    private func finish(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in loopBound.value.close(promise: nil) }
    }

    static func notModified(_ headers: HTTPHeaders, etag: String, lastModified: Date) -> Bool {
        let tags = headers[canonicalForm: "If-None-Match"].map(String.init)
        if !tags.isEmpty {
            return tags.contains { $0 == "*" || $0 == etag || $0 == "W/" + etag }
        }
        if let since = headers.first(name: "If-Modified-Since").flatMap(HTTPDate.parse) {
            return lastModified <= since
        }
        return false
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

extension FeedServer {
    /// Starts a server on an ephemeral port: what a run's plan is given to serve its feeds
    /// (`RunPlan.feedHost`).
    public static let starter: FeedHostStarter = { feeds, profile in
        try FeedServer.start(feeds: feeds, profile: profile)
    }
}
