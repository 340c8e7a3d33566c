/// A profile's cost as stacks of frames, each with the instructions spent in its last frame: the
/// "folded" form that `flamegraph.pl`, `difffolded.pl` and speedscope read.
///
/// callgrind keeps the call graph one level deep (who called whom, how often, at what inclusive
/// cost), not whole stacks, so the stacks are rebuilt from the parse's regions down (as
/// `gprof2dot` and callgrind's converters do): a function reached by several callers shares its
/// cost among them in proportion to what each call edge cost. A call back into a function already
/// on the stack (recursion) is not followed: its cost stays with the frame that made it. Stacks
/// deeper than ``depthLimit`` frames, or cheaper than ``floor`` of the parse, are folded into their
/// caller, so every instruction of the profile is in some stack and the file stays small.
public struct FoldedStacks: Sendable, Equatable {
    /// Each stack (frames from the outermost) and its instructions.
    public var stacks: [(frames: [String], cost: Int)]

    public static func == (a: FoldedStacks, b: FoldedStacks) -> Bool {
        a.stacks.count == b.stacks.count
            && zip(a.stacks, b.stacks).allSatisfy { $0.frames == $1.frames && $0.cost == $1.cost }
    }

    /// The deepest stack followed.
    public static let depthLimit = 64
    /// The least share of the parse a stack is kept apart for (its cost goes to its caller below it).
    public static let floor = 0.000_01

    /// A frame's text: its object and name (`libxml2`xmlParseChunk`), with the separators of the
    /// folded form (`;`, and a line's end) replaced.
    public static func frame(_ function: ParseProfile.Function) -> String {
        let name = function.name.replacingOccurrences(of: ";", with: ":").replacingOccurrences(of: "\n", with: " ")
        return function.object.isEmpty ? name : "\(function.object)`\(name)"
    }

    /// The stacks of `profile`.
    public init(_ profile: ParseProfile) {
        let functions = profile.functions
        var outgoing: [Int: [ParseProfile.Call]] = [:]
        var called = Set<Int>()
        for call in profile.calls where call.caller != call.callee {
            outgoing[call.caller, default: []].append(call)
            called.insert(call.callee)
        }
        // The roots: the regions where callgrind collects, else every function no kept edge reaches.
        var roots = functions.indices.filter { ParseProfile.isRegion(functions[$0].name) }
        if roots.isEmpty { roots = functions.indices.filter { !called.contains($0) } }
        let minimum = Double(max(1, profile.instructions)) * Self.floor
        var sums: [[String]: Double] = [:]
        var order: [[String]] = []
        func emit(_ frames: [String], _ cost: Double) {
            guard cost > 0 else { return }
            if sums[frames] == nil { order.append(frames) }
            sums[frames, default: 0] += cost
        }
        /// Walks `index` reached with `share` of its cost (its inclusive on this path ÷ its whole inclusive).
        func walk(_ index: Int, share: Double, frames: [String], onStack: Set<Int>) {
            let function = functions[index]
            let path = frames + [Self.frame(function)]
            var own = Double(function.selfCost.first ?? 0) * share
            for call in outgoing[index] ?? [] {
                let callee = functions[call.callee]
                let cost = Double(call.inclusive) * share
                let calleeShare = callee.inclusive > 0 ? cost / Double(callee.inclusive) : 0
                if onStack.contains(call.callee) || path.count >= Self.depthLimit || cost < minimum || calleeShare <= 0
                {
                    // Recursion, too deep or too small: the cost stays here (a recursive call's
                    // cost is inside this frame's already, counted once).
                    if !onStack.contains(call.callee) { own += cost }
                    continue
                }
                walk(call.callee, share: min(1, calleeShare), frames: path, onStack: onStack.union([call.callee]))
            }
            emit(path, own)
        }
        let reached = Set(roots)
        for root in roots { walk(root, share: 1, frames: [], onStack: [root]) }
        // A function with a cost of its own that no root reaches (a callgrind dump without regions,
        // a bound that cut its edges): a stack of its own, so the stacks add up to the parse.
        let reachable = Self.reachable(from: reached, outgoing)
        for index in functions.indices where !reachable.contains(index) {
            emit([Self.frame(functions[index])], Double(functions[index].selfCost.first ?? 0))
        }
        stacks = order.compactMap { frames in
            let cost = Int((sums[frames] ?? 0).rounded())
            return cost > 0 ? (frames, cost) : nil
        }
    }

    private static func reachable(from roots: Set<Int>, _ outgoing: [Int: [ParseProfile.Call]]) -> Set<Int> {
        var seen = roots
        var stack = Array(roots)
        while let next = stack.popLast() {
            for call in outgoing[next] ?? [] where seen.insert(call.callee).inserted { stack.append(call.callee) }
        }
        return seen
    }

    /// Each stack's cost charged to its innermost frame in `object` (the executable: the adapter or
    /// harness function beneath which the cost was spent, the libraries' work it called included),
    /// by that function's name; a stack with no frame in `object` is charged to `nil`'s key, "".
    public func charged(to object: String) -> [String: Int] {
        let prefix = object + "`"
        var sums: [String: Int] = [:]
        for stack in stacks {
            let frame = stack.frames.last { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) } ?? ""
            sums[frame, default: 0] += stack.cost
        }
        return sums
    }

    /// The folded form: a line a stack, its frames joined by `;`, a space, its cost.
    public var text: String {
        stacks.map { $0.frames.joined(separator: ";") + " \($0.cost)\n" }.joined()
    }

    /// The differential form of `difffolded.pl` (which `flamegraph.pl` draws, coloured by the
    /// change): a line a stack of either side, its frames, the baseline's cost and the current's.
    public static func differential(_ baseline: FoldedStacks, _ current: FoldedStacks) -> String {
        var costs: [String: (Int, Int)] = [:]
        var order: [String] = []
        for (side, stacks) in [(0, baseline), (1, current)] {
            for stack in stacks.stacks {
                let key = stack.frames.joined(separator: ";")
                if costs[key] == nil { order.append(key) }
                var pair = costs[key] ?? (0, 0)
                if side == 0 { pair.0 += stack.cost } else { pair.1 += stack.cost }
                costs[key] = pair
            }
        }
        return order.map { key in
            let pair = costs[key] ?? (0, 0)
            return "\(key) \(pair.0) \(pair.1)\n"
        }.joined()
    }
}
