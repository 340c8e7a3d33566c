import CReferenceParsers

/// expat: the `expat` adapter's namespace-aware `XML_Parse` (`XML_ParserCreateNS` with U+0001 between
/// URI and local name, parameter entities never parsed, external entities refused, the same hash
/// salt when counts must repeat) in plain C.
package enum ExpatReference: CReferenceLibrary {
    package static let name = "c-expat"
    package static let library = REF_LIBRARY_EXPAT
    package static var summary: String {
        "reference: the expat adapter's XML_Parse extraction in plain C (fields in C buffers, songs made after the clock)"
    }
}
