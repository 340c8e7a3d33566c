/// What `bench compare` compares.
public enum ComparisonMetric: String, CaseIterable, Codable, Sendable {
    /// Wall time of the parse.
    case wall
    /// Thread CPU time of the parse.
    case cpu
    /// Wall time of the parse in units of the calibration workload timed just before it in the
    /// same worker (``Sample/calibratedTime``): it does not move when the whole machine runs faster
    /// or slower, so it catches smaller changes on a shared host.
    case calibrated
    /// Instructions of the parse (`bench run --counter instructions`).
    case instructions
    /// The worker's peak resident set (one value per worker process).
    case peakMemory = "peak-memory"
    /// `malloc`-family calls of the parse (``Sample/allocations``, from a run's allocation workers).
    case allocations

    /// The figure compared: every trait (unit, exactness, one value per worker) is the metric's.
    ///
    /// ``Metric/Traits/comparedAs`` names it the same way; a test holds the two together.
    public var metric: Metric {
        switch self {
        case .wall: .wallNs
        case .cpu: .cpuNs
        case .calibrated: .calibratedTime
        case .instructions: .instructions
        case .peakMemory: .peakResidentBytes
        case .allocations: .allocations
        }
    }

    /// Whether the same binary and feed give the same value every time (a count, not a measurement).
    public var isExact: Bool { metric.traits.exact }

    /// Whether it is a time (wall, CPU or calibrated), as opposed to a count or memory.
    public var isTime: Bool { metric.isTime }

    /// Whether each worker process has one value, repeated on its samples (a peak).
    public var isPerWorker: Bool { metric.traits.cellFigure == .perWorker }

    /// The default regression threshold: 5%, or 1% for exact counts (instructions, allocations).
    public var defaultThreshold: Double { isExact ? 0.01 : 0.05 }

    /// The sample's value for this metric, if it has one.
    public func value(_ sample: Sample) -> Double? { metric.value(sample) }
}
