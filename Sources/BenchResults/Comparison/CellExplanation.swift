/// Why a counted cell moved between two runs, function by function: from the profiles of the two
/// sides' representative parses (``CellProfile``).
///
/// Self cost ranks: each row is one function's own cost on each side (a function is its name and
/// its object); its inclusive cost is beside, so that a caller whose callee moved reads as such.
/// The rows are every function whose own cost moved, the largest change first; the rows shown of
/// them are set against the cell's whole change (``explained(top:)``). When the calls into the
/// allocator moved, ``allocations`` says which callers make more or fewer, by count. When the
/// instructions did not move but the estimated cycles did, the rows rank the functions' own
/// estimated cycles and carry the cache events that moved (``basis``).
public struct CellExplanation: Codable, Sendable, Equatable {
    public var key: ComparisonKey
    /// What the rows measure.
    public var basis: Basis
    /// The whole parse's cost on each side, in the basis's unit.
    public var baselineTotal: Int
    public var currentTotal: Int
    /// Every function whose own cost moved, the largest change first.
    public var rows: [FunctionChange]
    /// Calls into the allocator (malloc, calloc, realloc, …) on each side.
    public var baselineAllocations: Int
    public var currentAllocations: Int
    /// The callers whose allocations moved, the largest change first; empty when the count did not move.
    public var allocations: [AllocationChange]
    /// With instructions: the executable's functions whose charged cost moved, the largest first.
    ///
    /// Each stack's instructions are charged to its innermost frame in the executable (the adapters
    /// and the harness), the libraries' work it called included (from stacks rebuilt from the call
    /// graph: ``FoldedStacks``). Where the change was put in the adapter though its cost is spent in
    /// a library (an allocation: the runtime's and the allocator's functions), this says so.
    public var inCode: [CodeChange]? = nil
    /// The executable's name in the profiles (the object ``inCode`` charges to).
    public var executable: String? = nil
    /// What to keep in mind about the rows, in words (a change in cache behaviour only, nothing moved).
    public var note: String?
    /// Each measured parse's instructions on both sides (the profiles' parses, matched by their
    /// number in the worker); the one explained is the one that moved most.
    public var perParse: [ParseChange]? = nil
    /// Which parses were compared: "run R, worker of round W, parse P" on each side.
    public var baselineParse: String
    public var currentParse: String
    /// The compared parses' numbers in their workers (from 1).
    public var baselineParseNumber: Int? = nil
    public var currentParseNumber: Int? = nil

    /// The cell's whole change, in the basis's unit.
    public var delta: Int { currentTotal - baselineTotal }

    public enum Basis: String, Codable, Sendable {
        /// Instructions (`Ir`).
        case instructions
        /// Estimated cycles (the cache simulation's events): instructions did not move, these did.
        case estimatedCycles = "estimated cycles"
    }

    /// The share of the cell's change that the first `top` rows add up to (1 when they explain it
    /// all); `nil` when the cell did not move.
    public func explained(top: Int) -> Double? {
        guard delta != 0 else { return nil }
        return Double(rows.prefix(top).reduce(0) { $0 + $1.delta }) / Double(delta)
    }
}

/// One function's own cost on each side of a ``CellExplanation``.
public struct FunctionChange: Codable, Sendable, Equatable {
    public var name: String
    public var object: String
    /// Its own cost; `nil` where the side's profile has no such function.
    public var baseline: Int?
    public var current: Int?
    public var delta: Int
    /// Its share of the cell's change (`delta` ÷ the cell's; negative when it moved the other way).
    public var share: Double?
    /// Its inclusive instructions on each side (what it and everything it called cost).
    public var baselineInclusive: Int?
    public var currentInclusive: Int?
    /// The calls into it on each side.
    public var baselineCalls: Int?
    public var currentCalls: Int?
    /// With estimated cycles: the cache events of its own that moved (`D1mr`, `DLmr`, …), current − baseline.
    public var cacheEvents: [String: Int]?

    /// Whether it is on one side only, in words: renamed, inlined, new or removed code look alike.
    public var presence: String? {
        switch (baseline, current) {
        case (nil, _): return "only in the current profile (new, renamed, or no longer inlined)"
        case (_, nil): return "only in the baseline profile (removed, renamed, or now inlined)"
        default: return nil
        }
    }
}

/// One measured parse's instructions on both sides of a ``CellExplanation``.
public struct ParseChange: Codable, Sendable, Equatable {
    public var parse: Int
    public var baseline: Int
    public var current: Int
    public var delta: Int { current - baseline }
}

/// One function of the executable, with the cost charged to it on each side (``CellExplanation/inCode``).
public struct CodeChange: Codable, Sendable, Equatable {
    /// Its name; "" for the cost spent under no function of the executable.
    public var name: String
    public var baseline: Int
    public var current: Int
    public var delta: Int { current - baseline }
    /// Its share of the cell's change.
    public var share: Double?
}

/// One caller's calls into the allocator on each side.
public struct AllocationChange: Codable, Sendable, Equatable {
    public var caller: String
    public var object: String
    public var baseline: Int
    public var current: Int
    public var delta: Int { current - baseline }
}

extension CellExplanation {
    /// A relative change of instructions below this (0.05%) is "did not move" when choosing what
    /// the rows rank: a change in cache behaviour alone then ranks estimated cycles.
    public static let still = 0.0005

    /// The explanation of `key`'s change from `baseline`'s profiles (a worker's parses) to
    /// `current`'s: the parses are matched by their number in the worker (a parse's count can differ
    /// from the next one's by its place: libxml2's dictionary grows over parses), and the pair that
    /// moved most is explained (the first of equals; the first of each side when none match).
    public static func explain(
        _ key: ComparisonKey, baseline: [CellProfile], current: [CellProfile], baselineRun: String,
        currentRun: String
    ) -> CellExplanation {
        let left = Dictionary(baseline.map { ($0.parse, $0) }, uniquingKeysWith: { first, _ in first })
        let right = Dictionary(current.map { ($0.parse, $0) }, uniquingKeysWith: { first, _ in first })
        let common = Set(left.keys).intersection(right.keys).sorted()
        let changes = common.compactMap { parse -> ParseChange? in
            guard let a = left[parse], let b = right[parse] else { return nil }
            return ParseChange(parse: parse, baseline: a.profile.instructions, current: b.profile.instructions)
        }
        let chosen = changes.max { (abs($0.delta), $1.parse) < (abs($1.delta), $0.parse) }
        guard let a = chosen.flatMap({ left[$0.parse] }) ?? baseline.first,
            let b = chosen.flatMap({ right[$0.parse] }) ?? current.first
        else {
            return CellExplanation(
                key: key, basis: .instructions, baselineTotal: 0, currentTotal: 0, rows: [], baselineAllocations: 0,
                currentAllocations: 0, allocations: [], note: "no profile on a side", baselineParse: "",
                currentParse: "")
        }
        var explanation = explain(key, baseline: a, current: b, baselineRun: baselineRun, currentRun: currentRun)
        explanation.perParse = changes.count > 1 ? changes : nil
        if a.parse != b.parse {
            // Profiles kept by runs of other settings: no parse is at the same place on both sides.
            let mismatch =
                "The two sides have no profiled parse at the same place in its worker (baseline parse \(a.parse), "
                + "current parse \(b.parse)): compared as they are, though a parse's count can differ by its place."
            explanation.note = [explanation.note, mismatch].compactMap { $0 }.joined(separator: " ")
        }
        return explanation
    }

    /// The explanation of `key`'s change from `baseline`'s profile to `current`'s.
    public static func explain(
        _ key: ComparisonKey, baseline: CellProfile, current: CellProfile, baselineRun: String, currentRun: String
    ) -> CellExplanation {
        let a = FunctionTable(baseline.profile)
        let b = FunctionTable(current.profile)
        let instructionsDelta = current.profile.instructions - baseline.profile.instructions
        let cyclesA = baseline.profile.estimatedCycles(baseline.profile.totals)
        let cyclesB = current.profile.estimatedCycles(current.profile.totals)
        var basis = Basis.instructions
        var note: String?
        let base = max(1, baseline.profile.instructions)
        if abs(Double(instructionsDelta)) < still * Double(base) {
            if let cyclesA, let cyclesB, abs(Double(cyclesB - cyclesA)) >= still * Double(max(1, cyclesA)) {
                basis = .estimatedCycles
                note =
                    "Instructions moved by \(signed(instructionsDelta)) only (\(percent(instructionsDelta, of: base))); "
                    + "estimated cycles by \(signed(cyclesB - cyclesA)) (\(percent(cyclesB - cyclesA, of: cyclesA))): "
                    + "the change is in cache or layout behaviour. The rows rank each function's own estimated "
                    + "cycles, with the cache events that moved."
            } else {
                note =
                    "Neither instructions (\(signed(instructionsDelta))) nor estimated cycles moved by "
                    + "\(String(format: "%.2f%%", still * 100)) or more: the profiles hold no change to explain (a change "
                    + "of time alone lies outside what callgrind simulates: the machine, frequency, or layout effects "
                    + "its caches do not model)."
            }
        }
        let cost: (ParseProfile, [Int]) -> Int = { profile, selfCost in
            basis == .instructions ? profile.value("Ir", in: selfCost) : (profile.estimatedCycles(selfCost) ?? 0)
        }
        let totalA = basis == .instructions ? baseline.profile.instructions : (cyclesA ?? 0)
        let totalB = basis == .instructions ? current.profile.instructions : (cyclesB ?? 0)
        let delta = totalB - totalA
        var rows: [FunctionChange] = []
        for id in Set(a.entries.keys).union(b.entries.keys) {
            let left = a.entries[id]
            let right = b.entries[id]
            let selfA = left.map { cost(baseline.profile, $0.selfCost) }
            let selfB = right.map { cost(current.profile, $0.selfCost) }
            let change = (selfB ?? 0) - (selfA ?? 0)
            guard change != 0 || (selfA == nil) != (selfB == nil) && (selfA ?? selfB ?? 0) != 0 else { continue }
            var row = FunctionChange(
                name: id.name, object: id.object, baseline: selfA, current: selfB, delta: change,
                share: delta == 0 ? nil : Double(change) / Double(delta), baselineInclusive: left?.inclusive,
                currentInclusive: right?.inclusive, baselineCalls: left?.calls, currentCalls: right?.calls)
            if basis == .estimatedCycles {
                var events: [String: Int] = [:]
                for event in ParseProfile.cycleEvents.dropFirst(3) {
                    let moved =
                        current.profile.value(event, in: right?.selfCost ?? [])
                        - baseline.profile.value(event, in: left?.selfCost ?? [])
                    if moved != 0 { events[event] = moved }
                }
                row.cacheEvents = events.isEmpty ? nil : events
            }
            rows.append(row)
        }
        rows.sort { (abs($0.delta), $1.name, $1.object) > (abs($1.delta), $0.name, $0.object) }
        let allocA = Allocations.byCaller(baseline.profile)
        let allocB = Allocations.byCaller(current.profile)
        let countA = allocA.values.reduce(0, +)
        let countB = allocB.values.reduce(0, +)
        var allocations: [AllocationChange] = []
        if countA != countB {
            for id in Set(allocA.keys).union(allocB.keys) {
                let change = AllocationChange(
                    caller: id.name, object: id.object, baseline: allocA[id] ?? 0, current: allocB[id] ?? 0)
                if change.delta != 0 { allocations.append(change) }
            }
            allocations.sort { (abs($0.delta), $1.caller) > (abs($1.delta), $0.caller) }
        }
        var explanation = CellExplanation(
            key: key, basis: basis, baselineTotal: totalA, currentTotal: totalB, rows: rows,
            baselineAllocations: countA, currentAllocations: countB, allocations: allocations, note: note,
            baselineParse: "run \(baselineRun), worker of round \(baseline.round), parse \(baseline.parse)",
            currentParse: "run \(currentRun), worker of round \(current.round), parse \(current.parse)")
        explanation.baselineParseNumber = baseline.parse
        explanation.currentParseNumber = current.parse
        if basis == .instructions, delta != 0, let executable = executableObject(current.profile) {
            let left = FoldedStacks(baseline.profile).charged(to: executable)
            let right = FoldedStacks(current.profile).charged(to: executable)
            explanation.executable = executable
            explanation.inCode = Set(left.keys).union(right.keys).map { name in
                CodeChange(
                    name: name, baseline: left[name] ?? 0, current: right[name] ?? 0,
                    share: Double((right[name] ?? 0) - (left[name] ?? 0)) / Double(delta))
            }
            .filter { $0.delta != 0 }
            .sorted { (abs($0.delta), $1.name) > (abs($1.delta), $0.name) }
        }
        return explanation
    }

    /// The object of the profile's regions (the functions where a counted worker collects): the
    /// executable.
    static func executableObject(_ profile: ParseProfile) -> String? {
        profile.functions.first { ParseProfile.isRegion($0.name) }?.object
    }

    /// `value` with its sign and thousands separators: "+1,234", "−56".
    public static func signed(_ value: Int) -> String {
        (value > 0 ? "+" : value < 0 ? "−" : "±") + grouped(abs(value))
    }

    /// `value` with thousands separators.
    public static func grouped(_ value: Int) -> String {
        let digits = String(abs(value))
        var out = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return (value < 0 ? "-" : "") + out
    }

    /// `value` ÷ `total` as a signed percentage with two decimals.
    public static func percent(_ value: Int, of total: Int) -> String {
        let share = Double(value) / Double(max(1, total)) * 100
        let text = String(format: "%.2f%%", abs(share))
        return (share > 0 ? "+" : share < 0 ? "−" : "±") + text
    }
}

/// A profile's functions by name and object (two functions that demangle alike are summed).
struct FunctionTable {
    struct ID: Hashable {
        var name: String
        var object: String
    }

    struct Entry {
        var selfCost: [Int]
        var inclusive: Int
        var calls: Int
    }

    var entries: [ID: Entry] = [:]

    init(_ profile: ParseProfile) {
        for function in profile.functions {
            let id = ID(name: function.name, object: function.object)
            var entry = entries[id] ?? Entry(selfCost: [], inclusive: 0, calls: 0)
            if entry.selfCost.count < function.selfCost.count {
                entry.selfCost += [Int](repeating: 0, count: function.selfCost.count - entry.selfCost.count)
            }
            for (offset, value) in function.selfCost.enumerated() { entry.selfCost[offset] += value }
            entry.inclusive += function.inclusive
            entry.calls += function.calls
            entries[id] = entry
        }
    }
}

/// The calls into the allocator in a profile, by the caller that asked for them.
///
/// The allocator's entry points are the malloc family; a call through one of the runtimes'
/// allocation wrappers (`swift_allocObject` → `swift_slowAlloc` → `malloc`, `operator new`), or
/// through any function of Swift's runtime and standard library (`libswiftCore`: an array's
/// storage is allocated there on its caller's behalf), is the wrapper's caller's, shared among its
/// callers by their calls into it.
enum Allocations {
    static let entryPoints: Set<String> = [
        "malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign", "valloc", "__libc_malloc",
        "__libc_calloc", "__libc_realloc", "__libc_memalign",
    ]

    static func isWrapper(_ name: String) -> Bool {
        [
            "swift_slowAlloc", "swift_allocObject", "swift_allocBox", "swift_allocEmptyBox", "_swift_allocObject_",
            "swift::swift_slowAlloc", "operator new", "_Znwm", "_Znam", "swift_slowAllocTyped",
        ].contains {
            name.hasPrefix($0)
        }
    }

    static func byCaller(_ profile: ParseProfile) -> [FunctionTable.ID: Int] {
        let functions = profile.functions
        let isEntry = functions.map { entryPoints.contains($0.name) }
        let wrapper = functions.map { isWrapper($0.name) || $0.object == "libswiftCore" }
        var outgoing: [Int: [ParseProfile.Call]] = [:]
        for call in profile.calls { outgoing[call.caller, default: []].append(call) }
        // Allocations a wrapper makes per call into it.
        var perCall: [Int: Double] = [:]
        func allocationsPerCall(_ index: Int, visiting: Set<Int>) -> Double {
            if let known = perCall[index] { return known }
            guard !visiting.contains(index), functions[index].calls > 0 else { return 0 }
            let made = (outgoing[index] ?? []).reduce(0.0) { sum, call in
                if isEntry[call.callee] { return sum + Double(call.count) }
                if wrapper[call.callee] {
                    return sum + Double(call.count) * allocationsPerCall(call.callee, visiting: visiting.union([index]))
                }
                return sum
            }
            let value = made / Double(functions[index].calls)
            perCall[index] = value
            return value
        }
        var byCaller: [FunctionTable.ID: Int] = [:]
        for (caller, calls) in outgoing where !isEntry[caller] && !wrapper[caller] {
            var count = 0.0
            for call in calls {
                if isEntry[call.callee] {
                    count += Double(call.count)
                } else if wrapper[call.callee] {
                    count += Double(call.count) * allocationsPerCall(call.callee, visiting: [])
                }
            }
            let rounded = Int(count.rounded())
            if rounded > 0 {
                byCaller[
                    FunctionTable.ID(name: functions[caller].name, object: functions[caller].object), default: 0] +=
                    rounded
            }
        }
        return byCaller
    }
}
