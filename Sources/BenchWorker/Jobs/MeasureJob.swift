import BenchResults
import Foundation

/// ``WorkerJob/measure(_:)``: time a parser over a feed held in memory.
package struct MeasureJob: Codable, Sendable, Equatable {
    package var parser: String
    /// The feed's path.
    package var feed: String
    package var iterations: Int
    package var warmup: Int
    /// Bytes pushed at a time; 0 is the whole feed in one push.
    package var chunkSize: Int
    /// The injected slowdown that validates the gate (0: none).
    package var slowdownPercent: Int
    /// Measure parses that lost the CPU again.
    package var retryPreempted: Bool
    /// A worker under callgrind: no memory window, no calibration.
    package var countingOnly: Bool
    /// A worker with the allocation interposer loaded.
    package var countAllocations: Bool
    /// `document`: walk the document into the canonical event sink instead of building songs;
    /// `nil` is `songs` (and keeps a song job's bytes as they were: a counted worker's job is read
    /// at its start).
    package var workload: Workload?
    /// The scenario whose input the parses consume (its hook, `BenchScenario.parseInput`: a mapping of
    /// the feed's file, say); `nil` is the feed's bytes in a page-aligned copy (and keeps the `parse`
    /// and `document` jobs' bytes as they were).
    package var scenario: ScenarioID?

    package init(
        parser: String, feed: String, iterations: Int, warmup: Int, chunkSize: Int, slowdownPercent: Int = 0,
        retryPreempted: Bool = false, countingOnly: Bool = false, countAllocations: Bool = false,
        workload: Workload? = nil, scenario: ScenarioID? = nil
    ) {
        self.workload = workload
        self.scenario = scenario
        self.parser = parser
        self.feed = feed
        self.iterations = iterations
        self.warmup = warmup
        self.chunkSize = chunkSize
        self.slowdownPercent = slowdownPercent
        self.retryPreempted = retryPreempted
        self.countingOnly = countingOnly
        self.countAllocations = countAllocations
    }
}
