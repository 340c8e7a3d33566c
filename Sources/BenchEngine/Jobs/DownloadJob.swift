import Foundation

/// ``WorkerJob/download(_:)``: fetch a feed over HTTP with a parser.
public struct DownloadJob: Codable, Sendable, Equatable {
    public var parser: String
    public var url: URL
    /// Where the untimed warm-ups fetch the feed (the embedded server's unshaped URL); `nil`: ``url``.
    public var warmupURL: URL?
    public var iterations: Int
    public var warmup: Int
    /// Seconds one download may stall.
    public var timeout: Double
    /// Revalidate each download with its validators (the `conditional` scenario).
    public var conditional: Bool
}
