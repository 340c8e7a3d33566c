import BenchResults

/// What a measuring worker reports for one cell: one entry per measured iteration.
package struct MeasureWorkerReport: Codable, Sendable {
    /// One measured iteration.
    package struct Iteration: Codable, Sendable, Equatable {
        /// What the parse measured, keyed by metric, filled once its clocks stopped: its wall and CPU
        /// time, the time to its first song (none when no song was built), the ``Calibration``
        /// workload's time just before it, what it allocated (a worker that counts allocations; its
        /// times then mean nothing), and any figure a worker records beside them.
        package var figures: MetricValues
        package var songs: Int
        package var error: String?
        /// Whether the parse lost the CPU to other work (see ``MeasureWorker/lostTheCPU(wallNs:cpuNs:)``).
        package var preempted: Bool = false

        /// The parse's wall time, ns.
        package var wallNs: Int { figures[.wallNs] ?? 0 }
        /// The process's CPU time over the parse, ns.
        package var cpuNs: Int { figures[.cpuNs] ?? 0 }
    }

    package var parser: String
    package var feedBytes: Int
    /// `SongDigest` of the songs of the last successful iteration.
    package var digest: String?
    package var iterations: [Iteration]
    /// The worker's own peak resident set over its whole life, bytes (``PeakMemory``): loading the
    /// feed included.
    package var peakResidentBytes: Int?
    /// The peak of the worker's first parse itself: how far the resident set rose above its level
    /// just before that parse (the feed already loaded), bytes; `nil` where it cannot be measured.
    package var parsePeakBytes: Int?
}
