import BenchResults
import Foundation

/// ``WorkerJob/conformance(_:)``: parse documents of the W3C suite, reporting each as it is done.
package struct ConformanceJob: Codable, Sendable, Equatable {
    package var parser: String
    /// The suite's directory.
    package var suite: String
    /// The documents, relative to `suite`.
    package var paths: [String]
    /// 0 is the whole document in one chunk.
    package var chunkSize: Int
    /// The worker's data limit (RLIMIT_DATA), MiB.
    package var memoryLimitMiB: Int?
    /// Report the songs of each accepted document.
    package var reportSongs: Bool
    /// `document`: walk each document into the canonical event sink and report its canonical form
    /// (``ConformanceWorker/Line/canonical``) instead of building songs; `nil` is `songs`.
    package var workload: Workload?
    /// The document workload: report each accepted document's events too (`ConformanceWorker.Line.events`).
    package var reportEvents: Bool?

    package init(
        parser: String, suite: String, paths: [String], chunkSize: Int, memoryLimitMiB: Int?, reportSongs: Bool = false,
        workload: Workload? = nil
    ) {
        self.workload = workload
        self.parser = parser
        self.suite = suite
        self.paths = paths
        self.chunkSize = chunkSize
        self.memoryLimitMiB = memoryLimitMiB
        self.reportSongs = reportSongs
    }
}
