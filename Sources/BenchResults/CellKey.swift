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

    /// The table a ranked cell is ranked in: its scenario, feed and chunk size (× fastest is the
    /// fastest of it; a parse and a cold first parse of one feed are two tables).
    public struct Table: Hashable, Sendable {
        public var scenario: String
        public var feedSHA256: String
        public var chunkSize: Int
    }

    /// The table the cell is ranked in (``CellScenario/ranksParsers``).
    public var table: Table { Table(scenario: scenario.name, feedSHA256: feedSHA256, chunkSize: chunkSize) }
}
