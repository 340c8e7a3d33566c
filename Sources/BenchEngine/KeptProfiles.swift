import BenchResults
import Foundation

/// The profiles a counted run keeps: one per counted cell, of one representative parse.
///
/// Each counted worker gives the profile of its median measured parse (``CellRun/profile``); the
/// cell keeps the one of the worker whose median is the median of the workers' (the lower middle
/// one of an even count) — with callgrind's exact counts, a parse whose count is the cell's median.
/// The names of every kept profile are demangled in one call of `swift-demangle`.
enum KeptProfiles {
    /// The cells' profiles, in the order of `cells`, and what kept a counted cell from having one.
    static func of(_ runs: [CellRun], cells: [CellKey]) -> (profiles: [CellProfile], problems: [String]) {
        let byCell = Dictionary(grouping: runs.filter { $0.profile != nil || $0.profileProblem != nil }, by: \.cell)
        var chosen: [CellProfile] = []
        var problems: [String] = []
        for cell in cells {
            guard let cellRuns = byCell[cell] else { continue }
            let candidates = cellRuns.compactMap { run in run.profile.map { (run.round, $0.parse, $0.profile) } }
                .sorted { ($0.2.instructions, $0.0) < ($1.2.instructions, $1.0) }
            guard !candidates.isEmpty else {
                problems += cellRuns.compactMap(\.profileProblem).prefix(1).map { "\(cell.parser): no profile: \($0)" }
                continue
            }
            let median = candidates[(candidates.count - 1) / 2]
            chosen.append(CellProfile(key: ComparisonKey(cell), round: median.0, parse: median.1, profile: median.2))
        }
        let names = chosen.flatMap { $0.profile.functions.map(\.name) }
        let (readable, problem) = SwiftDemangler.demangle(names)
        var next = readable.makeIterator()
        for cell in chosen.indices {
            for function in chosen[cell].profile.functions.indices {
                if let name = next.next() { chosen[cell].profile.functions[function].name = name }
            }
        }
        return (chosen, problems + (problem.map { [$0] } ?? []))
    }
}
