import Foundation

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
