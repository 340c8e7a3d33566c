import BenchResults
import FeedParsers
import Foundation
import SongFeed

/// What a verify worker reports: one run per chunk size.
public struct VerifyWorkerReport: Codable, Sendable {
    /// One parse of the feed.
    public struct Run: Codable, Sendable {
        /// The chunk size; 0 is the whole feed.
        public var chunkSize: Int
        /// The number of songs, on success.
        public var songCount: Int?
        /// `SongDigest` of the songs, on success.
        public var digest: String?
        /// The songs, on the first run that produced this digest only.
        public var songs: [Song]?
        /// The document workload: the events, on the first run that produced this digest, when asked.
        package var events: [DocumentEvent]?
        /// The parse error, on failure.
        public var error: FeedParseError?
    }

    public var parser: String
    /// `document` for the document workload; `nil` for songs.
    public var workload: Workload?
    public var feedBytes: Int
    public var runs: [Run]
    /// The worker's own peak resident set at its end, bytes (``PeakMemory``).
    public var peakResidentBytes: Int?
}
