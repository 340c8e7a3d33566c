import Foundation
import SongFeed

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The `foundation-stream` adapter: Foundation's `XMLParser(stream:)` on a thread of its own,
/// reading an `InputStream` that each pushed chunk feeds as it arrives, as an app streams a body
/// into it.
///
/// `XMLParser(stream:)` pulls: its `parse()` reads the stream a piece at a time (on Linux into
/// libxml2's push parser) and blocks until the stream ends. So the parse runs on a thread started
/// with the adapter, and ``consume(_:)`` hands each chunk to the stream (`ChunkInputStream`),
/// where the parse thread reads it: songs are built, and the first one reported, while later bytes
/// are still coming. Foundation on Linux has no bound stream pair (`Stream.getBoundStreams` is
/// missing), hence the adapter's own stream. ``finish()`` ends the stream and waits for the thread.
///
/// Same delegate, options and checks as ``FoundationReader``, and the same limits of Foundation on
/// Linux (crashes on some DTDs and on invalid UTF-8 in a name): run it on untrusted input in a
/// worker. No 10,000,000-byte limit: the stream is parsed in pieces.
///
/// What this costs is part of what is measured: the thread's start, a copy of each chunk, the
/// hand-over between the threads. The parse's CPU time is the process's (both threads); a parse's
/// error is known once the stream has ended (``finish()``), since the parse thread keeps reading
/// to the end.
package final class FoundationStreamFeedParser: SongFeedParser, DocumentParser {
    package static let name = "foundation-stream"
    package static let contractGaps: Set<ContractGap> = [.dtdEntities, .carriageReturnInCDATA]
    package static let kind = ParserKind.event

    package static var summary: String {
        "Foundation XMLParser(stream:) on a thread of its own, reading each chunk as it is pushed, with namespaces"
    }

    /// How many pushed bytes the stream holds unread before ``consume(_:)`` waits for the parse.
    package static let streamCapacity = 1 << 18

    private let parse: StreamedParse
    /// The document workload's sink; `nil` for songs.
    private let sink: DocumentSink?
    private var error: FeedParseError?
    private var finished = false

    package init(onSong: ((Song) -> Void)?) throws {
        let callback = UncheckedSendable(onSong)
        parse = StreamedParse { parser in
            try FoundationReader.parse(with: parser, name: Self.name, onSong: callback.value)
        }
        sink = nil
    }

    package init(sink: DocumentSink) throws {
        let reported = UncheckedSendable(sink)
        parse = StreamedParse { parser in
            try FoundationReader.walk(with: parser, name: Self.name, into: reported.value)
            return []
        }
        self.sink = sink
    }

    deinit {
        // A parser dropped before its end: the stream ends, so that the thread does too.
        parse.stream.endInput()
    }

    /// Hands the chunk to the parse thread's stream; waits while the stream holds
    /// ``streamCapacity`` bytes unread.
    package func consume(_ chunk: UnsafeRawBufferPointer) throws {
        if let error { throw error }
        guard !finished else { throw misuse("consume(_:) called after finish()") }
        parse.stream.append(chunk)
    }

    /// Ends the stream, waits for the parse thread, and returns its songs.
    package func finish() throws -> [Song] {
        try finishOnce()
    }

    /// Ends the stream and waits for the parse thread: every event is in the sink.
    package func finishDocument() throws {
        _ = try finishOnce()
        try sink?.finish(parser: Self.name)
    }

    private func finishOnce() throws -> [Song] {
        if let error { throw error }
        guard !finished else { throw misuse("finish() called twice") }
        finished = true
        switch parse.wait() {
        case .success(let songs):
            return songs
        case .failure(let failure):
            error = failure
            throw failure
        }
    }

    private func misuse(_ message: String) -> FeedParseError {
        FeedParseError(parser: Self.name, message: message, line: 0, column: 0)
    }
}

/// A value handed to the parse thread.
///
/// Only that thread touches it between the thread's start and
/// the end of ``StreamedParse/wait()``, which the adapter's thread awaits before it looks again.
private final class UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// One `XMLParser(stream:)` parse on a thread of its own, over a `ChunkInputStream`.
private final class StreamedParse: @unchecked Sendable {
    let stream = ChunkInputStream(capacity: FoundationStreamFeedParser.streamCapacity)
    private let done = DispatchSemaphore(value: 0)
    /// Written by the parse thread before it signals `done`; read after `done`.
    private var result: Result<[Song], FeedParseError> = .success([])

    init(_ body: @escaping @Sendable (XMLParser) throws -> [Song]) {
        let thread = Thread { [self] in
            callgrindThreadRegion(body)
        }
        thread.name = FoundationStreamFeedParser.name
        thread.start()
    }

    /// The parse thread's whole work.
    ///
    /// Its own function, never inlined, with a name that
    /// `bench run --counter instructions` finds: callgrind counts a thread only inside a function it
    /// was told of, and this parse runs outside the worker's parse function.
    @inline(never)
    private func callgrindThreadRegion(_ body: (XMLParser) throws -> [Song]) {
        do {
            result = .success(try body(XMLParser(stream: stream)))
        } catch let failure as FeedParseError {
            result = .failure(failure)
        } catch {
            result = .failure(
                FeedParseError(
                    parser: FoundationStreamFeedParser.name, message: String(describing: error), line: 0, column: 0))
        }
        stream.readerFinished()
        done.signal()
    }

    /// Ends the stream and waits for the parse thread's result.
    func wait() -> Result<[Song], FeedParseError> {
        stream.endInput()
        done.wait()
        return result
    }
}

/// An `InputStream` fed by another thread: ``append(_:)`` queues a copy of the bytes (waiting while
/// `capacity` bytes are unread), `read(_:maxLength:)` waits for bytes and returns 0 once
/// ``endInput()`` was called and all are read.
final class ChunkInputStream: InputStream {
    private let condition = NSCondition()
    private let capacity: Int
    /// The pushed bytes, unread from `offset` on: one buffer, so that a push of any size (one byte
    /// at a time included) costs no allocation of its own once the buffer has grown.
    private var bytes: [UInt8] = []
    private var offset = 0
    private var unread: Int { bytes.count - offset }
    private var ended = false
    /// The reader stopped: appended bytes are dropped, nothing waits.
    private var readerGone = false

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        super.init(data: Data())
    }

    /// Queues a copy of `chunk`; waits while the stream holds `capacity` bytes unread (a chunk is
    /// always taken when nothing is unread, whatever its size).
    func append(_ chunk: UnsafeRawBufferPointer) {
        guard !chunk.isEmpty else { return }
        condition.lock()
        defer { condition.unlock() }
        while !readerGone && unread > 0 && unread + chunk.count > capacity {
            condition.wait()
        }
        guard !readerGone && !ended else { return }
        // The bytes already read go first, once they are half the buffer (each byte moves at most once).
        if offset > 0 && offset >= bytes.count / 2 {
            bytes.removeFirst(offset)
            offset = 0
        }
        bytes.append(contentsOf: chunk)
        condition.broadcast()
    }

    /// No more bytes: a read returns 0 once the queued ones are read.
    func endInput() {
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
    }

    /// The reader is done: the queued bytes are dropped and ``append(_:)`` no longer waits.
    func readerFinished() {
        condition.lock()
        readerGone = true
        bytes = []
        offset = 0
        condition.broadcast()
        condition.unlock()
    }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        guard length > 0 else { return 0 }
        condition.lock()
        defer { condition.unlock() }
        while unread == 0 && !ended {
            condition.wait()
        }
        let copied = min(length, unread)
        bytes.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            buffer.update(from: base + offset, count: copied)
        }
        offset += copied
        if copied > 0 { condition.broadcast() }
        return copied
    }

    override var hasBytesAvailable: Bool {
        condition.lock()
        defer { condition.unlock() }
        return unread > 0 || !ended
    }

    override func open() {}

    override func close() {}

    override var streamStatus: Stream.Status {
        condition.lock()
        defer { condition.unlock() }
        return unread == 0 && ended ? .atEnd : .open
    }
}
