/// What a cell measures: its scenario and, where the scenario has several cells, the choice.
///
/// Runs, stores and reports write it as its ``name``: "parse", "download", "conditional-304",
/// "paged-25", "cancel-2", "store-batch-ordered"; the name is the scenario, then a dash and the
/// choice. ``init(name:)`` is the one place that reads a name; everything else tests ``kind`` or compares with the constants (``parse``).
///
/// ```swift
/// let cell = CellScenario(.paged, choice: "25")   // "paged-25"
/// if cell.table == .practice { … }             // what a report needs: cell.traits
/// ```
public struct CellScenario: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The scenario; `nil` for ``notTimed`` and for a name this build does not know (a store
    /// written by a newer build).
    public let kind: ScenarioID?
    /// The name runs record.
    public let name: String

    /// The cell of `scenario` for `choice` ("200", "25", "on", "batch-ordered"), or its only cell.
    public init(_ scenario: ScenarioID, choice: String? = nil) {
        self.kind = scenario
        self.name = choice.map { "\(scenario.rawValue)-\($0)" } ?? scenario.rawValue
    }

    /// The cell a recorded name names: its scenario is the name up to the first dash.
    public init(name: String) {
        self.name = name
        let prefix = name.split(separator: "-", maxSplits: 1).first.map(String.init) ?? name
        self.kind = ScenarioID(rawValue: prefix)
    }

    /// The choice within the scenario: the name after the scenario and its dash; `nil` for a
    /// scenario's only cell.
    public var choice: String? {
        guard let kind, name.count > kind.rawValue.count + 1 else { return nil }
        return String(name.dropFirst(kind.rawValue.count + 1))
    }

    public var description: String { name }

    /// The cell of `scenario` whose choice is a count: a page size, a queue's width, parses at once.
    public init(_ scenario: ScenarioID, count: Int) { self.init(scenario, choice: String(count)) }

    /// The count of a cell whose choice is one (``init(_:count:)``); `nil` for another choice.
    public var count: Int? { choice.flatMap(Self.count) }

    /// The count a choice names (the one place a count's name is read back), or `nil`.
    public static func count(_ choice: String) -> Int? { Int(choice) }

    /// What reports and the runner know of the cell's scenario; `nil` for ``notTimed`` and names
    /// this build does not know.
    public var traits: ScenarioTraits? { kind?.traits }

    /// Whether the cell times a parse of bytes in memory (``ScenarioTraits/timesParseFromMemory``):
    /// the cells with relative speeds, binding taxes, allocation and instruction counts.
    public var isParseFromMemory: Bool { traits?.timesParseFromMemory ?? false }

    /// Whether the cell is ranked within its table (``ScenarioTraits/ranksParsers``, ``CellKey/table``):
    /// a parse from memory, and a fresh process's first parse.
    public var ranksParsers: Bool { traits?.ranksParsers ?? false }

    /// Whether the host's earlier runs of the cell widen its next-run interval (``RunHistory``): the
    /// cells timed in every run the same way, with no network — a parse from memory, and the `read`
    /// practice's screens.
    public var learnsFromHistory: Bool { traits?.learnsFromHistory ?? false }

    /// What the cell's parsers build; `nil` for ``notTimed`` and names this build does not know.
    public var workload: Workload? { traits?.workload }

    /// The table the cell is shown in; `nil` for ``notTimed`` and names this build does not know.
    public var table: ScenarioTraits.Table? { traits?.table }

    /// The scenario names of the cells that learn from history, as runs record them.
    public static let historyNames: [String] = ScenarioID.allCases.filter(\.traits.learnsFromHistory).flatMap(cellNames)

    /// The names of a scenario's cells when its choices are a fixed list, else its own name.
    private static func cellNames(_ scenario: ScenarioID) -> [String] {
        let choices = scenario.traits.practice?.choices ?? []
        return choices.isEmpty ? [scenario.rawValue] : choices.map { CellScenario(scenario, choice: $0).name }
    }

    /// The `parse` scenario's cells.
    public static let parse = CellScenario(.parse)
    /// The `download` scenario's cells.
    public static let download = CellScenario(.download)
    /// The first request of `conditional` (a 200).
    public static let conditional200 = CellScenario(.conditional, choice: "200")
    /// The revalidation of `conditional` (a 304).
    public static let conditional304 = CellScenario(.conditional, choice: "304")
    /// The summary of a parser that was not timed: it disagreed or failed.
    public static let notTimed = CellScenario(name: "not timed")

    public init(from decoder: any Decoder) throws {
        self.init(name: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
