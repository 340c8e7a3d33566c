import Foundation

/// ``WorkerJob/practice(_:)``: one practice cell.
public struct PracticeJob: Codable, Sendable, Equatable {
    public var practice: Practice
    public var parser: String
    public var iterations: Int
    public var warmup: Int
    /// Seconds one request may stall.
    public var timeout: Double
    /// The feed's songs (the queue's pages are computed from it).
    public var entries: Int
    /// The feed's URL on the server (the network practices).
    public var url: URL?
    /// The feed's file (`store`).
    public var feed: String?
    /// Where `store` and `read` write their databases.
    public var scratchDirectory: String
    /// Count each iteration's allocations instead of timing it (`read`, in a worker with the
    /// interposer loaded).
    public var countAllocations = false

    public init(
        practice: Practice, parser: String, iterations: Int, warmup: Int, timeout: Double, entries: Int,
        url: URL? = nil,
        feed: String? = nil, scratchDirectory: String = NSTemporaryDirectory()
    ) {
        self.practice = practice
        self.parser = parser
        self.iterations = iterations
        self.warmup = warmup
        self.timeout = timeout
        self.entries = entries
        self.url = url
        self.feed = feed
        self.scratchDirectory = scratchDirectory
    }
}
