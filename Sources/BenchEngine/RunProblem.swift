import BenchResults

/// Something that went wrong for one parser on one feed during a run: it was not timed, or some of
/// its iterations failed.
package struct RunProblem: Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    package enum Kind: Sendable, Equatable {
        /// The agreement check kept the parser from being timed on the feed.
        case notTimed(ParserVerdict.Status)
        /// Timed iterations failed (a crash, a time-out, songs that differ): how many, and why.
        case failedIterations(Int, outcome: String?)
        /// Timed because the user named it (`--allow-unverified`), though no other parser confirmed its answer.
        case timedUnverified(String)
        /// Workers could not be started (the executable gone or busy): how many, and the first error.
        /// The run stays incomplete in the store.
        case workersNotStarted(Int, String)
        /// A cell of a parser asked for ended with no timed figure: every parse failed, or every
        /// parse lost the CPU to other work; the scenario, and why in words.
        case noFigure(scenario: String, String)
    }

    package var parser: String
    package var feed: String
    package var kind: Kind

    /// Whether the parser refused the feed or crashed on it: what a sweep shows as the parser's
    /// outcome at that size, not an error of the sweep.
    package var isRefusal: Bool {
        switch kind {
        case .notTimed(.failed), .notTimed(.crashed), .notTimed(.timedOut), .notTimed(.exceededMemory): return true
        default: return false
        }
    }

    /// One line: "expat on feed.xml: not timed: FAILED: …".
    package var description: String {
        switch kind {
        case .notTimed(let status): return "\(parser) on \(feed): not timed: \(status)"
        case .failedIterations(let count, let outcome):
            return "\(parser) on \(feed): \(count) failed iteration(s)" + (outcome.map { ": \($0)" } ?? "")
        case .timedUnverified(let detail):
            return "\(parser) on \(feed): timed as asked (--allow-unverified), but UNVERIFIED: \(detail)"
        case .workersNotStarted(let count, let error):
            return "\(parser) on \(feed): \(count) worker(s) could not start (\(error)); the run is stored incomplete"
        case .noFigure(let scenario, let why):
            return "\(parser) on \(feed) (\(scenario)): no timed figure: \(why)"
        }
    }

    /// The problems in lines, each fact said once: a cell with no figure whose reason the notes under
    /// its table give already (`noted`: `RunReport` tables' cells with a note) is named without it,
    /// the parsers of one feed and scenario on one line where the first of them was ("libxml2, expat
    /// on feed.xml (parse): no timed figure (why: under its table)"); the others as ``description``
    /// says them, in their order.
    package static func lines(_ problems: [RunProblem], noted: Set<CellKey>) -> [String] {
        func isNoted(_ problem: RunProblem) -> String? {
            guard case .noFigure(let scenario, _) = problem.kind,
                noted.contains(where: {
                    $0.parser == problem.parser && $0.feedPath == problem.feed && $0.scenario.name == scenario
                })
            else { return nil }
            return scenario
        }
        var lines: [String] = []
        var done: Set<String> = []
        for problem in problems {
            guard let scenario = isNoted(problem) else {
                lines.append(problem.description)
                continue
            }
            let place = "\(problem.feed) (\(scenario))"
            guard done.insert(place).inserted else { continue }
            let parsers = problems.filter { isNoted($0) == scenario && $0.feed == problem.feed }.map(\.parser)
            lines.append("\(parsers.joined(separator: ", ")) on \(place): no timed figure (why: under its table)")
        }
        return lines
    }

    /// The cells of the parsers in `asked` that ended with no figure (no time, no count), each a
    /// ``Kind/noFigure(scenario:_:)`` saying why: every parse failed, or every parse lost the CPU.
    ///
    /// Only the cells that time a parse from memory (`parse`, `document`): their time is the
    /// headline, and only their parses are measured again when they lose the CPU. (The other
    /// scenarios' failed iterations are ``Kind/failedIterations(_:outcome:)``.)
    package static func withoutFigure(_ cells: [CellSummary], asked: Set<String>) -> [RunProblem] {
        cells.filter { cell in
            asked.contains(cell.cell.parser) && hasNoFigure(cell)
        }.map { cell in
            RunProblem(
                parser: cell.cell.parser, feed: cell.cell.feedPath,
                kind: .noFigure(scenario: cell.cell.scenario.name, cell.whyNoFigure ?? "no parse was measured"))
        }
    }

    /// Whether a cell that times a parse from memory ended with neither a time nor a count.
    package static func hasNoFigure(_ cell: CellSummary) -> Bool {
        cell.cell.scenario.isParseFromMemory && cell.whyNoFigure != nil
    }
}
