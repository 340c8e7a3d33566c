import BenchResults
import FeedParsers
import Foundation
import SongFeed

/// What a verify worker reports: one run per chunk size.
package struct VerifyWorkerReport: Codable, Sendable {
    /// One parse of the feed.
    package struct Run: Codable, Sendable {
        /// The chunk size; 0 is the whole feed.
        package var chunkSize: Int
        /// The number of songs, on success.
        package var songCount: Int?
        /// `SongDigest` of the songs, on success.
        package var digest: String?
        /// The songs, on the first run that produced this digest only.
        package var songs: [Song]?
        /// The document workload: the events, on the first run that produced this digest, when asked.
        package var events: [DocumentEvent]?
        /// The parse error, on failure.
        package var error: FeedParseError?
    }

    package var parser: String
    /// `document` for the document workload; `nil` for songs.
    package var workload: Workload?
    package var feedBytes: Int
    package var runs: [Run]
    /// The worker's own peak resident set at its end, bytes (``PeakMemory``).
    package var peakResidentBytes: Int?
}
