import Foundation

/// Where the runner is, for a progress line.
package struct RunProgress: Sendable {
    package var cellIndex: Int
    package var cellCount: Int
    package var parser: String
    package var feed: String
    /// The round; 0 for the allocation-counting workers that follow the rounds.
    package var round: Int
    /// Iterations finished in this cell so far, warm-up included.
    package var iteration: Int
}
