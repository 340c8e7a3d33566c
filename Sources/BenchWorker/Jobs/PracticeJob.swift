import Foundation

/// ``WorkerJob/practice(_:)``: one practice cell.
package struct PracticeJob: Codable, Sendable, Equatable {
    package var practice: Practice
    package var parser: String
    package var iterations: Int
    package var warmup: Int
    /// Seconds one request may stall.
    package var timeout: Double
    /// The feed's songs (the queue's pages are computed from it).
    package var entries: Int
    /// The feed's URL on the server (the network practices).
    package var url: URL?
    /// The feed's file (`store`).
    package var feed: String?
    /// Where `store` and `read` write their databases.
    package var scratchDirectory: String
    /// Count each iteration's allocations instead of timing it (`read`, in a worker with the
    /// interposer loaded).
    package var countAllocations = false

    package init(
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
