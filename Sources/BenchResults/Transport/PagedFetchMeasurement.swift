import Foundation

/// What fetching a feed in several requests measured.
///
/// Times are nanoseconds from the start of the
/// first request.
public struct PagedFetchMeasurement: Codable, Sendable, Equatable {
    /// Requests made (pages fetched, or started before a cancel).
    public var requests: Int
    /// Body bytes received, inflated.
    public var bytes: Int
    /// Body bytes on the wire (compressed, for gzip bodies).
    public var wireBytes: Int
    /// Start → last byte of the last page.
    public var downloadNs: Int
    /// Time spent inside parser calls, every page's.
    public var parseNs: Int
    /// Start → every kept song ready.
    public var totalNs: Int
    /// Start → the first song of the first page (the page a user looks at first).
    public var firstSongNs: Int?
    /// Songs kept.
    public var songs: Int
    /// The pages (0-based) in the order their requests started.
    public var startOrder: [Int]?

    public init(
        requests: Int, bytes: Int, wireBytes: Int, downloadNs: Int, parseNs: Int, totalNs: Int, firstSongNs: Int? = nil,
        songs: Int, cancel: CancelMeasurement? = nil
    ) {
        self.requests = requests
        self.bytes = bytes
        self.wireBytes = wireBytes
        self.downloadNs = downloadNs
        self.parseNs = parseNs
        self.totalNs = totalNs
        self.firstSongNs = firstSongNs
        self.songs = songs
        self.cancel = cancel
    }
    /// The cancel variant: what still happened after the cancel.
    public var cancel: CancelMeasurement?
}
