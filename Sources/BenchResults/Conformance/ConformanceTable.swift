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
        /// The canonical-events check of a parser that walks documents; `nil` for one that does not
        /// (it builds songs only, or has no document walk) or when the check did not run.
        public var canonical: CanonicalEvents?

        public init(
            parser: String, kind: String, results: [ConformanceResult], notReproducedAlone: [String] = [],
            canonical: CanonicalEvents? = nil
        ) {
            self.parser = parser
            self.kind = kind
            self.results = results
            self.notReproducedAlone = notReproducedAlone
            self.canonical = canonical
        }
    }

    /// One parser's events on the valid documents that have an expected canonical form (the
    /// catalog's `OUTPUT`), written in that form and compared with it byte for byte.
    public struct CanonicalEvents: Codable, Sendable, Equatable {
        /// What became of one document.
        public enum Verdict: String, Codable, Sendable, CaseIterable {
            /// Its canonical form is the expected one, byte for byte.
            case reproduced
            /// It accepted the document and wrote another canonical form.
            case differs
            /// It rejected the (valid) document.
            case rejected
            /// It crashed, hung or could not run.
            case failed
        }

        /// One document's verdict.
        public struct Result: Codable, Sendable, Hashable {
            /// ``ConformanceCase/id``.
            public var caseID: String
            /// The document, relative to the suite's directory.
            public var path: String
            public var verdict: Verdict
            /// Where the forms first differ, the error, or what failed.
            public var detail: String?

            public init(caseID: String, path: String, verdict: Verdict, detail: String? = nil) {
                self.caseID = caseID
                self.path = path
                self.verdict = verdict
                self.detail = detail
            }
        }

        /// Each document's verdict, in catalog order.
        public var results: [Result]

        public init(results: [Result]) {
            self.results = results
        }

        /// The documents whose canonical form it reproduced.
        public var reproduced: Int { results.count { $0.verdict == .reproduced } }
        /// The documents it accepted with another canonical form.
        public var differing: Int { results.count { $0.verdict == .differs } }
        /// The documents it did not read: rejected, crashed, hung or failed.
        public var notRead: Int { results.count { $0.verdict == .rejected || $0.verdict == .failed } }
        /// The documents not reproduced, with their verdicts.
        public var exceptions: [Result] { results.filter { $0.verdict != .reproduced } }
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

    /// The number of documents with an expected canonical form, when a parser's canonical events
    /// were checked.
    public var canonicalCaseCount: Int? { parsers.compactMap(\.canonical).first?.results.count }

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
