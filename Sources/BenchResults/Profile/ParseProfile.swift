/// The per-function costs of one counted parse, as callgrind measured them: what `bench compare`
/// explains a change of a counted cell with, and what `bench bisect` explains a culprit with.
///
/// Every cost is an array in the order of ``events`` (`Ir`, the instructions, first; with the cache
/// simulation also `Dr`, `Dw`, `I1mr`, `D1mr`, `D1mw`, `ILmr`, `DLmr`, `DLmw`). A function is its
/// demangled name and the object it is in; its self cost is what its own instructions cost, its
/// inclusive cost adds what the calls it made cost. ``calls`` are the call graph's edges, each with
/// how often it was taken and the instructions below it: callgrind keeps one level of callers, not
/// whole stacks (``FoldedStacks`` rebuilds stacks from these edges, as an approximation).
///
/// A profile is bounded (``ProfileBounds``): the functions of least inclusive cost beyond the bound
/// are summed into one row, so that the self costs still add up to ``totals``.
public struct ParseProfile: Codable, Sendable, Equatable {
    /// callgrind's event names, in the order of every cost array.
    public var events: [String]
    /// The parse's whole cost, per event.
    public var totals: [Int]
    public var functions: [Function]
    public var calls: [Call]
    /// Functions summed into the row named ``ProfileBounds/othersName`` (0 when none was).
    public var omittedFunctions: Int

    public init(events: [String], totals: [Int], functions: [Function], calls: [Call], omittedFunctions: Int = 0) {
        self.events = events
        self.totals = totals
        self.functions = functions
        self.calls = calls
        self.omittedFunctions = omittedFunctions
    }

    /// One function of the parse.
    public struct Function: Codable, Sendable, Equatable {
        /// Its name: demangled (Swift), or as the object names it (C).
        public var name: String
        /// The object it is in, by a short name: `libxml2`, `libexpat`, `libc`, `libswiftCore`,
        /// `libFoundation`, … or the executable's own name (the adapters and the harness).
        public var object: String
        /// What its own instructions cost, per event.
        public var selfCost: [Int]
        /// Its instructions with those of every call it made (`Ir` only).
        public var inclusive: Int
        /// How many times it was called from a function of the profile.
        public var calls: Int

        public init(name: String, object: String, selfCost: [Int], inclusive: Int, calls: Int) {
            self.name = name
            self.object = object
            self.selfCost = selfCost
            self.inclusive = inclusive
            self.calls = calls
        }
    }

    /// One edge of the call graph: `caller` called `callee` (indices into ``functions``).
    public struct Call: Codable, Sendable, Equatable {
        public var caller: Int
        public var callee: Int
        /// How many times.
        public var count: Int
        /// The instructions those calls cost, everything below them included.
        public var inclusive: Int

        public init(caller: Int, callee: Int, count: Int, inclusive: Int) {
            self.caller = caller
            self.callee = callee
            self.count = count
            self.inclusive = inclusive
        }
    }

    /// The index of `event` in every cost array, if the profile has it.
    public func index(of event: String) -> Int? { events.firstIndex(of: event) }

    /// The value of `event` in `cost` (0 where callgrind left a trailing zero out, or has no such event).
    public func value(_ event: String, in cost: [Int]) -> Int {
        guard let index = index(of: event), index < cost.count else { return 0 }
        return cost[index]
    }

    /// Whether `name` is one of the functions where a counted worker's callgrind collects: named
    /// like `callgrind…Region` (the engine's toggle pattern, `*callgrind*Region*`), the roots of a
    /// parse's call graph.
    public static func isRegion(_ name: String) -> Bool {
        guard let word = name.range(of: "callgrind") else { return false }
        return name[word.upperBound...].contains("Region")
    }

    /// The parse's instructions.
    public var instructions: Int { value("Ir", in: totals) }

    /// Whether the cache simulation ran (estimated cycles can be made).
    public var hasCacheEvents: Bool { Self.cycleEvents.allSatisfy { events.contains($0) } }

    /// The events that estimated cycles are made of.
    public static let cycleEvents = ["Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"]

    /// The estimated cycles of `cost`; `nil` without the cache simulation.
    ///
    /// Itamar Turner-Trauring's model (an L1 hit 1 cycle, a last-level hit 5, a RAM access 35: the
    /// engine's `InstructionCounter.estimatedCycles`). Linear in the events, so a parse's
    /// functions' own estimated cycles add up to the parse's.
    public func estimatedCycles(_ cost: [Int]) -> Int? {
        guard hasCacheEvents else { return nil }
        let v = Self.cycleEvents.map { value($0, in: cost) }
        let accesses = v[0] + v[1] + v[2]
        let l1Misses = v[3] + v[4] + v[5]
        let ramHits = v[6] + v[7] + v[8]
        return (accesses - l1Misses) + 5 * (l1Misses - ramHits) + 35 * ramHits
    }
}

/// How large a kept profile may grow.
public enum ProfileBounds {
    /// The functions a profile keeps, those of most inclusive cost first; the rest become one row.
    public static let functions = 3_000
    /// The calls a profile keeps, those of most inclusive cost first.
    public static let calls = 6_000
    /// The name of the row the functions beyond the bound are summed into.
    public static let othersName = "(functions beyond the profile's bound)"
}

/// A profile kept for a counted cell of a run: which parse it is, and its costs.
///
/// A cell keeps the profiles of one worker's first measured parses (the worker whose median
/// count is the median of the workers'), one a parse.
public struct CellProfile: Codable, Sendable, Equatable {
    public var key: ComparisonKey
    /// The round (worker) and the measured parse within it (from 1) whose profile this is.
    public var round: Int
    public var parse: Int
    public var profile: ParseProfile

    public init(key: ComparisonKey, round: Int, parse: Int, profile: ParseProfile) {
        self.key = key
        self.round = round
        self.parse = parse
        self.profile = profile
    }
}
