import Foundation

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
