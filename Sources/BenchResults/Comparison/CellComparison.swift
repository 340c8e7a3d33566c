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
    /// The smallest change this comparison would catch four times in five with the same noise
    /// (its minimum detectable effect; 0.062 is 6.2%), by the rule of ``RunComparison/verdict(ratio:low:high:threshold:)``:
    /// the estimate must clear the threshold and the interval's lower end must clear 1.
    ///
    /// From the interval's lower half-width h (log scale) at level L: exp(max(log(1 + threshold),
    /// h) + z₀.₈ · h / z_L) − 1, the estimate taken as normal with standard error h / z_L (z₀.₈ =
    /// 0.8416). For exact counts, the threshold itself. `nil` when the cell is not judged.
    public var detectable: Double?
    /// `nil` when the cell is not compared, or not judged for want of values (see ``note``).
    public var verdict: Verdict?
    /// Why the cell is not compared, or what to keep in mind about it.
    public var note: String?
}
