import Foundation

/// ``WorkerJob/allocationProbe(_:)``: `blocks` allocations of `bytes`, freed unless `keep`.
public struct AllocationProbeJob: Codable, Sendable, Equatable {
    public var blocks: Int
    public var bytes: Int
    public var keep: Bool

    public init(blocks: Int, bytes: Int, keep: Bool = false) {
        self.blocks = blocks
        self.bytes = bytes
        self.keep = keep
    }
}
