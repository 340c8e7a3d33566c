import BenchResults

/// What a measuring worker reports for one cell: one entry per measured iteration.
public struct MeasureWorkerReport: Codable, Sendable {
    /// One measured iteration.
    public struct Iteration: Codable, Sendable, Equatable {
        /// What the parse measured, keyed by metric, filled once its clocks stopped: its wall and CPU
        /// time, the time to its first song (none when no song was built), the ``Calibration``
        /// workload's time just before it, what it allocated (a worker that counts allocations; its
        /// times then mean nothing), and any figure a worker records beside them.
        public var figures: MetricValues
        public var songs: Int
        public var error: String?
        /// Whether the parse lost the CPU to other work (see ``MeasureWorker/lostTheCPU(wallNs:cpuNs:)``).
        public var preempted: Bool = false

        /// The parse's wall time, ns.
        public var wallNs: Int { figures[.wallNs] ?? 0 }
        /// The process's CPU time over the parse, ns.
        public var cpuNs: Int { figures[.cpuNs] ?? 0 }
    }

    public var parser: String
    public var feedBytes: Int
    /// `SongDigest` of the songs of the last successful iteration.
    public var digest: String?
    public var iterations: [Iteration]
    /// The worker's own peak resident set over its whole life, bytes (``PeakMemory``): loading the
    /// feed included.
    public var peakResidentBytes: Int?
    /// The peak of the worker's first parse itself: how far the resident set rose above its level
    /// just before that parse (the feed already loaded), bytes; `nil` where it cannot be measured.
    public var parsePeakBytes: Int?
}
