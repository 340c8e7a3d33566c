/// A fitted growth: one figure of one parser against the feed's size.
public struct SweepSlope: Codable, Sendable, Equatable {
    public var parser: String
    /// "time", "instructions", "parse peak", "allocations", "songs' memory".
    public var figure: String
    /// What the slope is per: "byte" of feed or "song".
    public var per: String
    /// The slope's unit ("ns", "instructions", "bytes", "allocations").
    public var unit: String
    public var fit: LinearFit
    /// The exponent on log–log axes (1: grows in proportion).
    public var exponent: Double?
    /// The range of songs fitted.
    public var fromSongs: Int
    public var toSongs: Int
}
