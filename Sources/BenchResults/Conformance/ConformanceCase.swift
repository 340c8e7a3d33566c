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
