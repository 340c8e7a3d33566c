/// A figure `bench compare` may judge: a ``Metric`` whose traits name it for compare
/// (``Metric/Traits/comparedAs``), and nothing else.
///
/// The list is the metric table's: a metric given a compared name there is one of ``allCases``,
/// in the table's order, and `--metric` takes its name, with no second list to keep in step.
public struct ComparisonMetric: RawRepresentable, CaseIterable, Hashable, Codable, Sendable {
    /// The figure compared: every trait (unit, exactness, one value per worker) is the metric's.
    public let metric: Metric

    /// The compared metric of `metric`; `nil` for a metric compare does not judge.
    public init?(_ metric: Metric) {
        guard metric.traits.comparedAs != nil else { return nil }
        self.metric = metric
    }

    /// The compared metric of that name (`wall`, `peak-memory`); `nil` for any other name.
    public init?(rawValue: String) {
        guard let metric = Metric.allCases.first(where: { $0.traits.comparedAs == rawValue }) else { return nil }
        self.metric = metric
    }

    /// Its name for `bench compare --metric`.
    public var rawValue: String { metric.traits.comparedAs ?? metric.rawValue }

    /// Decodes its name, as ``encode(to:)`` writes it.
    ///
    /// - Throws: `DecodingError` for a name no metric of the table has.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let compared = Self(rawValue: name) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "no compared metric is named '\(name)'")
        }
        self = compared
    }

    /// Encodes its name (`"wall"`), as a comparison's JSON has always held it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Every metric the table marks as compared, in the table's order.
    public static var allCases: [ComparisonMetric] { Metric.allCases.compactMap(ComparisonMetric.init) }

    /// The one of a metric the table compares (a constant below; never an argument).
    private init(compared metric: Metric) {
        precondition(metric.traits.comparedAs != nil, "\(metric) has no compared name in Metric.traits")
        self.metric = metric
    }

    /// Wall time of the parse.
    public static let wall = ComparisonMetric(compared: .wallNs)
    /// Thread CPU time of the parse.
    public static let cpu = ComparisonMetric(compared: .cpuNs)
    /// Wall time of the parse in units of the calibration workload timed just before it in the
    /// same worker (``Sample/calibratedTime``): it does not move when the whole machine runs faster
    /// or slower, so it catches smaller changes on a shared host.
    public static let calibrated = ComparisonMetric(compared: .calibratedTime)
    /// Instructions of the parse (`bench run --counter instructions`).
    public static let instructions = ComparisonMetric(compared: .instructions)
    /// The worker's peak resident set (one value per worker process).
    public static let peakMemory = ComparisonMetric(compared: .peakResidentBytes)
    /// `malloc`-family calls of the parse (``Sample/allocations``, from a run's allocation workers).
    public static let allocations = ComparisonMetric(compared: .allocations)
    /// Estimated cycles of the parse (``Sample/estimatedCycles``, `bench run --counter instructions`).
    public static let cycles = ComparisonMetric(compared: .estimatedCycles)

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
