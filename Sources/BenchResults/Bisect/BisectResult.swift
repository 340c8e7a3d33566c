/// What `bench bisect` found: every commit it probed, in the order it probed them, and each step
/// (a commit whose instruction counts moved beyond the threshold against the commit before it, in
/// the direction of the change between the good and the bad commit), explained by its profiles.
public struct BisectResult: Codable, Sendable, Equatable {
    /// The good and bad ends, as given and resolved.
    public var good: BisectCommit
    public var bad: BisectCommit
    /// The commits after `good` up to `bad`.
    public var range: Int
    /// The relative change of a count that counts (0.01 = 1%).
    public var threshold: Double
    /// Each cell's count at the ends, and whether it moved beyond the threshold.
    public var cells: [BisectCell]
    /// Every probe, in the order made (the two ends first).
    public var probes: [BisectProbe]
    /// The commits found, oldest first.
    public var steps: [BisectStep]
    /// Stretches of commits over which a count moved beyond the threshold with no single commit
    /// doing so (each change below it), or whose commits in between could not be counted.
    public var unresolved: [BisectStretch]
    /// The signal that stopped the bisect, if one did (what was probed is still said).
    public var interrupted: String?

    public init(
        good: BisectCommit, bad: BisectCommit, range: Int, threshold: Double, cells: [BisectCell],
        probes: [BisectProbe], steps: [BisectStep], unresolved: [BisectStretch], interrupted: String?
    ) {
        self.good = good
        self.bad = bad
        self.range = range
        self.threshold = threshold
        self.cells = cells
        self.probes = probes
        self.steps = steps
        self.unresolved = unresolved
        self.interrupted = interrupted
    }

    /// Probes of commits between the ends.
    public var probesBetween: Int { max(0, probes.count - 2) }
}

public struct BisectCommit: Codable, Sendable, Equatable {
    public var hash: String
    public var subject: String

    public init(hash: String, subject: String) {
        self.hash = hash
        self.subject = subject
    }

    public var short: String { String(hash.prefix(10)) }
}

/// One cell (a parser on the feed) at the good and the bad end.
public struct BisectCell: Codable, Sendable, Equatable {
    public var parser: String
    public var good: Int
    public var bad: Int
    /// Whether it moved beyond the threshold between the ends (the cells that steps are sought for).
    public var moved: Bool

    public init(parser: String, good: Int, bad: Int, moved: Bool) {
        self.parser = parser
        self.good = good
        self.bad = bad
        self.moved = moved
    }

    public var change: Double { Double(bad - good) / Double(max(1, good)) }
}

/// One probed commit: its counts, or why it has none, and what its build and count took.
public struct BisectProbe: Codable, Sendable, Equatable {
    public var commit: BisectCommit
    /// Its position in the range: 0 for the good end, `range` for the bad one.
    public var position: Int
    /// Each parser's instructions for one counted parse; `nil` when skipped.
    public var counts: [String: Int]?
    /// Why it has no counts: its build failed, or its tool could not count.
    public var skipped: String?
    public var buildSeconds: Double
    public var countSeconds: Double
    /// Where its run's files are (its profiles among them).
    public var runDirectory: String?

    public init(
        commit: BisectCommit, position: Int, counts: [String: Int]?, skipped: String?, buildSeconds: Double,
        countSeconds: Double, runDirectory: String?
    ) {
        self.commit = commit
        self.position = position
        self.counts = counts
        self.skipped = skipped
        self.buildSeconds = buildSeconds
        self.countSeconds = countSeconds
        self.runDirectory = runDirectory
    }
}

/// A commit whose counts moved beyond the threshold against the commit before it.
public struct BisectStep: Codable, Sendable, Equatable {
    public var commit: BisectCommit
    public var parent: BisectCommit
    /// Each moved cell's count before and at the commit.
    public var cells: [BisectCell]
    /// Each moved cell's explanation against the commit before it, from the two probes' profiles.
    public var explanations: [CellExplanation]
    /// Why a cell has no explanation (a probe's build predates profiles, a damaged file).
    public var unexplained: [String]

    public init(
        commit: BisectCommit, parent: BisectCommit, cells: [BisectCell], explanations: [CellExplanation],
        unexplained: [String]
    ) {
        self.commit = commit
        self.parent = parent
        self.cells = cells
        self.explanations = explanations
        self.unexplained = unexplained
    }
}

/// Commits between two probes that bisect could not split further, and why.
public struct BisectStretch: Codable, Sendable, Equatable {
    public var from: BisectCommit
    public var to: BisectCommit
    public var reason: String

    public init(from: BisectCommit, to: BisectCommit, reason: String) {
        self.from = from
        self.to = to
        self.reason = reason
    }
}
