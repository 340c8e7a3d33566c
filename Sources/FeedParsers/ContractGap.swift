#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A part of the contract that a parser does not meet on some inputs: what its tests pin instead
/// (`KnownDeviation`, `CanonicalFormDifferences`), known to the verifier so that an answer is
/// confirmed only by a parser that meets the whole contract on the input at hand.
///
/// Two parsers that share a gap agree on its inputs without either being right (the libxml2 reader
/// and Foundation both lose the text of an entity declared in the DTD): their agreement confirms
/// nothing. The verifier tells, from the document's bytes, whether a gap can matter there; where that
/// cannot be told cheaply it always applies.
public enum ContractGap: String, Sendable, Hashable, CaseIterable {
    /// Matches elements by local name, not namespace URI (XMLCoder's keys, SWXMLHash's names).
    case localNamesOnly = "local names only"
    /// Takes a field's own character data only, not that of elements nested in it, or part of it
    /// when comments or CDATA sections split it.
    case partialText = "partial text"
    /// Accepts some malformed documents, or returns the songs read before an error.
    case acceptsMalformed = "accepts malformed documents"
    /// Does not expand an entity declared in the DTD, or drops its text, or normalises an attribute
    /// value that holds one differently from XML's rules (libxml2 without entity substitution, its
    /// reader, Foundation over it).
    case dtdEntities = "entities declared in the DTD"
    /// Keeps a carriage return and line feed in a CDATA section as they are (libxml2's push parser,
    /// and the parsers over it): XML reads them as one line feed.
    case carriageReturnInCDATA = "carriage return in CDATA"

    /// Whether the gap can make a difference on `document`.
    package func applies(to document: [UInt8]) -> Bool {
        switch self {
        case .localNamesOnly, .partialText, .acceptsMalformed:
            return true
        case .dtdEntities:
            return Self.contains(document, "<!ENTITY") || Self.contains(document, "<!ATTLIST")
        case .carriageReturnInCDATA:
            return Self.contains(document, "\r") && Self.contains(document, "<![CDATA[")
        }
    }

    /// Whether `bytes` hold `text` (ASCII).
    ///
    /// With `memchr` and `memcmp`: every verified run asks this of the whole feed for each parser,
    /// and a loop over the bytes in Swift took a debug build 0.35 s of a 0.7 s run on the 900 KB feed.
    static func contains(_ bytes: [UInt8], _ text: StaticString) -> Bool {
        text.withUTF8Buffer { needle in
            bytes.withUnsafeBytes { haystack in
                guard let base = haystack.baseAddress, let needleBase = needle.baseAddress, let first = needle.first,
                    haystack.count >= needle.count
                else { return false }
                let last = haystack.count - needle.count
                var offset = 0
                while offset <= last, let hit = memchr(base + offset, Int32(first), last - offset + 1) {
                    if memcmp(hit, needleBase, needle.count) == 0 { return true }
                    offset = base.distance(to: UnsafeRawPointer(hit)) + 1
                }
                return false
            }
        }
    }
}
