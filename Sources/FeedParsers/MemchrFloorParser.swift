import SongFeed

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The floor: one pass over the bytes with `memchr`, counting every `<`, and no parsing at all.
///
/// Any parser must at least read every byte and find where each tag starts; this does only that,
/// with the C library's vectorised search, so its time is the lower bound that reports show every
/// parser's time against ("× floor"). It builds no songs and is never compared for agreement.
package final class MemchrFloorParser: SongFeedParser {
    package static let name = "memchr"
    package static let summary = "floor: memchr over the bytes finding every '<', no parsing (the bytes-touched limit)"
    package static let kind = ParserKind.floor
    package static let buildsSongs = false

    private var tags = 0
    private var finished = false

    package init(onSong: ((Song) -> Void)?) throws {}

    package func consume(_ chunk: UnsafeRawBufferPointer) throws {
        guard !finished else { throw misuse("consume(_:) called after finish()") }
        guard var cursor = chunk.baseAddress else { return }
        let end = cursor + chunk.count
        while cursor < end, let found = memchr(cursor, 0x3C, end - cursor) {
            tags &+= 1
            cursor = UnsafeRawPointer(found) + 1
        }
    }

    package func finish() throws -> [Song] {
        guard !finished else { throw misuse("finish() called twice") }
        finished = true
        return []
    }

    /// The number of `<` seen (keeps the search observable, so the optimiser cannot drop it).
    package var tagCount: Int { tags }

    private func misuse(_ message: String) -> FeedParseError {
        FeedParseError(parser: Self.name, message: message, line: 0, column: 0)
    }
}

/// The floor of the document workload too: the same pass over the bytes, no events.
extension MemchrFloorParser: DocumentParser {
    package static var reportsEvents: Bool { false }

    package convenience init(sink: DocumentSink) throws {
        try self.init(onSong: nil)
    }

    package func finishDocument() throws { _ = try finish() }
}
