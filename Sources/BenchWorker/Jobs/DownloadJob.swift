import Foundation

/// ``WorkerJob/download(_:)``: fetch a feed over HTTP with a parser.
package struct DownloadJob: Codable, Sendable, Equatable {
    package var parser: String
    package var url: URL
    /// Where the untimed warm-ups fetch the feed (the embedded server's unshaped URL); `nil`: ``url``.
    package var warmupURL: URL?
    package var iterations: Int
    package var warmup: Int
    /// Seconds one download may stall.
    package var timeout: Double
    /// Revalidate each download with its validators (the `conditional` scenario).
    package var conditional: Bool

    package init(
        parser: String, url: URL, warmupURL: URL? = nil, iterations: Int, warmup: Int, timeout: Double,
        conditional: Bool
    ) {
        self.parser = parser
        self.url = url
        self.warmupURL = warmupURL
        self.iterations = iterations
        self.warmup = warmup
        self.timeout = timeout
        self.conditional = conditional
    }
}
