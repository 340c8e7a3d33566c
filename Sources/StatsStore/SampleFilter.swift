import Foundation
import GRDB

/// Which samples a report wants.
public struct SampleFilter: Sendable {
    public var parsers: [String]
    public var scenarios: [String]
    /// Only runs of these hosts (as `bench run` recorded them: the host name, or `BENCH_HOST`).
    public var hosts: [String]
    /// Only runs on a CPU whose model name contains one of these, in any case.
    public var cpus: [String]
    /// A feed's path, the end of its path, or its SHA-256.
    public var feed: String?
    /// Runs started at or after this ISO 8601 time (a date like "2026-11-22" works).
    public var since: String?
    /// Only the newest N runs.
    public var lastRuns: Int?
    /// Include samples of debug builds.
    public var includeDebug: Bool
    /// Include runs with an injected slowdown (tests of the regression gate, `--inject-slowdown`).
    public var includeGateTests: Bool
    /// Leave out the runs that did not finish (interrupted: their finished cells are kept in the store).
    public var excludeIncomplete: Bool

    public init(
        parsers: [String] = [], scenarios: [String] = [], feed: String? = nil, since: String? = nil,
        lastRuns: Int? = nil, includeDebug: Bool = false, includeGateTests: Bool = false,
        excludeIncomplete: Bool = false,
        hosts: [String] = [], cpus: [String] = []
    ) {
        self.hosts = hosts
        self.cpus = cpus
        self.includeGateTests = includeGateTests
        self.excludeIncomplete = excludeIncomplete
        self.parsers = parsers
        self.scenarios = scenarios
        self.feed = feed
        self.since = since
        self.lastRuns = lastRuns
        self.includeDebug = includeDebug
    }
}
