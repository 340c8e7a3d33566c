import BenchResults
import Foundation

/// ``WorkerJob/verify(_:)``: parse a feed once per chunk size.
package struct VerifyJob: Codable, Sendable, Equatable {
    package var parser: String
    package var feed: String
    /// 0 is the whole feed in one chunk.
    package var chunkSizes: [Int]
    /// `document`: walk the document into the canonical event sink; `nil` is `songs`.
    package var workload: Workload?
    /// The document workload: report the events of each new digest (to find where two parsers differ).
    package var reportEvents: Bool?
    /// The document workload: write the canonical form of the first run's events to this file.
    package var canonicalOutput: String?

    package init(
        parser: String, feed: String, chunkSizes: [Int], workload: Workload? = nil, reportEvents: Bool? = nil
    ) {
        self.workload = workload
        self.reportEvents = reportEvents
        self.parser = parser
        self.feed = feed
        self.chunkSizes = chunkSizes
    }
}
