import BenchWorker
import BenchResults
import Foundation

/// Reads one of callgrind's dumps (its documented format: `events:`, `ob=`/`fl=`/`fn=` and
/// `cob=`/`cfi=`/`cfn=`/`calls=` lines with cost lines, names compressed as `(id) name` or not) into
/// a `ParseProfile`: each function's self cost per event, each call edge with its count and the
/// instructions below it.
///
/// Only the functions that the parse's regions reach are kept (the functions named like
/// ``InstructionCounter/togglePattern``, where callgrind collects, and everything they call): the
/// frames above them (`main`, the worker's loop, the dynamic loader) hold no cost of their own
/// inside the region. A function with a cost of its own that no region reaches is kept too, so that
/// the functions' self costs add up to the dump's totals.
enum CallgrindDump {
    /// A dump that is not callgrind's format.
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    /// The profile of the dump `text`.
    ///
    /// Functions keep their names as the object has them (mangled: ``SwiftDemangler`` turns them
    /// readable once per run). `executable` is the path of the program callgrind ran, whose
    /// functions are attributed to `executableName`.
    static func profile(_ text: String, executable: String? = nil, executableName: String = "executable") throws
        -> ParseProfile
    {
        var events: [String] = ["Ir"]
        var positions = 1
        var totals: [Int]?
        // Compressed names: a table per kind (objects, files, functions), as callgrind numbers them.
        var objectNames: [Int: String] = [:]
        var functionNames: [Int: String] = [:]
        var index: [FunctionID: Int] = [:]
        var names: [FunctionID] = []
        var selfCost: [[Int]] = []
        var edges: [EdgeID: (count: Int, inclusive: Int)] = [:]
        var object = ""
        var current: Int?
        var calleeObject: String?
        var callee: String?
        var pendingCall: (callee: Int, count: Int)?

        func function(_ name: String, in object: String) -> Int {
            let id = FunctionID(object: object, name: name)
            if let found = index[id] { return found }
            index[id] = names.count
            names.append(id)
            selfCost.append([])
            return names.count - 1
        }
        /// A name in the `(id) name` or `(id)` form, or plain.
        func name(_ value: Substring, table: inout [Int: String]) -> String {
            guard value.hasPrefix("("), let close = value.firstIndex(of: ")"),
                let id = Int(value[value.index(after: value.startIndex)..<close])
            else { return String(value) }
            let rest = value[value.index(after: close)...].drop { $0 == " " }
            if rest.isEmpty { return table[id] ?? "(\(id))" }
            table[id] = String(rest)
            return String(rest)
        }
        func costs(_ line: Substring) -> [Int]? {
            let fields = line.split(separator: " ")
            guard fields.count >= positions else { return nil }
            var values: [Int] = []
            values.reserveCapacity(fields.count - positions)
            for field in fields.dropFirst(positions) {
                guard let value = Int(field) else { return nil }
                values.append(value)
            }
            return values
        }

        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            guard let first = line.first else { continue }
            if first.isNumber || first == "+" || first == "-" || first == "*" {
                guard let values = costs(line) else {
                    throw Malformed(description: "line \(lineNumber): not a cost line: \(line.prefix(80))")
                }
                if let call = pendingCall {
                    let caller = current ?? function("???", in: object)
                    let edge = EdgeID(caller: caller, callee: call.callee)
                    var sum = edges[edge] ?? (0, 0)
                    sum.count += call.count
                    sum.inclusive += values.first ?? 0
                    edges[edge] = sum
                    pendingCall = nil
                } else {
                    let target = current ?? function("???", in: object)
                    add(values, to: &selfCost[target])
                }
                continue
            }
            guard let equals = line.firstIndex(of: "=") ?? line.firstIndex(of: ":") else { continue }
            let key = line[..<equals]
            let value = line[line.index(after: equals)...].drop { $0 == " " }
            switch key {
            case "events": events = value.split(separator: " ").map(String.init)
            case "positions": positions = max(1, value.split(separator: " ").count)
            case "totals", "summary":
                let values = value.split(separator: " ").compactMap { Int($0) }
                if key == "totals" || totals == nil { totals = values }
            case "ob": object = name(value, table: &objectNames)
            case "fn": current = function(name(value, table: &functionNames), in: object)
            case "cob": calleeObject = name(value, table: &objectNames)
            case "cfn": callee = name(value, table: &functionNames)
            case "calls":
                guard let count = value.split(separator: " ").first.flatMap({ Int($0) }), let calleeName = callee
                else { throw Malformed(description: "line \(lineNumber): a calls= line without its cfn= or count") }
                pendingCall = (function(calleeName, in: calleeObject ?? object), count)
                calleeObject = nil
            default: continue
            }
        }
        guard let totals, !totals.isEmpty else { throw Malformed(description: "no totals: or summary: line") }
        guard pendingCall == nil else { throw Malformed(description: "the dump ends inside a call's lines") }

        // valgrind names the program it runs by its path, or as /proc/self/exe when it re-executes it.
        let shortObject = { (path: String) -> String in
            if let executable, path == executable || path.hasSuffix("/exe") { return executableName }
            return ObjectName.short(path)
        }
        var functions = names.enumerated().map { offset, id in
            ParseProfile.Function(
                name: ObjectName.function(id.name), object: shortObject(id.object), selfCost: selfCost[offset],
                inclusive: 0, calls: 0)
        }
        let calls = edges.map { edge, sum in
            ParseProfile.Call(caller: edge.caller, callee: edge.callee, count: sum.count, inclusive: sum.inclusive)
        }
        for call in calls {
            functions[call.callee].calls += call.count
            if call.caller != call.callee { functions[call.caller].inclusive += call.inclusive }
        }
        for offset in functions.indices {
            functions[offset].inclusive = min(
                totals.first ?? 0, functions[offset].inclusive + (functions[offset].selfCost.first ?? 0))
        }
        let reached = reachable(functions, calls)
        return bound(
            events: events, totals: totals, functions: functions, calls: calls,
            keep: reached)
    }

    /// The functions the regions reach (the functions named like the toggle pattern, and what they
    /// call), and those with a cost of their own.
    private static func reachable(_ functions: [ParseProfile.Function], _ calls: [ParseProfile.Call]) -> Set<Int> {
        var callees: [Int: [Int]] = [:]
        for call in calls { callees[call.caller, default: []].append(call.callee) }
        var seen = Set(functions.indices.filter { ParseProfile.isRegion(functions[$0].name) })
        var stack = Array(seen)
        while let next = stack.popLast() {
            for callee in callees[next] ?? [] where seen.insert(callee).inserted { stack.append(callee) }
        }
        for offset in functions.indices where functions[offset].selfCost.contains(where: { $0 != 0 }) {
            seen.insert(offset)
        }
        return seen
    }

    /// The kept functions, the most costly first and at most `ProfileBounds/functions` of them
    /// (the rest summed into one row), and the calls between kept functions, at most
    /// `ProfileBounds/calls`.
    private static func bound(
        events: [String], totals: [Int], functions: [ParseProfile.Function], calls: [ParseProfile.Call],
        keep: Set<Int>
    ) -> ParseProfile {
        let ordered = keep.sorted {
            (functions[$0].inclusive, functions[$0].selfCost.first ?? 0, $1) > (
                functions[$1].inclusive, functions[$1].selfCost.first ?? 0, $0
            )
        }
        let kept = Array(ordered.prefix(ProfileBounds.functions))
        let left = ordered.dropFirst(ProfileBounds.functions)
        var renumber: [Int: Int] = [:]
        for (new, old) in kept.enumerated() { renumber[old] = new }
        var result = kept.map { functions[$0] }
        if !left.isEmpty {
            var others = [Int](repeating: 0, count: events.count)
            for old in left { add(functions[old].selfCost, to: &others) }
            result.append(
                ParseProfile.Function(
                    name: ProfileBounds.othersName, object: "", selfCost: others, inclusive: others.first ?? 0,
                    calls: 0))
        }
        let edges = calls.compactMap { call -> ParseProfile.Call? in
            guard let caller = renumber[call.caller], let callee = renumber[call.callee] else { return nil }
            return ParseProfile.Call(caller: caller, callee: callee, count: call.count, inclusive: call.inclusive)
        }
        .sorted { ($0.inclusive, $1.caller, $1.callee) > ($1.inclusive, $0.caller, $0.callee) }
        return ParseProfile(
            events: events, totals: totals, functions: result.map(trimmed),
            calls: Array(edges.prefix(ProfileBounds.calls)),
            omittedFunctions: left.count)
    }

    /// A cost array without its trailing zeros (as callgrind writes them).
    private static func trimmed(_ function: ParseProfile.Function) -> ParseProfile.Function {
        var function = function
        while function.selfCost.last == 0 { function.selfCost.removeLast() }
        return function
    }

    private static func add(_ values: [Int], to sum: inout [Int]) {
        if sum.count < values.count { sum += [Int](repeating: 0, count: values.count - sum.count) }
        for (offset, value) in values.enumerated() { sum[offset] += value }
    }

    private struct FunctionID: Hashable {
        var object: String
        var name: String
    }

    private struct EdgeID: Hashable {
        var caller: Int
        var callee: Int
    }
}

/// The short name of an object file, as profiles show it: `libxml2` for
/// `/usr/lib/x86_64-linux-gnu/libxml2.so.2.9.14`, `libc` for `libc.so.6`, the file name otherwise.
enum ObjectName {
    static func short(_ path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        if let so = file.range(of: ".so") { return String(file[..<so.lowerBound]) }
        return file
    }

    /// A function's name as profiles show it: callgrind names a function of a library without its
    /// symbols (libxml2's and expat's static functions, in Debian's stripped libraries) by its
    /// address in the object, `0x0000000000059760`, shown as `0x59760 (no symbol)`: the same
    /// library has it at the same address, so it still matches across runs.
    static func function(_ name: String) -> String {
        guard name.hasPrefix("0x"), name.count > 2, name.dropFirst(2).allSatisfy(\.isHexDigit) else { return name }
        let digits = name.dropFirst(2).drop { $0 == "0" }
        return "0x\(digits.isEmpty ? "0" : String(digits)) (no symbol)"
    }
}
