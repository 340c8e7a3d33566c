import Foundation

/// ``WorkerJob/harness(_:)``: nothing, to measure what a worker costs beside its job.
///
/// The engine starts one such worker in each timed round (`WorkerHarness`): its start and end,
/// spawn to the job's first instruction and its last instruction to the parent's `wait`, are what
/// every other worker of the run pays on top of its work.
package struct HarnessJob: Codable, Sendable, Equatable {
    package init() {}
}

/// What a harness worker reports: the monotonic clock (`CLOCK_MONOTONIC`, the machine's, which
/// the parent reads too) at its job, which is that instant alone.
package struct HarnessReport: Codable, Sendable, Equatable {
    /// `monotonicNanoseconds()` when the job ran.
    package var jobNanoseconds: UInt64

    package init(jobNanoseconds: UInt64) {
        self.jobNanoseconds = jobNanoseconds
    }
}
