/// What identifies a cell across runs: the feed by its file name (the SHA-256 is checked apart).
public struct ComparisonKey: Codable, Sendable, Hashable, Comparable {
    public var parser: String
    public var scenario: CellScenario
    public var feed: String
    public var chunkSize: Int
    public var network: String

    public init(parser: String, scenario: CellScenario, feed: String, chunkSize: Int, network: String) {
        self.parser = parser
        self.scenario = scenario
        self.feed = feed
        self.chunkSize = chunkSize
        self.network = network
    }

    public static func < (a: ComparisonKey, b: ComparisonKey) -> Bool {
        (a.scenario.name, a.feed, a.chunkSize, a.network, a.parser)
            < (b.scenario.name, b.feed, b.chunkSize, b.network, b.parser)
    }
}

extension ComparisonKey {
    public init(_ cell: CellKey) {
        self.init(
            parser: cell.parser, scenario: cell.scenario, feed: Self.feedName(cell.feedPath), chunkSize: cell.chunkSize,
            network: cell.network)
    }

    /// What a cell's feed or document is called across runs: its path's file name.
    static func feedName(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }
}
