import Foundation

/// ``WorkerJob/allocationProbe(_:)``: `blocks` allocations of `bytes`, freed unless `keep`.
package struct AllocationProbeJob: Codable, Sendable, Equatable {
    package var blocks: Int
    package var bytes: Int
    package var keep: Bool

    package init(blocks: Int, bytes: Int, keep: Bool = false) {
        self.blocks = blocks
        self.bytes = bytes
        self.keep = keep
    }
}
