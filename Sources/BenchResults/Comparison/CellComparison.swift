/// The comparison of one cell.
public struct CellComparison: Codable, Sendable, Equatable {
    public var key: ComparisonKey
    public var baseline: ComparisonSide?
    public var current: ComparisonSide?
    /// current ÷ baseline: the Hodges–Lehmann estimate of the ratio (on the log scale), with its
    /// interval; `nil` when the cell is not compared.
    public var ratio: Double?
    public var ratioLow: Double?
    public var ratioHigh: Double?
    /// The interval's exact coverage (below the level asked when there are too few values).
    public var coverage: Double?
    public var pValue: Double?
    /// How the noise was measured, such as "10 paired workers, Wilcoxon signed-rank".
    public var method: String?
    /// `nil` when the cell is not compared, or not judged for want of values (see ``note``).
    public var verdict: Verdict?
    /// Why the cell is not compared, or what to keep in mind about it.
    public var note: String?
}
