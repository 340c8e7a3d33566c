import CReferenceParsers
@testable import FeedParsers
import Testing

/// The checksum that the timed document walks report to: it must read every byte of every event and
/// the markup's order, so that a parser that drops, reorders or changes an event gets another
/// checksum, whichever path of the sink's inline code a string's length takes.
@Suite("The checksum sink")
struct ChecksumSinkTests {
    /// An event, reported straight to the sink.
    enum Event {
        case start(String, [(String, String)] = [], uri: String = "", prefix: String = "")
        case end
        case text(String)
        case pi(String, String)
    }

    /// The checksum and event count of `events` in the sink `mode`.
    static func checksum(_ events: [Event], _ mode: DocumentSink.Mode = .checksum) throws -> (String, Int) {
        let sink = try DocumentSink()
        sink.reset(mode: mode)
        for event in events {
            let status: DocStatus
            switch event {
            case .start(let local, let attributes, let uri, let prefix):
                var started = sink.start(uri: uri, local: local, prefix: prefix)
                for (name, value) in attributes where started == DOC_STATUS_OK {
                    started = sink.attribute(uri: "", local: name, prefix: "", value: value)
                }
                status = started == DOC_STATUS_OK ? sink.startDone() : started
            case .end: status = sink.end()
            case .text(let text): status = sink.text(text)
            case .pi(let target, let data): status = sink.processingInstruction(target: target, data: data)
            }
            #expect(status == DOC_STATUS_OK, "\(event)")
        }
        try sink.finish(parser: "test")
        return (sink.checksumText, sink.eventCount)
    }

    /// Both sinks' checksum, which must agree.
    static func agreed(_ events: [Event]) throws -> String {
        let (checksum, count) = try Self.checksum(events)
        let (canonical, canonicalCount) = try Self.checksum(events, .canonical)
        #expect(checksum == canonical, "the canonical sink computes the same checksum")
        #expect(count == canonicalCount)
        return checksum
    }

    /// Lengths that take every path: empty, 1–3, 4–8, 9–16 bytes (one or two words), 17 and more
    /// (the loops), up to 70 (several vector blocks and a tail).
    static let lengths = [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 23, 31, 32, 33, 47, 64, 70]

    static func string(_ length: Int, seed: Int = 0) -> String {
        String((0..<length).map { Character(Unicode.Scalar(UInt8(97 + ($0 * 7 + seed) % 26))) })
    }

    /// `string` with the byte at `index` changed.
    static func changed(_ string: String, at index: Int) -> String {
        var bytes = Array(string.utf8)
        bytes[index] = bytes[index] == UInt8(ascii: "z") ? UInt8(ascii: "a") : bytes[index] + 1
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("Every byte of a text, a name and an attribute value counts, whatever the length")
    func everyByte() throws {
        for length in Self.lengths where length > 0 {
            let string = Self.string(length)
            let documents: [(String) -> [Event]] = [
                { [.start("r"), .text($0), .end] },
                { [.start($0), .end] },
                { [.start("r", [("a", $0)]), .end] },
                { [.start("r", uri: $0), .end] },
                { [.pi("target", $0)] },
            ]
            for (kind, document) in documents.enumerated() {
                let reference = try Self.agreed(document(string))
                for index in 0..<length {
                    let other = try Self.agreed(document(Self.changed(string, at: index)))
                    #expect(other != reference, "event kind \(kind), length \(length), byte \(index) changed")
                }
                if length < 70 {
                    let longer = try Self.agreed(document(string + "a"))
                    #expect(longer != reference, "event kind \(kind), length \(length), a byte added")
                }
            }
        }
    }

    @Test("A run of text sums the same however it is split, and differs from the run moved")
    func textSplits() throws {
        for length in Self.lengths {
            let text = Self.string(length, seed: 3)
            let whole = try Self.agreed([.start("r"), .text(text), .end])
            let bytes = Array(text.utf8)
            for split in 0...length {
                let first = String(decoding: bytes[..<split], as: UTF8.self)
                let second = String(decoding: bytes[split...], as: UTF8.self)
                let pieces = try Self.agreed([.start("r"), .text(first), .text(second), .end])
                #expect(pieces == whole, "split at \(split)")
            }
            if length > 0 {
                #expect(try Self.agreed([.start("r"), .end, .text(text)]) != whole, "the text after the end tag")
            }
        }
    }

    /// The events of `parts`, one after the other.
    static func joined(_ parts: ArraySlice<Event>...) -> [Event] {
        parts.flatMap { Array($0) }
    }

    /// What the sum of bytes the checksum folded before could not tell apart (a name or a value with
    /// two bytes swapped), and events dropped, moved or reordered.
    @Test("Events reordered, dropped or changed give another checksum")
    func changes() throws {
        let reference: [Event] = [
            .start("r", [("id", "ab12"), ("lang", "en")]), .text("first"), .start("LINE"), .text("To be"), .end,
            .start("LINE"), .text("or not"), .end, .pi("pi", "data"), .end,
        ]
        let checksum = try Self.agreed(reference)
        /// `reference` with the events at some indices replaced.
        func with(_ changes: [Int: Event]) -> [Event] {
            reference.indices.map { (index: Int) -> Event in changes[index] ?? reference[index] }
        }
        let others: [(String, [Event])] = [
            ("a name's bytes swapped", with([2: .start("LIEN")])),
            ("an attribute value's bytes swapped", with([0: .start("r", [("id", "ab21"), ("lang", "en")])])),
            ("two attributes' values exchanged", with([0: .start("r", [("id", "en"), ("lang", "ab12")])])),
            ("the texts of two elements exchanged", with([3: .text("or not"), 6: .text("To be")])),
            (
                "an element nested in its sibling",
                Self.joined(reference[0...3], reference[5...6], [.end], reference[7...])
            ),
            ("an element dropped", Self.joined(reference[0...4], [reference[6]], reference[8...])),
            (
                "the processing instruction moved",
                Self.joined(reference[0...4], [reference[8]], reference[5...7], [.end])
            ),
            (
                "an attribute moved to a child",
                with([0: .start("r", [("id", "ab12")]), 2: .start("LINE", [("lang", "en")])])
            ),
            ("the text before a tag moved after it", with([1: reference[2], 2: reference[1]])),
            ("a processing instruction's target and data exchanged", with([8: .pi("data", "pi")])),
        ]
        for (change, events) in others {
            #expect(try Self.agreed(events) != checksum, "\(change)")
        }
        #expect(try Self.checksum(reference).1 == reference.count, "every event counted once, end tags too")
        // The attributes' order is not an event's (the canonical sink sorts them).
        #expect(try Self.agreed(with([0: .start("r", [("lang", "en"), ("id", "ab12")])])) == checksum)
    }

    /// What a fold that dropped the place of a name's part, or the difference between a tag's name
    /// and its attributes, could not tell apart.
    @Test("A name's parts, a tag's name and its attributes' names and values exchanged give another checksum")
    func exchangedParts() throws {
        let pairs: [(String, [Event], [Event])] = [
            ("local name and URI", [.start("x", uri: "urn:y"), .end], [.start("urn:y", uri: "x"), .end]),
            (
                "local name and prefix", [.start("x", uri: "u", prefix: "p"), .end],
                [.start("p", uri: "u", prefix: "x"), .end]
            ),
            (
                "URI and prefix", [.start("x", uri: "u", prefix: "p"), .end],
                [.start("x", uri: "p", prefix: "u"), .end]
            ),
            ("a tag's name and its attribute's", [.start("a", [("b", "")]), .end], [.start("b", [("a", "")]), .end]),
            (
                "an attribute's name and value", [.start("r", [("id", "ab12")]), .end],
                [.start("r", [("ab12", "id")]), .end]
            ),
        ]
        for (change, one, other) in pairs {
            #expect(try Self.agreed(one) != Self.agreed(other), "\(change) exchanged")
        }
    }

    /// The kind of each markup event is folded with its value: the same value under two kinds folds
    /// to two checksums, whichever the state before.
    @Test("Each event kind folds the same value differently")
    func kindsFold() {
        let kinds = [DOC_EVENT_START, DOC_EVENT_END, DOC_EVENT_TEXT, DOC_EVENT_PI].map { UInt8($0) }
        for (before, value) in [(UInt64(0), UInt64(0)), (0x9E37_79B1_85EB_CA87, 0x0000_0500_0000_01F4)] {
            let folded = kinds.map { kind in
                var core = DocSinkCore()
                core.check = before
                doc_sink_check_event(&core, kind, value)
                return core.check
            }
            #expect(Set(folded).count == kinds.count, "\(folded)")
        }
    }

    @Test("Events out of order are refused by the checksum sink as by the canonical one")
    func misuse() throws {
        for mode in [DocumentSink.Mode.checksum, .canonical] {
            let sink = try DocumentSink()
            sink.reset(mode: mode)
            #expect(sink.startDone() != DOC_STATUS_OK, "\(mode): a start tag closed that was never opened")
            sink.reset(mode: mode)
            #expect(sink.start(uri: "", local: "a", prefix: "") == DOC_STATUS_OK)
            #expect(sink.start(uri: "", local: "b", prefix: "") != DOC_STATUS_OK, "\(mode): two names for one tag")
            sink.reset(mode: mode)
            #expect(sink.start(uri: "", local: "a", prefix: "") == DOC_STATUS_OK)
            #expect(sink.end() != DOC_STATUS_OK, "\(mode): an end tag before its start tag is closed")
            sink.reset(mode: mode)
            #expect(sink.attribute(uri: "", local: "x", prefix: "", value: "1") == DOC_STATUS_OK)
            #expect(sink.startDone() != DOC_STATUS_OK, "\(mode): a tag with attributes and no name")
            sink.reset(mode: mode)
            #expect(sink.start(uri: "", local: "a", prefix: "") == DOC_STATUS_OK)
            #expect(sink.startDone() == DOC_STATUS_OK)
            #expect(sink.end() == DOC_STATUS_OK)
            #expect(sink.end() != DOC_STATUS_OK, "\(mode): more end tags than start tags")
            sink.reset(mode: mode)
            try sink.finish(parser: "test")
            #expect(sink.text("after") != DOC_STATUS_OK, "\(mode): text after the document ended")
            #expect(sink.start(uri: "", local: "a", prefix: "") != DOC_STATUS_OK, "\(mode): a tag after the end")
            #expect(sink.processingInstruction(target: "pi", data: "") != DOC_STATUS_OK, "\(mode): a PI after the end")
        }
    }

    @Test("The replay of a checked log skips the checks only for the whole log it checked")
    func wholeReplay() throws {
        let sink = try DocumentSink()
        let bytes = Array("<r a='1'>text<b/><?pi data?>more</r>".utf8)
        try ExpatFeedParser.walk(bytes, into: sink, mode: .checksum)
        let (checksum, events) = (sink.checksumText, sink.eventCount)
        try SinkReplayParser.prepare(sink, for: bytes)
        var log = try #require(sink.replayLog)
        #expect(log.isWhole)
        try SinkReplayParser.walk(bytes, into: sink, mode: .checksum)
        #expect(sink.checksumText == checksum)
        #expect(sink.eventCount == events)
        let popped = log.events.popLast()
        let last = try #require(popped)
        #expect(!log.isWhole, "the log changed is checked again: its last end tag missing")
        log.events.append(last)
        #expect(log.isWhole)
        log.events.append(last)
        #expect(!log.isWhole, "an end tag with no element open")
        log.events.removeLast(6)
        #expect(!log.isWhole, "a string cut short")
        sink.replayLog = log
        #expect(throws: FeedParseError.self) { try SinkReplayParser.walk(bytes, into: sink, mode: .checksum) }
    }
}
