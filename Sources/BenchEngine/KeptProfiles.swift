import BenchWorker
import BenchResults
import Foundation

/// The profiles a counted run keeps: per counted cell, those of one worker's first two measured parses.
///
/// Each counted worker gives the profiles of its first measured parses (``CellRun/profiles``); the
/// cell keeps those of the worker whose median parse count is the median of the workers' (the lower
/// middle one of an even count), every parse of it: a parse's count can differ from the next
/// one's by its place in the worker (libxml2's dictionary), so a comparison matches parse with
/// parse. The names of every kept profile are demangled in one call of `swift-demangle`.
enum KeptProfiles {
    /// The cells' profiles, in the order of `cells` (a cell's parses in order), and what kept a
    /// counted cell from having one.
    static func of(_ runs: [CellRun], cells: [CellKey]) -> (profiles: [CellProfile], problems: [String]) {
        let byCell = Dictionary(grouping: runs.filter { !$0.profiles.isEmpty || $0.profileProblem != nil }, by: \.cell)
        var chosen: [CellProfile] = []
        var problems: [String] = []
        for cell in cells {
            guard let cellRuns = byCell[cell] else { continue }
            func median(_ run: CellRun) -> Int {
                let counts = run.profiles.map(\.profile.instructions).sorted()
                return counts[(counts.count - 1) / 2]
            }
            let candidates = cellRuns.filter { !$0.profiles.isEmpty }.sorted {
                (median($0), $0.round) < (median($1), $1.round)
            }
            guard !candidates.isEmpty else {
                problems += cellRuns.compactMap(\.profileProblem).prefix(1).map { "\(cell.parser): no profile: \($0)" }
                continue
            }
            let worker = candidates[(candidates.count - 1) / 2]
            chosen += worker.profiles.map {
                CellProfile(key: ComparisonKey(cell), round: worker.round, parse: $0.parse, profile: $0.profile)
            }
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
