import Foundation
import NIOCore
import NIOHTTP1

/// One shaped link: its bandwidth is shared by every response in flight at once, as a real link's
/// is, so that fetching pages side by side shows what concurrency really buys (the round trips
/// overlap; the bytes do not go faster).
///
/// Every 10 ms the link earns the bytes its bandwidth allows for the time since its last turn and
/// shares them fairly among the responses with bytes waiting (each gets an equal share; a share one
/// cannot use goes to the others). An idle link starts with one 10 ms slice, so that the first bytes
/// of a response leave at once. Confined to the server's single event loop.
final class NetworkLink: @unchecked Sendable {
    let bytesPerSecond: Double
    private let eventLoop: any EventLoop
    private var flows: [any LinkFlow] = []
    private var timer: Scheduled<Void>?
    private var lastTurn = NIODeadline.now()
    private var credit = 0.0

    static let slice = TimeAmount.milliseconds(10)

    init(bytesPerSecond: Double, eventLoop: any EventLoop) {
        self.bytesPerSecond = bytesPerSecond
        self.eventLoop = eventLoop
    }

    /// A response with bytes to send joins the link.
    func add(_ flow: any LinkFlow) {
        eventLoop.preconditionInEventLoop()
        guard !flows.contains(where: { $0 === flow }) else { return }
        flows.append(flow)
        if timer == nil {
            lastTurn = .now()
            credit = bytesPerSecond * 0.01
            turn()
        }
    }

    /// A response that ended (or whose connection closed) leaves the link.
    func remove(_ flow: any LinkFlow) {
        flows.removeAll { $0 === flow }
    }

    private func turn() {
        let now = NIODeadline.now()
        credit += bytesPerSecond * Double((now - lastTurn).nanoseconds) / 1e9
        lastTurn = now
        // A send can close a connection, whose shaper then leaves the link: share out a copy.
        var sharing = flows
        flows = []
        credit = Self.share(credit: credit, among: &sharing)
        flows = (sharing + flows).filter(\.hasBytesWaiting)
        if flows.isEmpty {
            timer = nil
            credit = 0
            return
        }
        timer = eventLoop.assumeIsolated().scheduleTask(in: Self.slice) { self.turn() }
    }

    /// Hands `credit` bytes out in equal shares to the flows, round after round, until it is spent or
    /// no flow has bytes waiting; returns the credit left.
    ///
    /// Flows with nothing more to send are
    /// dropped from `flows`.
    static func share(credit: Double, among flows: inout [any LinkFlow]) -> Double {
        var credit = credit
        while credit >= 1, !flows.isEmpty {
            let share = max(1, Int(credit) / flows.count)
            var sent = 0
            for flow in flows { sent += flow.send(upTo: share) }
            credit -= Double(sent)
            flows.removeAll { !$0.hasBytesWaiting }
            if sent == 0 { break }
        }
        return credit
    }
}

/// The server's links: the one every connection shares, and the links of their own that requests
/// ask for by number (`?link=K`, ``FeedServer/url(for:link:)``), made on first use; confined to the
/// server's single event loop.
final class NetworkLinks: @unchecked Sendable {
    let shared: NetworkLink
    private let bytesPerSecond: Double
    private let eventLoop: any EventLoop
    private var own: [Int: NetworkLink] = [:]

    init(bytesPerSecond: Double, eventLoop: any EventLoop) {
        self.bytesPerSecond = bytesPerSecond
        self.eventLoop = eventLoop
        shared = NetworkLink(bytesPerSecond: bytesPerSecond, eventLoop: eventLoop)
    }

    /// Link `number` (1 … `NetworkProfile.mostLinks`), at the profile's bandwidth, shared with no request that
    /// asks for another number.
    func link(_ number: Int) -> NetworkLink {
        eventLoop.preconditionInEventLoop()
        if let link = own[number] { return link }
        let link = NetworkLink(bytesPerSecond: bytesPerSecond, eventLoop: eventLoop)
        own[number] = link
        return link
    }
}

/// A response waiting for its turn on the link.
protocol LinkFlow: AnyObject {
    /// Sends at most `limit` bytes; returns the bytes sent.
    func send(upTo limit: Int) -> Int
    var hasBytesWaiting: Bool { get }
}

/// Sends a response's body through the ``NetworkLink`` (or at once when unshaped), and strikes the
/// response's fault, if it has one, after the fault's number of body bytes (as sent: compressed
/// bytes for a gzip response).
///
/// Sits between the HTTP encoder and the response compressor.
final class LinkShaper: ChannelDuplexHandler, RemovableChannelHandler, LinkFlow {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The link the response's body leaves on: the server's shared one, unless the request asked for
    /// one of its own (set by the request handler before it writes).
    var link: NetworkLink?
    /// The fault of the response being sent, set by the request handler before it writes.
    var fault: InjectedFault?
    /// Whether the response being sent bypasses the link (`?shaping=off`), set likewise.
    var unshaped = false
    private var context: ChannelHandlerContext?
    private var waiting: [ByteBuffer] = []
    private var end: (part: HTTPServerResponsePart, promise: EventLoopPromise<Void>?)?
    /// The head's promise completes with the end: the response compressor hands its caller's
    /// promise to the head it emits, and a caller that closes the connection when its write is done
    /// must not close it while the body is still on the link.
    private var headPromise: EventLoopPromise<Void>?
    private var bodyBytesSent = 0
    private var struck = false

    init(link: NetworkLink?) {
        self.link = link
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) {
        link?.remove(self)
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        link?.remove(self)
        struck = true
        waiting.removeAll()
        end?.promise?.fail(ChannelError.ioOnClosedChannel)
        end = nil
        headPromise?.fail(ChannelError.ioOnClosedChannel)
        headPromise = nil
        context.fireChannelInactive()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        switch part {
        case .head:
            headPromise = promise
            context.write(data, promise: nil)
        case .body(.byteBuffer(let buffer)):
            if !struck { waiting.append(buffer) }
            promise?.succeed()
        case .body(.fileRegion):
            promise?.fail(ChannelError.operationUnsupported)
        case .end:
            end = (part, promise)
        }
    }

    func flush(context: ChannelHandlerContext) {
        if let link, hasBytesWaiting, !unshaped {
            context.flush()  // the head leaves at once; the body follows at the link's pace
            link.add(self)
        } else {
            _ = send(upTo: Int.max)
            context.flush()
        }
    }

    var hasBytesWaiting: Bool { !struck && (!waiting.isEmpty || end != nil) }

    /// Sends at most `limit` body bytes (and the end, once the body is out); returns the bytes sent.
    func send(upTo limit: Int) -> Int {
        guard let context, context.channel.isActive, !struck else {
            waiting.removeAll()
            return 0
        }
        var sent = 0
        while sent < limit, !waiting.isEmpty {
            var allowed = limit - sent
            if let cutoff = fault?.cutoff { allowed = min(allowed, cutoff - bodyBytesSent) }
            if allowed <= 0 { break }
            var buffer = waiting[0]
            let count = min(allowed, buffer.readableBytes)
            if let slice = buffer.readSlice(length: count) {
                context.write(wrapOutboundOut(.body(.byteBuffer(slice))), promise: nil)
            }
            if buffer.readableBytes == 0 { waiting.removeFirst() } else { waiting[0] = buffer }
            sent += count
            bodyBytesSent += count
        }
        if sent > 0 { context.flush() }
        if let cutoff = fault?.cutoff, bodyBytesSent >= cutoff {
            strike(context: context)
        } else if waiting.isEmpty, let end {
            self.end = nil
            let written = context.writeAndFlush(wrapOutboundOut(end.part))
            if let promise = end.promise { written.cascade(to: promise) }
            if let promise = headPromise { written.cascade(to: promise) }
            headPromise = nil
        }
        return sent
    }

    /// The fault strikes: the connection is reset, closed early, or left open with nothing more sent.
    private func strike(context: ChannelHandlerContext) {
        struck = true
        waiting.removeAll()
        if case .stall = fault {
            // The end stays unsent (its promise fails when the connection closes).
        } else {
            end?.promise?.fail(ChannelError.ioOnClosedChannel)
            end = nil
            headPromise?.fail(ChannelError.ioOnClosedChannel)
            headPromise = nil
        }
        switch fault {
        case .reset:
            // SO_LINGER 0: close with a TCP reset instead of an orderly shutdown.
            if let provider = context.channel as? any SocketOptionProvider {
                let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
                provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
                    loopBound.value.close(promise: nil)
                }
            } else {
                context.close(promise: nil)
            }
        case .short:
            context.close(promise: nil)
        case .stall, .status, .loop, .none:
            break  // send nothing more; the client's time limit must end it
        }
    }
}
