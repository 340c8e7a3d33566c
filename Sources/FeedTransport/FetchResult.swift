import BenchResults
import Foundation
import SongFeed

/// What one fetch returned.
public struct FetchResult {
    public var measurement: DownloadMeasurement
    public var songs: [Song]
    /// The body, when asked for with `keepBody`.
    public var body: [UInt8]
    /// The body's first bytes, up to `keepHead` (where a page's next link is).
    public var head: [UInt8]
}
