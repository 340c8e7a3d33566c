import Foundation

/// Chunk sizes as the reports write them.
package enum ChunkSize {
    /// "whole" for 0 (the feed in one chunk), else the number.
    package static func label(_ size: Int) -> String { size == 0 ? "whole" : String(size) }
}
