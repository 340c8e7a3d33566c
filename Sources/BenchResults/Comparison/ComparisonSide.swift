/// One side of one cell: its values, per worker process.
public struct ComparisonSide: Codable, Sendable, Equatable {
    /// The median of the workers' medians (for peak memory: of every worker's value); `nil` when
    /// every iteration failed.
    public var median: Double?
    /// Successful iterations.
    public var iterations: Int
    /// Worker processes (runs × rounds) with at least one successful iteration.
    public var workers: Int
    public var feedSHA256: String
    /// Iterations that failed (left out of every figure).
    public var failed: Int?
    /// The parser's kind, as the runs recorded it (``CellSummary/kind``).
    public var kind: String? = nil
}
