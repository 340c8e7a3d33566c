/// What a measuring worker reports for one cell: one entry per measured iteration.
public struct MeasureWorkerReport: Codable, Sendable {
    /// One measured iteration.
    public struct Iteration: Codable, Sendable, Equatable {
        public var wallNs: Int
        public var cpuNs: Int
        /// From the start of the iteration to the first song; `nil` when no song was built.
        public var firstSongNs: Int?
        public var songs: Int
        public var error: String?
        /// Whether the parse lost the CPU to other work (see ``MeasureWorker/lostTheCPU(wallNs:cpuNs:)``).
        public var preempted: Bool = false
        /// The time of the ``Calibration`` workload run just before this parse, ns.
        public var calibrationNs: Int? = nil
        /// What this parse allocated (a worker that counts allocations; its times mean nothing).
        public var allocations: AllocationCounter.Counts? = nil
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
