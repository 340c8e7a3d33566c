/// A fitted growth: one figure of one parser against the document's size.
public struct SweepSlope: Codable, Sendable, Equatable {
    public var parser: String
    /// "time", "instructions", "parse peak", "allocations", "songs' memory".
    public var figure: String
    /// What the slope is per: "byte" of document, "song" of a feed or "element" of a document.
    public var per: String
    /// The slope's unit ("ns", "instructions", "bytes", "allocations").
    public var unit: String
    public var fit: LinearFit
    /// The exponent on log–log axes (1: grows in proportion).
    public var exponent: Double?
    /// The range of sizes fitted, in the plan's unit (``SweepPlan/unit``).
    public var fromSize: Int
    public var toSize: Int
}
