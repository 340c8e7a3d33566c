import CReferenceParsers

/// The canonical event sink of the document workload: where every parser reports a document's
/// events, inside the timed region, so that the work after the parser is the same for all.
///
/// The events are a start tag (namespace URI, local name and prefix, with its attributes and
/// namespace declarations sorted by their names as written), an end tag, character data (all the
/// text between two pieces of markup, merged, whatever pieces the parser hands over: text, CDATA,
/// whitespace, entity replacement text) and a processing instruction outside the DTD. Comments,
/// the DTD and the XML declaration are not events. The sink folds each event into a 64-bit
/// digest (the same for every parser that reports the same events) and, when asked, records them
/// (the canonical form, the first difference between two parsers).
///
/// Two sinks in one (`Mode`): the canonical sink, and the checksum sink that the document
/// workload times. The checksum sink only reads every event's bytes into a running checksum, counts
/// the events and checks their nesting (no copy, no sort, no allocation): what any consumer of the
/// events must do, so that a timed walk is the parser's. The canonical sink computes the same
/// `checksum` besides its `digest`, which ties the timed walks to a verified one.
///
/// The sink is C (the target `CReferenceParsers`), so that the C reference walks report to the
/// very same code as the Swift adapters; this class owns it. The suite makes it and hands it to
/// ``DocumentParser/init(sink:)``; an adapter reports its events with a ``SinkEvents`` handler and
/// ends the document with ``finish(parser:)``.
public final class DocumentSink {
    /// The C sink; adapters call its functions directly (`doc_sink_start(sink.raw, …)`).
    let raw: OpaquePointer

    /// The longest run of character data, attribute value or name the sink takes, in bytes.
    package static let maximumTextBytes = Int(DOC_MAXIMUM_TEXT_BYTES)

    /// Makes an empty sink, not recording.
    ///
    /// - Throws: ``FeedParseError`` when there is no memory for it.
    package init() throws {
        guard let raw = doc_sink_create() else {
            throw FeedParseError(parser: "document-sink", message: "out of memory for the sink", line: 0, column: 0)
        }
        self.raw = raw
        doc_sink_reset(raw, 0)
    }

    deinit {
        doc_sink_free(raw)
    }

    /// What the sink does with the events.
    package enum Mode: String, Sendable {
        /// Hashes each event's canonical encoding (attributes sorted, text merged) into ``digest``,
        /// records the events when asked, and computes ``checksum``: what parsers are compared with.
        case canonical
        /// Only ``checksum``, the event count and the nesting: the sink the document workload times.
        case checksum
    }

    /// Starts a new document in the canonical sink; `recording` keeps its events for ``recordedEvents()``.
    package func reset(recording: Bool = false) {
        doc_sink_reset(raw, recording ? 1 : 0)
    }

    /// Starts a new document in the sink `mode` says (the checksum sink never records).
    package func reset(mode: Mode) {
        switch mode {
        case .canonical: doc_sink_reset(raw, 0)
        case .checksum: doc_sink_reset_checksum(raw)
        }
    }

    /// The sink the document is going to.
    package var mode: Mode { doc_sink_is_canonical(raw) != 0 ? .canonical : .checksum }

    /// The digest of the events so far (the canonical sink's).
    package var digest: UInt64 { doc_sink_digest(raw) }

    /// ``digest`` as 16 hexadecimal digits: what runs record and compare.
    package var digestText: String { Self.hex(digest) }

    /// The checksum of the events so far (either sink): the same for the same events, whatever the
    /// parser.
    package var checksum: UInt64 { doc_sink_checksum(raw) }

    /// ``checksum`` as 16 hexadecimal digits.
    package var checksumText: String { Self.hex(checksum) }

    private static func hex(_ value: UInt64) -> String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The number of events reported so far.
    package var eventCount: Int { doc_sink_event_count(raw) }

    /// The elements open now.
    package var depth: Int { doc_sink_depth(raw) }

    /// Ends the document: the pending character data becomes its event.
    ///
    /// - Throws: ``FeedParseError`` from `parser` when elements are still open or the sink was misused.
    public func finish(parser: String) throws {
        guard depth == 0 else {
            throw FeedParseError(parser: parser, message: "the document ended inside an element", line: 0, column: 0)
        }
        try check(doc_sink_finish(raw), parser: parser, line: 0, column: 0)
    }

    /// The error for a status the sink returned, or nothing for `DOC_STATUS_OK`.
    func check(_ status: DocStatus, parser: String, line: Int, column: Int) throws {
        guard status != DOC_STATUS_OK else { return }
        throw Self.failure(status, parser: parser, line: line, column: column)
    }

    /// What a status other than `DOC_STATUS_OK` means, as an error of `parser`.
    static func failure(_ status: DocStatus, parser: String, line: Int, column: Int) -> FeedParseError {
        let message: String
        switch status {
        case DOC_STATUS_TOO_LONG:
            message = "a run of text, an attribute value or a name is longer than \(maximumTextBytes) bytes"
        case DOC_STATUS_MISUSE: message = "the parser's events are not a document's (an end tag with no start?)"
        default: message = "out of memory for the document's events"
        }
        return FeedParseError(parser: parser, message: message, line: line, column: column)
    }

    /// A recorded event log and the size of its document, which ``SinkReplayParser`` replays.
    struct ReplayLog {
        /// The log (`DocumentSink.log`'s bytes); whether it replays whole is checked again whenever it changes.
        var events: [UInt8] {
            didSet { isWhole = Self.replaysWhole(events) }
        }
        var documentBytes: Int
        /// `events` replays whole in the checked replay (`doc_sink_replay`: every length within the
        /// log, every event taken, the document ended): the timed replay may then skip the checks
        /// (`doc_sink_replay_whole`), which are the reading of the log, not the sink.
        private(set) var isWhole: Bool

        init(events: [UInt8], documentBytes: Int) {
            self.events = events
            self.documentBytes = documentBytes
            isWhole = Self.replaysWhole(events)
        }

        private static func replaysWhole(_ events: [UInt8]) -> Bool {
            guard let sink = doc_sink_create() else { return false }
            defer { doc_sink_free(sink) }
            doc_sink_reset_checksum(sink)
            let status = events.withUnsafeBufferPointer { doc_sink_replay(sink, $0.baseAddress, $0.count) }
            return status == DOC_STATUS_OK && doc_sink_depth(sink) == 0 && doc_sink_finish(sink) == DOC_STATUS_OK
        }
    }

    /// The log ``SinkReplayParser`` replays (kept across ``reset(recording:)``).
    var replayLog: ReplayLog?

    /// The raw event log so far, when recording (empty otherwise).
    var log: [UInt8] {
        var length = 0
        guard let log = doc_sink_log(raw, &length), length > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: log, count: length))
    }

    /// The events of the document so far, when recording (none otherwise).
    package func recordedEvents() -> [DocumentEvent] {
        var length = 0
        guard let log = doc_sink_log(raw, &length), length > 0 else { return [] }
        return DocumentEvent.decode(UnsafeRawBufferPointer(start: log, count: length))
    }

    // MARK: Events, as the Swift adapters report them

    /// Opens a start tag (its attributes follow, then ``startDone(parser:line:column:)``).
    @inline(__always)
    func start(
        uri: UnsafePointer<CChar>?, _ uriCount: Int, local: UnsafePointer<CChar>?, _ localCount: Int,
        prefix: UnsafePointer<CChar>?, _ prefixCount: Int
    ) -> DocStatus {
        doc_sink_start(
            raw, uri ?? Self.empty, uriCount, local ?? Self.empty, localCount, prefix ?? Self.empty, prefixCount)
    }

    @inline(__always)
    func attribute(
        uri: UnsafePointer<CChar>?, _ uriCount: Int, local: UnsafePointer<CChar>?, _ localCount: Int,
        prefix: UnsafePointer<CChar>?, _ prefixCount: Int, value: UnsafePointer<CChar>?, _ valueCount: Int
    ) -> DocStatus {
        doc_sink_attribute(
            raw, uri ?? Self.empty, uriCount, local ?? Self.empty, localCount, prefix ?? Self.empty, prefixCount,
            value ?? Self.empty, valueCount)
    }

    @inline(__always)
    func namespace(prefix: UnsafePointer<CChar>?, _ prefixCount: Int, uri: UnsafePointer<CChar>?, _ uriCount: Int)
        -> DocStatus
    {
        doc_sink_namespace(raw, prefix ?? Self.empty, prefixCount, uri ?? Self.empty, uriCount)
    }

    @inline(__always)
    func startDone() -> DocStatus { doc_sink_start_done(raw) }

    @inline(__always)
    func end() -> DocStatus { doc_sink_end(raw) }

    @inline(__always)
    func text(_ bytes: UnsafePointer<CChar>?, _ count: Int) -> DocStatus {
        guard let bytes, count > 0 else { return DOC_STATUS_OK }
        return doc_sink_text(raw, bytes, count)
    }

    @inline(__always)
    func processingInstruction(
        target: UnsafePointer<CChar>?, _ targetCount: Int, data: UnsafePointer<CChar>?, _ dataCount: Int
    ) -> DocStatus {
        doc_sink_pi(raw, target ?? Self.empty, targetCount, data ?? Self.empty, dataCount)
    }

    /// Strings given as Swift strings (Foundation's `XMLParser`), as UTF-8.
    func start(uri: String, local: String, prefix: String) -> DocStatus {
        Self.withUTF8(uri, local, prefix) { start(uri: $0, $1, local: $2, $3, prefix: $4, $5) }
    }

    func attribute(uri: String, local: String, prefix: String, value: String) -> DocStatus {
        Self.withUTF8(uri, local, prefix) { uri, uriCount, local, localCount, prefix, prefixCount in
            var value = value
            return value.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) {
                    attribute(
                        uri: uri, uriCount, local: local, localCount, prefix: prefix, prefixCount,
                        value: $0.baseAddress,
                        $0.count)
                }
            }
        }
    }

    func namespace(prefix: String, uri: String) -> DocStatus {
        Self.withUTF8(prefix, uri, "") { prefix, prefixCount, uri, uriCount, _, _ in
            namespace(prefix: prefix, prefixCount, uri: uri, uriCount)
        }
    }

    func text(_ string: String) -> DocStatus {
        var string = string
        return string.withUTF8 { bytes in bytes.withMemoryRebound(to: CChar.self) { text($0.baseAddress, $0.count) } }
    }

    func processingInstruction(target: String, data: String) -> DocStatus {
        Self.withUTF8(target, data, "") { target, targetCount, data, dataCount, _, _ in
            processingInstruction(target: target, targetCount, data: data, dataCount)
        }
    }

    private static var empty: UnsafePointer<CChar> {
        UnsafeRawPointer(("" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
    }

    private static func withUTF8<R>(
        _ a: String, _ b: String, _ c: String,
        _ body: (UnsafePointer<CChar>?, Int, UnsafePointer<CChar>?, Int, UnsafePointer<CChar>?, Int) -> R
    ) -> R {
        var (a, b, c) = (a, b, c)
        return a.withUTF8 { a in
            b.withUTF8 { b in
                c.withUTF8 { c in
                    a.withMemoryRebound(to: CChar.self) { a in
                        b.withMemoryRebound(to: CChar.self) { b in
                            c.withMemoryRebound(to: CChar.self) { c in
                                body(a.baseAddress, a.count, b.baseAddress, b.count, c.baseAddress, c.count)
                            }
                        }
                    }
                }
            }
        }
    }
}
