/// The stored figures of one iteration, keyed by ``Metric``: what a worker records and a ``Sample``
/// carries, one slot per stored metric (``Metric/stored``), not one named property per figure.
///
/// Fixed-size and inline: filling it allocates nothing, so a worker fills it right after its clocks
/// stop without touching the heap its next parse allocates from. A new figure needs no change here
/// while ``Metric/stored`` fits in ``capacity`` (a test holds that).
public struct MetricValues: Sendable, Equatable {
    /// How many stored metrics it holds at most.
    public static let capacity = 32

    /// Which slots hold a value (bit *n*: slot *n*).
    private var present: UInt32 = 0
    /// The values, by slot (``Metric/stored``'s order); a slot whose bit is clear is no value.
    private var slots:
        (
            Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int,
            Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int
        ) = (
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
        )

    /// No figure at all.
    public init() {}

    /// The value of a stored metric, if it has one; a derived metric (``Metric/calibratedTime``)
    /// reads `nil` and ignores writes.
    public subscript(metric: Metric) -> Int? {
        get {
            guard let slot = Self.slot(metric), present & (1 << slot) != 0 else { return nil }
            return withUnsafeBytes(of: slots) { $0.load(fromByteOffset: slot * MemoryLayout<Int>.stride, as: Int.self) }
        }
        set {
            guard let slot = Self.slot(metric) else { return }
            guard let newValue else {
                present &= ~(1 << slot)
                return
            }
            present |= 1 << slot
            withUnsafeMutableBytes(of: &slots) {
                $0.storeBytes(of: newValue, toByteOffset: slot * MemoryLayout<Int>.stride, as: Int.self)
            }
        }
    }

    /// The metrics that have a value, in ``Metric/stored``'s order.
    public var metrics: [Metric] { Metric.stored.filter { self[$0] != nil } }

    /// The same figures but those of the metrics `leftOut` picks (a counting worker's times).
    public func removing(where leftOut: (Metric) -> Bool) -> MetricValues {
        var kept = self
        for metric in Metric.stored where leftOut(metric) { kept[metric] = nil }
        return kept
    }

    public static func == (lhs: MetricValues, rhs: MetricValues) -> Bool {
        lhs.present == rhs.present && Metric.stored.allSatisfy { lhs[$0] == rhs[$0] }
    }

    /// Each stored metric's slot.
    private static let slotOf: [Metric: Int] = Dictionary(
        uniqueKeysWithValues: Metric.stored.prefix(capacity).enumerated().map { ($1, $0) })

    private static func slot(_ metric: Metric) -> Int? { slotOf[metric] }
}

/// Encoded as an object keyed by each metric's name (`{"wallNs": 1200}`), the figures it has only.
extension MetricValues: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: MetricKey.self)
        for metric in Metric.stored {
            self[metric] = try container.decodeIfPresent(Int.self, forKey: MetricKey(metric))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: MetricKey.self)
        for metric in Metric.stored {
            try container.encodeIfPresent(self[metric], forKey: MetricKey(metric))
        }
    }
}

/// A metric's name as a coding key (``Metric/rawValue``: `wallNs`, `estimatedCycles`), for the values
/// keyed by metric and the ``Sample`` that carries them.
struct MetricKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ metric: Metric) { stringValue = metric.rawValue }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
