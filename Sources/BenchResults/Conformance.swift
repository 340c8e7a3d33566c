import Foundation

/// One test of the W3C XML Conformance Test Suite, as its catalog describes it.
public struct ConformanceCase: Codable, Sendable, Hashable {
    /// What a conforming parser must do with the document.
    public enum Expectation: String, Codable, Sendable, CaseIterable {
        /// Not well-formed: a parser must report an error.
        case notWellFormed = "not-wf"
        /// Valid (hence well-formed): a parser must accept it.
        case valid
    }

    /// The catalog's `ID`.
    public var id: String
    public var expectation: Expectation
    /// The document's path, relative to the suite's directory (`xml:base` applied).
    public var path: String
    /// The catalog's `SECTIONS` (the productions of the recommendation it tests).
    public var sections: String
    /// The catalog's description of the test, spaces collapsed.
    public var summary: String

    public init(id: String, expectation: Expectation, path: String, sections: String, summary: String) {
        self.id = id
        self.expectation = expectation
        self.path = path
        self.sections = sections
        self.summary = summary
    }
}

/// What one parser did with one conformance document.
public struct ConformanceResult: Codable, Sendable, Hashable {
    public enum Outcome: String, Codable, Sendable, CaseIterable {
        /// The parser reported an error (a `FeedParseError`).
        case rejected
        /// The parser ended without an error.
        case accepted
        /// The worker died by a signal on this document, also when it ran alone.
        case crashed
        /// The parser made no progress within the time limit of a case, also when it ran alone.
        case hung
        /// The document could not be read, or the worker could not run.
        case failed
    }

    /// ``ConformanceCase/id``.
    public var caseID: String
    public var outcome: Outcome
    /// The error as the parser reported it (message, line, column), the signal, or what failed.
    public var detail: String?
    /// The signal's number, for a crash.
    public var signal: Int32?

    public init(caseID: String, outcome: Outcome, detail: String? = nil, signal: Int32? = nil) {
        self.caseID = caseID
        self.outcome = outcome
        self.detail = detail
        self.signal = signal
    }

    /// `true` when the outcome is what a conforming parser does with a document of `expectation`.
    public func conforms(to expectation: ConformanceCase.Expectation) -> Bool {
        switch expectation {
        case .notWellFormed: return outcome == .rejected
        case .valid: return outcome == .accepted
        }
    }
}

/// Every parser's results over the selected conformance documents (`bench conformance`).
public struct ConformanceTable: Codable, Sendable {
    /// One parser's results, in the order of ``ConformanceTable/cases``.
    public struct ParserResults: Codable, Sendable {
        public var parser: String
        /// `ParserKind`'s name ("push/event", "tree", "floor", …).
        public var kind: String
        public var results: [ConformanceResult]
        /// Cases that crashed or stalled a worker running many cases but gave another outcome when run
        /// alone (their outcome is the one alone).
        public var notReproducedAlone: [String]

        public init(parser: String, kind: String, results: [ConformanceResult], notReproducedAlone: [String] = []) {
            self.parser = parser
            self.kind = kind
            self.results = results
            self.notReproducedAlone = notReproducedAlone
        }
    }

    /// The counts of one parser over the documents of one expectation.
    public struct Counts: Sendable, Equatable {
        public var total = 0
        public var rejected = 0
        public var accepted = 0
        public var crashed = 0
        public var hung = 0
        public var failed = 0
        /// Crashes by signal name.
        public var signals: [String: Int] = [:]

        public init() {}
    }

    /// When the table was made.
    public var date: Date
    /// The suite's directory.
    public var suite: String
    /// The rules that chose the documents, in words.
    public var rules: [String]
    /// How each document was given to the parsers, in words.
    public var method: [String]
    /// The library versions (libxml2, expat) the parsers ran on.
    public var libraries: [String: String]
    public var cases: [ConformanceCase]
    public var parsers: [ParserResults]
    /// The whole run's wall time.
    public var elapsedSeconds: Double

    public init(
        date: Date, suite: String, rules: [String], method: [String], libraries: [String: String],
        cases: [ConformanceCase],
        parsers: [ParserResults], elapsedSeconds: Double
    ) {
        self.date = date
        self.suite = suite
        self.rules = rules
        self.method = method
        self.libraries = libraries
        self.cases = cases
        self.parsers = parsers
        self.elapsedSeconds = elapsedSeconds
    }

    /// The number of documents of `expectation`.
    public func caseCount(_ expectation: ConformanceCase.Expectation) -> Int {
        cases.count(where: { $0.expectation == expectation })
    }

    /// `parser`'s counts over the documents of `expectation`.
    public func counts(_ parser: ParserResults, _ expectation: ConformanceCase.Expectation) -> Counts {
        var counts = Counts()
        for (testCase, result) in zip(cases, parser.results) where testCase.expectation == expectation {
            counts.total += 1
            switch result.outcome {
            case .rejected: counts.rejected += 1
            case .accepted: counts.accepted += 1
            case .crashed:
                counts.crashed += 1
                counts.signals[result.detail ?? "signal", default: 0] += 1
            case .hung: counts.hung += 1
            case .failed: counts.failed += 1
            }
        }
        return counts
    }

    /// `parser`'s results that are not what a conforming parser does, with their cases.
    public func exceptions(_ parser: ParserResults) -> [(ConformanceCase, ConformanceResult)] {
        zip(cases, parser.results).filter { !$0.1.conforms(to: $0.0.expectation) }
    }
}
