import CReferenceParsers
import SongFeed

/// What the two C reference parsers (`c-libxml2`, `c-expat`) share: the calls into the C target
/// `CReferenceParsers`, its errors as ``FeedParseError``, and its C buffers turned into songs.
///
/// The C code does the adapters' extraction (same library options, handlers and checks; elements
/// matched by namespace URI and local name, field text gathered into one C buffer) and keeps no
/// Swift state: each song's end calls a C function pointer, which reaches the Swift closure
/// through `Unmanaged`. ``finishParsing()`` ends the parse with the fields still in C; the songs
/// are made by ``finish()`` (dates parsed with ``SongDate/init(feedText:)``), after the benchmark's
/// clocks have stopped.
final class CReferenceDriver {
    private let parser: OpaquePointer
    private let name: String
    private let listener: Listener?
    /// The document workload's sink; `nil` for songs.
    private let sink: DocumentSink?
    private var error: FeedParseError?
    private var parsed = false
    private var delivered = false

    /// What the C side calls as each song ends: the moment alone (the benchmark's first-song
    /// clock), or the song, made from the C buffers then (``SongFeedParser/init(onSong:)``).
    private final class Listener {
        let songEnded: (() -> Void)?
        let onSong: ((Song) -> Void)?
        /// The driver that owns this listener and outlives every callback (no weak reference: its
        /// side table would be one more allocation per parse, inside the timed region).
        unowned(unsafe) var driver: CReferenceDriver?

        init(songEnded: (() -> Void)?, onSong: ((Song) -> Void)?) {
            self.songEnded = songEnded
            self.onSong = onSong
        }
    }

    init(library: RefLibrary, name: String, songEnded: (() -> Void)? = nil, onSong: ((Song) -> Void)? = nil) throws {
        ExternalLoads.refuse()
        self.name = name
        sink = nil
        let listener = songEnded == nil && onSong == nil ? nil : Listener(songEnded: songEnded, onSong: onSong)
        self.listener = listener
        let context = listener.map { Unmanaged.passUnretained($0).toOpaque() }
        let callback: RefSongEnded? =
            listener == nil
            ? nil
            : { context in
                guard let context else { return }
                Unmanaged<Listener>.fromOpaque(context)._withUnsafeGuaranteedRef { listener in
                    listener.songEnded?()
                    if let onSong = listener.onSong, let driver = listener.driver {
                        let count = ref_parser_song_count(driver.parser)
                        if count > 0 { onSong(driver.song(count - 1)) }
                    }
                }
            }
        let salt = HashSeeding.deterministic ? HashSeeding.expatSalt : 0
        guard let parser = ref_parser_create(library, salt, callback, context) else {
            throw FeedParseError(
                parser: name, message: "the C reference parser could not be created", line: 0, column: 0)
        }
        self.parser = parser
        listener?.driver = self
    }

    /// A driver of the C walk that reports a document's events to `sink` (the document workload).
    init(library: RefLibrary, name: String, sink: DocumentSink) throws {
        ExternalLoads.refuse()
        self.name = name
        self.sink = sink
        listener = nil
        let salt = HashSeeding.deterministic ? HashSeeding.expatSalt : 0
        guard let parser = ref_parser_create_document(library, salt, sink.raw) else {
            throw FeedParseError(
                parser: name, message: "the C reference parser could not be created", line: 0, column: 0)
        }
        self.parser = parser
    }

    deinit {
        ref_parser_free(parser)
    }

    /// Ends the document and the sink's: every event is in it.
    func finishDocument() throws {
        try finishParsing()
        try sink?.finish(parser: name)
    }

    func consume(_ chunk: UnsafeRawBufferPointer) throws {
        if let error { throw error }
        guard !parsed else { throw misuse("consume(_:) called after finish()") }
        guard let base = chunk.baseAddress, chunk.count > 0 else { return }
        try check(ref_parser_push(parser, base.assumingMemoryBound(to: CChar.self), chunk.count, 0))
    }

    /// Ends the document; the fields stay in the C buffers.
    func finishParsing() throws {
        if let error { throw error }
        guard !parsed else { throw misuse("finish() called twice") }
        parsed = true
        defer { ref_parser_release_library(parser) }
        try check(ref_parser_push(parser, nil, 0, 1))
    }

    /// Ends the document if ``finishParsing()`` has not, and returns the songs from the C buffers.
    func finish() throws -> [Song] {
        if !parsed { try finishParsing() }
        if let error { throw error }
        guard !delivered else { throw misuse("finish() called twice") }
        delivered = true
        let count = ref_parser_song_count(parser)
        var songs: [Song] = []
        songs.reserveCapacity(count)
        for index in 0..<count { songs.append(song(index)) }
        return songs
    }

    /// Song `index` (below the count of complete songs), made from the C buffers.
    private func song(_ index: Int) -> Song {
        guard let fields = ref_parser_song_fields(parser, index) else {
            return Song(title: "", category: "", artist: "", album: "", releaseDate: nil)
        }
        let text = ref_parser_text(parser).map { UnsafeRawPointer($0) }
        func bytes(_ field: Int) -> UnsafeRawBufferPointer? {
            let field = fields[field]
            guard field.length >= 0 else { return nil }
            guard let text, field.length > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
            return UnsafeRawBufferPointer(start: text + Int(field.offset), count: field.length)
        }
        func string(_ field: Int) -> String {
            bytes(field).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        return Song(
            title: string(REF_FIELD_TITLE), category: string(REF_FIELD_CATEGORY), artist: string(REF_FIELD_ARTIST),
            album: string(REF_FIELD_ALBUM),
            releaseDate: bytes(REF_FIELD_RELEASE_DATE).flatMap { SongDate(feedText: $0) })
    }

    private func check(_ status: RefStatus) throws {
        guard status != REF_STATUS_OK else { return }
        var line = 0
        var column = 0
        ref_parser_position(parser, &line, &column)
        let failure: FeedParseError
        switch status {
        case REF_STATUS_PARSE_ERROR, REF_STATUS_NOT_WELL_FORMED:
            let reported = ref_parser_error(parser)
            let raw = reported.message.map { String(cString: $0) } ?? "error \(reported.code)"
            failure = FeedParseError(
                parser: name, message: raw.split(whereSeparator: \.isNewline).joined(separator: "; "),
                line: reported.line, column: reported.column, code: Int(reported.code))
        case REF_STATUS_FIELD_TOO_LONG where sink != nil:
            failure = DocumentSink.failure(DOC_STATUS_TOO_LONG, parser: name, line: line, column: column)
        case REF_STATUS_SINK_MISUSE:
            failure = DocumentSink.failure(DOC_STATUS_MISUSE, parser: name, line: line, column: column)
        case REF_STATUS_FIELD_TOO_LONG:
            let fields: [FeedElement] = [.title, .category, .artist, .album, .releaseDate]
            let index = Int(ref_parser_long_field(parser))
            let field = fields.indices.contains(index) ? fields[index] : .other
            failure = FeedParseError(
                parser: name,
                message: SongAssembler.fieldTooLongMessage(field: field, item: ref_parser_song_count(parser) + 1),
                line: line, column: column)
        case REF_STATUS_UNCLOSED:
            failure = FeedParseError(
                parser: name, message: "the document ended inside an element", line: line, column: column)
        default:
            failure = FeedParseError(
                parser: name, message: "out of memory for the \(sink == nil ? "song fields" : "document's events")",
                line: line, column: column)
        }
        error = failure
        throw failure
    }

    private func misuse(_ message: String) -> FeedParseError {
        FeedParseError(parser: name, message: message, line: 0, column: 0)
    }
}
