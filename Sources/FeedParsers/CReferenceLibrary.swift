import CReferenceParsers

/// A library whose adapter has a plain-C reference: its extraction, done in C (see ``CReferenceParser``).
package protocol CReferenceLibrary: Sendable {
    /// The reference parser's name ("c-libxml2").
    static var name: String { get }
    /// One line about it.
    static var summary: String { get }
    /// The library, as the C target `CReferenceParsers` names it.
    static var library: RefLibrary { get }
    /// The parts of the contract its extraction does not meet (as its adapter's). Default: none.
    static var contractGaps: Set<ContractGap> { get }
}

extension CReferenceLibrary {
    package static var contractGaps: Set<ContractGap> { [] }
}
