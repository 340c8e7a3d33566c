import Foundation

/// What one `store` iteration measured.
package struct StoreMeasurement: Codable, Sendable, Equatable {
    /// The parse of the feed's bytes (in memory, 16 KiB chunks), ns.
    package var parseNs: Int
    /// Writing the songs: every transaction, commit included, ns.
    package var storeNs: Int
    package var songs: Int
}
