import Foundation

/// What one download measured.
///
/// Times are nanoseconds from the moment the request was started.
public struct DownloadMeasurement: Codable, Sendable, Equatable {
    /// The HTTP status (200, or 304 for a conditional request that was not modified).
    public var status: Int
    /// Body bytes received (inflated, for a compressed body).
    public var bytes: Int
    /// Body bytes on the wire: a compressed body's compressed size (`Content-Length`), else ``bytes``.
    ///
    /// `nil` in measurements made before it was recorded.
    public var wireBytes: Int?
    /// The body's `Content-Encoding` ("gzip"), `nil` for none.
    public var contentEncoding: String?
    /// Request started → last byte received: stamped when the last data callback starts, before
    /// that chunk is parsed (the end of the task for a body without data).
    public var downloadNs: Int
    /// Time spent inside the parser's calls, the final `finish()` included.
    public var parseNs: Int
    /// Request started → songs ready.
    public var totalNs: Int
    /// Request started → first body byte.
    public var firstByteNs: Int?
    /// Request started → first song delivered.
    public var firstSongNs: Int?
    /// Songs built (for a 304, the cached ones reused).
    public var songs: Int
    /// The response's validators, for a later conditional request.
    public var etag: String?
    public var lastModified: String?

    package init(
        status: Int, bytes: Int, wireBytes: Int? = nil, contentEncoding: String? = nil, downloadNs: Int, parseNs: Int,
        totalNs: Int, firstByteNs: Int? = nil, firstSongNs: Int? = nil, songs: Int, etag: String? = nil,
        lastModified: String? = nil
    ) {
        self.status = status
        self.bytes = bytes
        self.wireBytes = wireBytes
        self.contentEncoding = contentEncoding
        self.downloadNs = downloadNs
        self.parseNs = parseNs
        self.totalNs = totalNs
        self.firstByteNs = firstByteNs
        self.firstSongNs = firstSongNs
        self.songs = songs
        self.etag = etag
        self.lastModified = lastModified
    }

}
