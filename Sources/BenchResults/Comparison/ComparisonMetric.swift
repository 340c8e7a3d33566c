/// What `bench compare` compares: a ``Metric`` whose traits give it a compared name
/// (``Metric/Traits/comparedAs``).
///
/// The metric's table is the one list: a metric marked there is judged, by that name, with no
/// case to add here. Every trait (unit, exactness, one value per worker) is the metric's.
public struct ComparisonMetric: RawRepresentable, CaseIterable, Hashable, Codable, Sendable {
    /// The figure compared.
    public let metric: Metric

    /// A metric's comparison, when the table marks it as judged.
    public init?(judging metric: Metric) {
        guard metric.traits.comparedAs != nil else { return nil }
        self.metric = metric
    }

    /// The comparison named `rawValue` (`wall`, `cycles`, …), if a metric is judged by that name.
    public init?(rawValue: String) {
        guard let metric = Metric.allCases.first(where: { $0.traits.comparedAs == rawValue }) else { return nil }
        self.metric = metric
    }

    /// Its name for `bench compare --metric`.
    public var rawValue: String { metric.traits.comparedAs ?? metric.rawValue }

    /// Every judged metric, in the table's order.
    public static var allCases: [ComparisonMetric] { Metric.allCases.compactMap(ComparisonMetric.init(judging:)) }

    private init(_ metric: Metric) { self.metric = metric }

    /// Wall time of the parse.
    public static let wall = ComparisonMetric(.wallNs)
    /// Thread CPU time of the parse.
    public static let cpu = ComparisonMetric(.cpuNs)
    /// Wall time of the parse in units of the calibration workload timed just before it in the
    /// same worker (``Sample/calibratedTime``): it does not move when the whole machine runs faster
    /// or slower, so it catches smaller changes on a shared host.
    public static let calibrated = ComparisonMetric(.calibratedTime)
    /// Instructions of the parse (`bench run --counter instructions`).
    public static let instructions = ComparisonMetric(.instructions)
    /// The worker's peak resident set (one value per worker process).
    public static let peakMemory = ComparisonMetric(.peakResidentBytes)
    /// `malloc`-family calls of the parse (``Sample/allocations``, from a run's allocation workers).
    public static let allocations = ComparisonMetric(.allocations)
    /// Estimated cycles of the parse (``Sample/estimatedCycles``, `bench run --counter instructions`).
    public static let cycles = ComparisonMetric(.estimatedCycles)

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
