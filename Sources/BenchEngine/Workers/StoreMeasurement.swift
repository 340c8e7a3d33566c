import Foundation

/// What one `store` iteration measured.
public struct StoreMeasurement: Codable, Sendable, Equatable {
    /// The parse of the feed's bytes (in memory, 16 KiB chunks), ns.
    public var parseNs: Int
    /// Writing the songs: every transaction, commit included, ns.
    public var storeNs: Int
    public var songs: Int
}
