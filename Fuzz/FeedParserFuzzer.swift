// libFuzzer target over the push protocol of the suite's adapters (built by scripts/fuzz.sh, not by
// SwiftPM: libFuzzer brings its own `main`).
//
// Each input is split into a document and chunk boundaries: its first byte seeds the boundaries
// (each chunk 1 to 4,096 bytes long), the rest is the document. The adapter named by FUZZ_PARSER is
// fed the document chunk by chunk and must end in songs or a `FeedParseError`: a crash, a hang
// (libFuzzer's -timeout) or an unexpected error type is a finding. With FUZZ_PARSER=libxml2-vs-expat,
// both run and must build the same songs whenever both accept the document.
//
// The document workload's walks have targets of their own: FUZZ_PARSER=doc-NAME walks the document
// into the event sink with parser NAME, which must end in events or a `FeedParseError`;
// doc-bindings walks it with each Swift adapter and its library's C reference (libxml2 and
// c-libxml2, expat and c-expat), which must accept and refuse the same documents and report the
// same events; doc-agree walks it with every library (libxml2's push parser, tree and reader, expat),
// which must report the same events whenever they accept a document without a DTD or a carriage
// return (the pinned differences of CanonicalFormDifferences are all in DTDs, and libxml2's push
// parser keeps a carriage return in CDATA).
import FeedParsers
import Foundation
import SongFeed

/// The adapter under test, read once.
let fuzzedParser: String = ProcessInfo.processInfo.environment["FUZZ_PARSER"] ?? "libxml2"

/// The document cut into chunks of 1 to 4,096 bytes by `seed` (the same cuts for every parser).
func chunks(_ document: UnsafeRawBufferPointer, seed: UInt8) -> [UnsafeRawBufferPointer] {
    fuzzChunks(count: document.count, seed: seed).map { UnsafeRawBufferPointer(rebasing: document[$0]) }
}

/// The document pushed to `type` in chunks cut by `seed`.
func parse(_ parserType: any SongFeedParser.Type, _ document: UnsafeRawBufferPointer, seed: UInt8) -> Result<
    [Song], FeedParseError
>? {
    do {
        var parser = try parserType.init(onSong: nil)
        for chunk in chunks(document, seed: seed) { try parser.consume(chunk) }
        let songs = try parser.finishParsing() ?? parser.finish()
        return .success(songs)
    } catch let error as FeedParseError {
        return .failure(error)
    } catch {
        fatalError("\(parserType.name) threw \(type(of: error)), not a FeedParseError: \(error)")
    }
}

/// What a walk of a document gave: its events' digest and count, or the parser's error.
typealias Walk = Result<(digest: UInt64, events: Int), FeedParseError>

/// The document pushed to the document parser `type` in chunks cut by `seed`, into `sink`
/// (recording its events when asked, for a finding's message).
func walk(
    _ parserType: any DocumentParser.Type, _ document: UnsafeRawBufferPointer, seed: UInt8, sink: DocumentSink,
    recording: Bool = false
) -> Walk {
    sink.reset(recording: recording)
    do {
        var parser = try parserType.init(sink: sink)
        for chunk in chunks(document, seed: seed) { try parser.consume(chunk) }
        try parser.finishDocument()
        return .success((sink.digest, sink.eventCount))
    } catch let error as FeedParseError {
        return .failure(error)
    } catch {
        fatalError("\(parserType.name) threw \(type(of: error)), not a FeedParseError: \(error)")
    }
}

/// One sink for every walk of the process (a walk resets it).
nonisolated(unsafe) let sink: DocumentSink = {
    guard let sink = try? DocumentSink() else { fatalError("no memory for the document sink") }
    return sink
}()

/// The document parser called `name`, or a finding.
func documentParser(_ name: String) -> any DocumentParser.Type {
    guard let type = ParserRegistry.documentParser(named: name) else {
        fatalError("FUZZ_PARSER: no document parser named \(name)")
    }
    return type
}

/// Stops with the first event where `a`'s walk and `b`'s differ.
func disagree(
    _ a: any DocumentParser.Type, _ b: any DocumentParser.Type, _ document: UnsafeRawBufferPointer, seed: UInt8,
    _ what: String
) -> Never {
    _ = walk(a, document, seed: seed, sink: sink, recording: true)
    let left = sink.recordedEvents()
    _ = walk(b, document, seed: seed, sink: sink, recording: true)
    let right = sink.recordedEvents()
    let index =
        zip(left, right).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(left.count, right.count)
    fatalError(
        "\(a.name) and \(b.name) \(what): \(left.count) vs \(right.count) events, first difference at event \(index + 1): "
            + "\(index < left.count ? "\(left[index])" : "none") vs \(index < right.count ? "\(right[index])" : "none")"
    )
}

/// The document targets (`doc-…`).
func fuzzDocument(_ target: String, _ document: UnsafeRawBufferPointer, seed: UInt8) {
    switch target {
    case "doc-bindings":
        for (swift, c) in [("libxml2", "c-libxml2"), ("expat", "c-expat")] {
            let a = documentParser(swift)
            let b = documentParser(c)
            switch (walk(a, document, seed: seed, sink: sink), walk(b, document, seed: seed, sink: sink)) {
            case (.success(let x), .success(let y)):
                if x != y { disagree(a, b, document, seed: seed, "report different events") }
            case (.failure, .failure):
                break
            case (.success, .failure(let error)), (.failure(let error), .success):
                fatalError("\(swift) and \(c) disagree on whether the document is well-formed: \(error)")
            }
        }
    case "doc-agree":
        // A DTD (in UTF-8 or UTF-16) or a carriage return anywhere: the differences are known.
        let bytes = Data(document)
        let doctype = Array("DOCTYPE".utf8)
        let forms = [doctype, doctype.flatMap { [$0, 0] }, doctype.flatMap { [0, $0] }]
        // FUZZ_KEEP_KNOWN=1 keeps them: scripts/fuzz.sh's check that a real difference is caught.
        let keepKnown = ProcessInfo.processInfo.environment["FUZZ_KEEP_KNOWN"] == "1"
        guard keepKnown || (!bytes.contains(13) && !forms.contains(where: { bytes.range(of: Data($0)) != nil }))
        else { return }
        var accepted: [(any DocumentParser.Type, (digest: UInt64, events: Int))] = []
        for name in ["libxml2", "libxml2-dom", "libxml2-reader", "expat"] {
            let type = documentParser(name)
            if case .success(let events) = walk(type, document, seed: seed, sink: sink) {
                if let (first, expected) = accepted.first, expected != events {
                    disagree(first, type, document, seed: seed, "accept the document but report different events")
                }
                accepted.append((type, events))
            }
        }
    default:
        _ = walk(documentParser(String(target.dropFirst("doc-".count))), document, seed: seed, sink: sink)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let document = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    let seed = data[0]
    if fuzzedParser.hasPrefix("doc-") {
        fuzzDocument(fuzzedParser, document, seed: seed)
        return 0
    }
    if fuzzedParser == "libxml2-vs-expat" {
        guard let libxml2 = ParserRegistry.parser(named: "libxml2"), let expat = ParserRegistry.parser(named: "expat"),
            case .success(let a)? = parse(libxml2, document, seed: seed),
            case .success(let b)? = parse(expat, document, seed: seed)
        else { return 0 }
        // Known, pinned in the tests (KnownLibraryDifferences): libxml2 2.9's push parser leaves
        // carriage returns in CDATA sections as they are, where expat (and libxml2's pull parser)
        // read them as line feeds, as XML 1.0 §2.11 asks. Found by this target; compared folded.
        func folded(_ songs: [Song]) -> [[String]] {
            songs.map {
                $0.fieldValues.map {
                    $0.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
                }
            }
        }
        if folded(a) != folded(b) {
            let index = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
            fatalError(
                "libxml2 and expat disagree at song \(index + 1): \(a.count) vs \(b.count) songs; "
                    + "\(index < a.count ? "\(a[index])" : "none") vs \(index < b.count ? "\(b[index])" : "none")")
        }
        return 0
    }
    guard let type = ParserRegistry.parser(named: fuzzedParser) else {
        fatalError("FUZZ_PARSER: no parser named \(fuzzedParser)")
    }
    _ = parse(type, document, seed: seed)
    return 0
}
