import FeedTransport
import Foundation

/// What a download worker reports: one entry per measured iteration.
public struct DownloadWorkerReport: Codable, Sendable {
    /// One measured iteration: the download, and for `conditional` the revalidation that followed.
    public struct Iteration: Codable, Sendable {
        public var download: DownloadMeasurement?
        /// `conditional` only: the second request, with `If-None-Match` and `If-Modified-Since`.
        public var revalidation: DownloadMeasurement?
        public var error: String?
    }

    public var parser: String
    public var url: String
    /// `SongDigest` of the songs of the last successful download.
    public var digest: String?
    public var iterations: [Iteration]
    /// The worker's own peak resident set over its whole life, bytes (``PeakMemory``).
    public var peakResidentBytes: Int?
    /// The peak of the worker's first download and parse, above the resident set just before it,
    /// bytes (``PeakMemory/Window``).
    public var parsePeakBytes: Int?
}
