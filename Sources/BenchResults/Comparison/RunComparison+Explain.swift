/// A cell that was to be explained and could not be, and why.
public struct ExplanationGap: Codable, Sendable, Equatable {
    public var key: ComparisonKey
    public var reason: String

    public init(key: ComparisonKey, reason: String) {
        self.key = key
        self.reason = reason
    }
}

/// One side's profiles, as `bench compare` found them beside its run files or in its store.
public struct SideProfiles: Sendable {
    /// Each cell's profiles (a worker's parses), from the side's first run (in the order given) that
    /// has them.
    public var profiles: [ComparisonKey: [StoredProfile]] = [:]
    /// The side's runs that have no profile at all, with why when it is known.
    public var without: [(runID: String, why: String)] = []
    /// Runs whose profiles could not be read at all (a damaged or truncated file), with the error.
    public var refused: [(runID: String, why: String)] = []

    public init() {}

    /// Adds a run's profiles (a later run's profile of a cell does not replace an earlier one's).
    public mutating func add(runID: String, _ stored: [StoredProfile], whyNone: String) {
        if stored.isEmpty { without.append((runID, whyNone)) }
        for (key, parses) in Dictionary(grouping: stored, by: \.key) where profiles[key] == nil {
            profiles[key] = parses.sorted { $0.parse < $1.parse }
        }
    }

    /// Why this side has no profile of `key`.
    func missing(_ key: ComparisonKey, side: String) -> String {
        if let refused = refused.first { return "the \(side)'s profiles were refused: \(refused.why)" }
        if let run = without.first {
            return "no profile in the \(side) (run \(run.runID): \(run.why))"
        }
        return "no profile of this cell in the \(side)"
    }
}

extension RunComparison {
    /// The metrics whose change a profile explains: instruction counts and estimated cycles.
    public var explainsByDefault: Bool { metric == .instructions || metric == .cycles }

    /// Explains, from the sides' profiles, every cell judged slower or faster on a counted metric
    /// (instructions, estimated cycles) — or every compared cell, with `all` (`--explain`).
    ///
    /// A cell whose profile is missing on a side, or refused as damaged, is said in
    /// ``unexplained``; its verdict is unchanged.
    public mutating func explain(baseline: SideProfiles, current: SideProfiles, all: Bool) {
        var explained: [CellExplanation] = []
        var gaps: [ExplanationGap] = []
        for cell in cells {
            let moved = cell.verdict == .slower || cell.verdict == .faster
            guard all ? cell.ratio != nil || cell.verdict != nil : moved && explainsByDefault else { continue }
            guard let a = baseline.profiles[cell.key] else {
                gaps.append(ExplanationGap(key: cell.key, reason: baseline.missing(cell.key, side: "baseline")))
                continue
            }
            guard let b = current.profiles[cell.key] else {
                gaps.append(ExplanationGap(key: cell.key, reason: current.missing(cell.key, side: "current runs")))
                continue
            }
            do {
                let left = try a.map { try $0.decoded() }
                let right = try b.map { try $0.decoded() }
                explained.append(
                    CellExplanation.explain(
                        cell.key, baseline: left, current: right, baselineRun: a.first?.runID ?? "",
                        currentRun: b.first?.runID ?? ""))
            } catch {
                gaps.append(ExplanationGap(key: cell.key, reason: "its profile is refused: \(error)"))
            }
        }
        explanations = explained.isEmpty ? nil : explained
        unexplained = gaps.isEmpty ? nil : gaps
    }
}
