import BenchWorker
import BenchResults
import FeedParsers
import Foundation

/// `bench verify --contract`: every parser of the document workload over the small documents of
/// ``HandlerContract``, one rule each, its events compared with the reference parser's.
///
/// Each parser runs in workers, as `bench conformance` runs it (one worker for all the documents;
/// a crash or a hang costs only the document it happened on, which is then that rule's outcome),
/// once with each document whole and once pushed a byte at a time. A rule is broken when the
/// parser's events on its document differ from the reference's (the first differing event is
/// named), when it rejects a well-formed document or accepts a malformed one, or when it crashes
/// or hangs there; the events of the byte-at-a-time walk that differ from the whole walk's break
/// the rule of chunks. A rule is skipped for a parser only with a reason said: a gap of the
/// parser's own (`ContractGap`) that applies to the document, or one of ``knownSkips``.
package enum ContractCheck {
    /// The parser every other's events are compared with: expat meets the whole contract (no
    /// `ContractGap`) and rejects 926 of the W3C suite's 927 not-well-formed documents.
    package static let reference = "expat"

    /// Rules a built-in parser is not run on, by parser and rule, with the reason: what its library
    /// does there and its adapter cannot undo.
    package static let knownSkips: [String: [String: String]] = {
        let foundation = [
            "empty-processing-instructions":
                "Foundation's XMLParser crashes (SIGSEGV) on a processing instruction without data, on Linux",
            "dtd":
                "Foundation's XMLParser reports a processing instruction inside the DTD as any other, and tells "
                + "its delegate nothing of where the DTD ends",
        ]
        return ["foundation": foundation, "foundation-stream": foundation]
    }()

    /// What a parser did with one document.
    package enum Observation: Sendable, Equatable {
        /// It accepted the document: its events.
        case events([DocumentEvent])
        /// It ended with an error: the error.
        case rejected(String)
        /// It crashed, hung or could not run: what happened.
        case failed(String)
    }

    /// Runs a parser over documents pushed `chunkSize` bytes at a time (0: whole): one observation
    /// per document, in order.
    package typealias Runner = @Sendable (_ parser: String, _ documents: [[UInt8]], _ chunkSize: Int) -> [Observation]

    /// A rule one parser broke.
    package struct Broken: Sendable {
        package var rule: HandlerContract.Rule
        /// The document that shows it.
        package var document: [UInt8]
        /// What the parser did there, against what the reference did.
        package var detail: String
    }

    /// A rule not checked for one parser, and why.
    package struct Skipped: Sendable {
        package var rule: HandlerContract.Rule
        package var reason: String
    }

    /// One parser's results.
    package struct ParserResult: Sendable {
        package var parser: String
        /// The rules that hold, by id.
        package var held: [String]
        package var broken: [Broken]
        package var skipped: [Skipped]
    }

    /// The whole check.
    package struct Report: Sendable {
        package var reference: String
        package var parsers: [ParserResult]
        /// What made a rule impossible to check for every parser (the reference itself broke it):
        /// a fault of the suite's, said, and never taken as held.
        package var unchecked: [Skipped]

        /// Whether every rule with a document held for every parser, and every one was checked.
        package var allHold: Bool { unchecked.isEmpty && parsers.allSatisfy { $0.broken.isEmpty } }
    }

    /// The parsers `bench verify --contract` checks when none are named: every parser of the
    /// document workload that reports events, in the registry's order.
    package static var defaultParsers: [String] {
        ParserRegistry.documentParsers.filter { $0.reportsEvents }.map { $0.name }
    }

    /// Why `parser` cannot be checked (it has no document walk, reports no events, or is unknown);
    /// `nil` when it can.
    package static func notCheckable(_ parser: String) -> String? {
        if let reason = ParserRegistry.documentNotApplicable[parser] { return "no document walk: \(reason)" }
        guard let type = ParserRegistry.documentParser(named: parser) else { return "not a parser of documents" }
        return type.reportsEvents ? nil : "reports no events"
    }

    /// Checks `parsers` against ``reference`` over every rule's document.
    ///
    /// - Parameters:
    ///   - parsers: the parsers, in report order (each must be checkable: ``notCheckable(_:)``).
    ///   - reference: the parser whose events are the expected ones.
    ///   - gaps: each parser's contract gaps (a gap that applies to a document skips its rule).
    ///   - runner: runs a parser over the documents (``workers(executable:timeout:)`` in workers).
    /// - Returns: each parser's rules held, broken and skipped, and those the reference could not check.
    package static func check(
        parsers: [String], reference: String = reference, gaps: (String) -> Set<ContractGap> = registryGaps,
        runner: Runner
    ) -> Report {
        let rules = HandlerContract.documentRules
        let documents = rules.compactMap(\.document)
        let expected = runner(reference, documents, 0)
        var unchecked: [Skipped] = []
        for (index, rule) in rules.enumerated() {
            let observed = index < expected.count ? expected[index] : .failed("no result")
            if let problem = problem(of: observed, expecting: rule.check) {
                unchecked.append(Skipped(rule: rule, reason: "the reference, \(reference), \(problem)"))
            }
        }
        let results = parsers.map { parser -> ParserResult in
            var result = ParserResult(parser: parser, held: [], broken: [], skipped: [])
            let parserGaps = gaps(parser)
            var run: [Int] = []
            for (index, rule) in rules.enumerated() {
                guard !unchecked.contains(where: { $0.rule.id == rule.id }) else { continue }
                if let reason = knownSkips[parser]?[rule.id] {
                    result.skipped.append(Skipped(rule: rule, reason: reason))
                } else if let gap = parserGaps.sorted(by: { $0.rawValue < $1.rawValue }).first(where: {
                    applies($0, to: rule)
                }) {
                    result.skipped.append(
                        Skipped(
                            rule: rule,
                            reason: "\(parser) says it does not meet this part of the contract (its gap "
                                + "\"\(gap.rawValue)\" applies to the document)"))
                } else {
                    run.append(index)
                }
            }
            let whole = runner(parser, run.map { documents[$0] }, 0)
            let bytewise = runner(parser, run.map { documents[$0] }, 1)
            var chunkProblem: Broken?
            for (position, index) in run.enumerated() {
                let rule = rules[index]
                let ours = position < whole.count ? whole[position] : .failed("no result")
                if let detail = difference(ours, expected[index], rule: rule, parser: parser, reference: reference) {
                    result.broken.append(Broken(rule: rule, document: documents[index], detail: detail))
                } else {
                    result.held.append(rule.id)
                }
                let pushed = position < bytewise.count ? bytewise[position] : .failed("no result")
                if chunkProblem == nil, pushed != ours,
                    let chunks = HandlerContract.rules.first(where: {
                        $0.check == .chunks
                    })
                {
                    chunkProblem = Broken(
                        rule: chunks, document: documents[index],
                        detail: difference(pushed, ours, parser: "\(parser) byte by byte", reference: "\(parser) whole")
                    )
                }
            }
            if let chunkProblem {
                result.broken.append(chunkProblem)
            } else if let chunks = HandlerContract.rules.first(where: { $0.check == .chunks }), !run.isEmpty {
                result.held.append(chunks.id)
            }
            return result
        }
        return Report(reference: reference, parsers: results, unchecked: unchecked)
    }

    /// The contract gaps the registry knows of `parser`.
    package static func registryGaps(_ parser: String) -> Set<ContractGap> {
        ParserRegistry.parser(named: parser)?.contractGaps ?? []
    }

    /// Whether `gap` can make a difference to `rule`'s document: accepting malformed documents only
    /// to a malformed one.
    static func applies(_ gap: ContractGap, to rule: HandlerContract.Rule) -> Bool {
        switch rule.check {
        case .events(let document): return gap != .acceptsMalformed && gap.applies(to: document)
        case .error(let document): return gap.applies(to: document)
        case .chunks, .stated: return false
        }
    }

    /// What is wrong with `observed` against what `check` expects of it, or `nil`.
    static func problem(of observed: Observation, expecting check: HandlerContract.Rule.Check) -> String? {
        switch (check, observed) {
        case (.events, .events), (.error, .rejected): return nil
        case (.events, .rejected(let error)): return "rejected the well-formed document: \(error)"
        case (.error, .events(let events)):
            return "accepted the malformed document (\(events.count) events), where an error is due"
        case (_, .failed(let what)): return what
        default: return nil
        }
    }

    /// How `ours` breaks `rule` against the reference's `expected`, or `nil` when it holds.
    static func difference(
        _ ours: Observation, _ expected: Observation, rule: HandlerContract.Rule, parser: String, reference: String
    ) -> String? {
        if let problem = problem(of: ours, expecting: rule.check) { return "\(parser) \(problem)" }
        guard case .events(let events) = ours, case .events(let theirs) = expected, events != theirs else {
            return nil
        }
        return OutputDifference.first(events, theirs, parser: parser, reference: reference)
    }

    /// Where two observations differ, in words.
    static func difference(_ ours: Observation, _ theirs: Observation, parser: String, reference: String) -> String {
        switch (ours, theirs) {
        case (.events(let a), .events(let b)): return OutputDifference.first(a, b, parser: parser, reference: reference)
        default: return "\(parser): \(describe(ours)); \(reference): \(describe(theirs))"
        }
    }

    private static func describe(_ observation: Observation) -> String {
        switch observation {
        case .events(let events): return "\(events.count) events"
        case .rejected(let error): return "rejected (\(error))"
        case .failed(let what): return what
        }
    }

    /// Runs each parser in workers (``ConformanceRunner``) over the documents written into a
    /// scratch directory of this process's.
    ///
    /// - Returns: the runner, and the directory (for the caller to remove once done).
    /// - Throws: a file system error when the directory cannot be made.
    package static func workers(
        executable: String = WorkerProcess.workerExecutable(), timeout: Double = 10
    ) throws -> (runner: Runner, directory: ScratchDirectory) {
        let scratch = try ScratchDirectory(prefix: "bench-contract")
        let directory = scratch.path
        let runner: Runner = { parser, documents, chunkSize in
            var cases: [ConformanceCase] = []
            for (index, document) in documents.enumerated() {
                let name = "\(index)-\(chunkSize).xml"
                let path = (directory as NSString).appendingPathComponent(name)
                guard FileManager.default.createFile(atPath: path, contents: Data(document)) else {
                    return documents.map { _ in .failed("cannot write the document into \(directory)") }
                }
                cases.append(ConformanceCase(id: name, expectation: .valid, path: name, sections: "", summary: ""))
            }
            guard !cases.isEmpty else { return [] }
            var options = ConformanceRunner.Options(
                executable: executable, chunkSize: chunkSize, caseTimeout: timeout, memoryLimitMiB: 1_024)
            options.workload = .document
            options.reportEvents = true
            let (table, lines) = ConformanceRunner.runLines(
                parser: parser, suite: directory, cases: cases, options: options)
            return cases.indices.map { index in
                let result = table.results[index]
                switch result.outcome {
                case .accepted:
                    guard let events = lines[index]?.events else { return .failed("no events reported") }
                    return .events(events)
                case .rejected: return .rejected(result.detail ?? "rejected")
                case .crashed, .hung, .failed:
                    return .failed("\(result.outcome.rawValue): \(result.detail ?? "")")
                }
            }
        }
        return (runner, scratch)
    }
}
