/// What identifies a cell: one parser, scenario and feed (and chunk size and network profile).
public struct CellKey: Codable, Sendable, Hashable {
    /// The scenario of a summary for a parser that was not timed (it disagreed or failed).
    public static let notTimedScenario = CellScenario.notTimed

    public var parser: String
    /// What the cell measures: its scenario and choice.
    public var scenario: CellScenario
    public var feedPath: String
    public var feedSHA256: String
    public var feedBytes: Int
    public var chunkSize: Int
    /// The network profile; empty for `parse`.
    public var network: String

    public init(
        parser: String, scenario: CellScenario, feedPath: String, feedSHA256: String, feedBytes: Int, chunkSize: Int,
        network: String = ""
    ) {
        self.parser = parser
        self.scenario = scenario
        self.feedPath = feedPath
        self.feedSHA256 = feedSHA256
        self.feedBytes = feedBytes
        self.chunkSize = chunkSize
        self.network = network
    }
}
