import Foundation

/// ``WorkerJob/verify(_:)``: parse a feed once per chunk size.
public struct VerifyJob: Codable, Sendable, Equatable {
    public var parser: String
    public var feed: String
    /// 0 is the whole feed in one chunk.
    public var chunkSizes: [Int]

    public init(parser: String, feed: String, chunkSizes: [Int]) {
        self.parser = parser
        self.feed = feed
        self.chunkSizes = chunkSizes
    }
}
