import Foundation

/// Where the runner is, for a progress line.
public struct RunProgress: Sendable {
    public var cellIndex: Int
    public var cellCount: Int
    public var parser: String
    public var feed: String
    /// The round; 0 for the allocation-counting workers that follow the rounds.
    public var round: Int
    /// Iterations finished in this cell so far, warm-up included.
    public var iteration: Int
}
