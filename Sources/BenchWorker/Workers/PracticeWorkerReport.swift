import BenchResults
import Foundation
import SongStore

/// What a practice worker reports: one entry per measured iteration.
package struct PracticeWorkerReport: Codable, Sendable {
    package struct Iteration: Codable, Sendable {
        package var fetch: PagedFetchMeasurement?
        package var store: StoreMeasurement?
        package var read: ReadMeasurement?
        package var error: String?
    }

    package var parser: String
    package var cell: String
    /// `SongDigest` of the songs of the whole feed, as this worker's way got them (for `cancel`,
    /// from the uncancelled fetch it makes first).
    package var digest: String?
    package var iterations: [Iteration]
    package var peakResidentBytes: Int?
    /// The song store's settings (`store` and `read` cells).
    package var storeSettings: SongStore.Settings?
    /// The songs stored for the screens to read (`read` cells).
    package var songs: Int?
}
