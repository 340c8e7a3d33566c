import CReferenceParsers

/// libxml2: the `libxml2` adapter's SAX2 push parse (namespaces, `XML_PARSE_NONET`, no external
/// subset or entity loaded, the internal DTD's entities kept) in plain C.
package enum LibXML2Reference: CReferenceLibrary {
    package static let name = "c-libxml2"
    package static let contractGaps: Set<ContractGap> = [.dtdEntities, .carriageReturnInCDATA]
    package static let library = REF_LIBRARY_LIBXML2
    package static var summary: String {
        "reference: the libxml2 adapter's SAX2 push extraction in plain C (fields in C buffers, songs made after the clock)"
    }
}
