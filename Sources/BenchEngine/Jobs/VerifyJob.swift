import BenchResults
import Foundation

/// ``WorkerJob/verify(_:)``: parse a feed once per chunk size.
public struct VerifyJob: Codable, Sendable, Equatable {
    public var parser: String
    public var feed: String
    /// 0 is the whole feed in one chunk.
    public var chunkSizes: [Int]
    /// `document`: walk the document into the canonical event sink; `nil` is `songs`.
    public var workload: Workload?
    /// The document workload: report the events of each new digest (to find where two parsers differ).
    public var reportEvents: Bool?
    /// The document workload: write the canonical form of the first run's events to this file.
    public var canonicalOutput: String?

    public init(
        parser: String, feed: String, chunkSizes: [Int], workload: Workload? = nil, reportEvents: Bool? = nil
    ) {
        self.workload = workload
        self.reportEvents = reportEvents
        self.parser = parser
        self.feed = feed
        self.chunkSizes = chunkSizes
    }
}
