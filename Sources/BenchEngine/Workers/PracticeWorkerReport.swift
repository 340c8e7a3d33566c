import FeedTransport
import Foundation
import SongStore

/// What a practice worker reports: one entry per measured iteration.
public struct PracticeWorkerReport: Codable, Sendable {
    public struct Iteration: Codable, Sendable {
        public var fetch: PagedFetchMeasurement?
        public var store: StoreMeasurement?
        public var read: ReadMeasurement?
        public var error: String?
    }

    public var parser: String
    public var cell: String
    /// `SongDigest` of the songs of the whole feed, as this worker's way got them (for `cancel`,
    /// from the uncancelled fetch it makes first).
    public var digest: String?
    public var iterations: [Iteration]
    public var peakResidentBytes: Int?
    /// The song store's settings (`store` and `read` cells).
    public var storeSettings: SongStore.Settings?
    /// The songs stored for the screens to read (`read` cells).
    public var songs: Int?
}
