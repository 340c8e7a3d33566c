import CReferenceParsers

/// The document workload's second baseline: no parse at all, the document's recorded events
/// reported to the sink again, so that a report shows what the shared sink costs every parser.
///
/// Every document parser's timed region includes the ``DocumentSink`` (the checksum sink: every
/// event's bytes read into a checksum). This cell replays a log of the document's events, recorded
/// by `expat` and checked before the clocks start (``prepare(_:for:)``), into the same sink in the
/// same order: its time is the sink's share of any parser's time on that document (with the
/// replay's reading of its log, which no parser pays). It takes the chunks as the `null` baseline
/// does, and is never compared (``reportsEvents`` is `false`).
package final class SinkReplayParser: DocumentParser {
    package static let name = "sink"

    /// One line about the cell, as the registry lists parsers.
    package static let summary = "baseline: the document's recorded events replayed into the sink (what the sink costs)"

    package static var reportsEvents: Bool { false }

    private let sink: DocumentSink
    private var bytesSeen = 0
    private var finished = false

    /// Records the document's events into a log that `sink` keeps for the replays (outside the
    /// timed region).
    ///
    /// - Throws: ``FeedParseError`` when `expat` cannot walk the document.
    package static func prepare(_ sink: DocumentSink, for bytes: [UInt8]) throws {
        let recorder = try DocumentSink()
        try ExpatFeedParser.walk(bytes, into: recorder, recording: true)
        sink.replayLog = DocumentSink.ReplayLog(events: recorder.log, documentBytes: bytes.count)
    }

    /// - Throws: ``FeedParseError`` when `sink` has no log (``prepare(_:for:)`` was not called).
    package init(sink: DocumentSink) throws {
        guard sink.replayLog != nil else {
            throw FeedParseError(
                parser: Self.name, message: "no recorded events to replay (prepare(_:for:) not called)", line: 0,
                column: 0)
        }
        self.sink = sink
    }

    /// Takes the chunk, as the `null` baseline does.
    package func consume(_ chunk: UnsafeRawBufferPointer) throws {
        guard !finished else { throw misuse("consume(_:) called after finishDocument()") }
        bytesSeen &+= chunk.count
    }

    /// Replays the recorded events into the sink and ends the document.
    ///
    /// Given only the first part of the document (the injected slowdown's extra parse), it replays
    /// the same share of the log, which ends mid-document: an error, as a parser's would be.
    package func finishDocument() throws {
        guard !finished else { throw misuse("finishDocument() called twice") }
        finished = true
        let log = sink.replayLog ?? DocumentSink.ReplayLog(events: [], documentBytes: 0)
        let count =
            bytesSeen >= log.documentBytes
            ? log.events.count : log.events.count * bytesSeen / max(1, log.documentBytes)
        // The whole log, checked when it was recorded: replayed without checking it again.
        let status = log.events.withUnsafeBufferPointer { events in
            count == events.count && log.isWhole
                ? doc_sink_replay_whole(sink.raw, events.baseAddress, count)
                : doc_sink_replay(sink.raw, events.baseAddress, count)
        }
        try sink.check(status, parser: Self.name, line: 0, column: 0)
        try sink.finish(parser: Self.name)
    }

    /// The number of bytes consumed (keeps the loop over the chunks observable).
    package var consumedBytes: Int { bytesSeen }

    private func misuse(_ message: String) -> FeedParseError {
        FeedParseError(parser: Self.name, message: message, line: 0, column: 0)
    }
}
