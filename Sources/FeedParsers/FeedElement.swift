#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The elements of a feed that matter for a `Song`, matched by namespace URI and local name.
public enum FeedElement: UInt8, Sendable {
    /// Anything else.
    case other
    /// `item` (no namespace).
    case item
    /// `title` (no namespace).
    case title
    /// `category` (no namespace).
    case category
    /// `artist` in the itms namespace.
    case artist
    /// `album` in the itms namespace.
    case album
    /// `releasedate` in the itms namespace.
    case releaseDate

    /// The namespace URI of Apple's iTunes Store RSS module.
    public static let itmsNamespace: StaticString = "http://phobos.apple.com/rss/1.0/modules/itms/"

    /// Classifies an element from its namespace URI (empty for none) and local name, as raw UTF-8.
    ///
    /// No allocation: the bytes are compared in place with the constant names.
    public static func classify(namespace: UnsafeRawBufferPointer, local: UnsafeRawBufferPointer) -> FeedElement {
        if namespace.isEmpty {
            switch local.count {
            case 4: return equals(local, "item") ? .item : .other
            case 5: return equals(local, "title") ? .title : .other
            case 8: return equals(local, "category") ? .category : .other
            default: return .other
            }
        }
        guard equals(namespace, itmsNamespace) else { return .other }
        switch local.count {
        case 5: return equals(local, "album") ? .album : .other
        case 6: return equals(local, "artist") ? .artist : .other
        case 11: return equals(local, "releasedate") ? .releaseDate : .other
        default: return .other
        }
    }

    /// Classifies an element from NUL-terminated UTF-8 names (libxml2's): the namespace URI
    /// (`nil` or empty for none) and the local name.
    ///
    /// Nothing is measured first: the first byte picks the one name that can match, compared with
    /// `strcmp` (which stops at the first difference), and the URI is compared only for a local name
    /// of the itms namespace.
    public static func classify(namespace: UnsafePointer<CChar>?, local: UnsafePointer<CChar>) -> FeedElement {
        guard let namespace, namespace.pointee != 0 else { return classifyPlain(local) }
        let element = classifyItmsLocal(local)
        guard element != .other, cEquals(namespace, itmsNamespace) else { return .other }
        return element
    }

    /// Classifies expat's element name: "URI" U+0001 "local name", or the local name alone.
    ///
    /// One pass finds the separator; the URI is compared (length first) only for an itms local name.
    public static func classify(expatName name: UnsafePointer<CChar>, separator: CChar) -> FeedElement {
        guard let cut = strrchr(name, Int32(separator)) else { return classifyPlain(name) }
        let element = classifyItmsLocal(cut + 1)
        guard element != .other else { return .other }
        let uri = UnsafeRawBufferPointer(start: name, count: UnsafePointer(cut) - name)
        return equals(uri, itmsNamespace) ? element : .other
    }

    private static func classifyPlain(_ local: UnsafePointer<CChar>) -> FeedElement {
        switch UInt8(bitPattern: local.pointee) {
        case UInt8(ascii: "i"): return cEquals(local, "item") ? .item : .other
        case UInt8(ascii: "t"): return cEquals(local, "title") ? .title : .other
        case UInt8(ascii: "c"): return cEquals(local, "category") ? .category : .other
        default: return .other
        }
    }

    private static func classifyItmsLocal(_ local: UnsafePointer<CChar>) -> FeedElement {
        switch UInt8(bitPattern: local.pointee) {
        case UInt8(ascii: "a"): return cEquals(local, "artist") ? .artist : cEquals(local, "album") ? .album : .other
        case UInt8(ascii: "r"): return cEquals(local, "releasedate") ? .releaseDate : .other
        default: return .other
        }
    }

    private static func cEquals(_ string: UnsafePointer<CChar>, _ literal: StaticString) -> Bool {
        // A string literal's bytes end with a NUL.
        strcmp(string, UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
    }

    static func equals(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        guard let base = bytes.baseAddress else { return literal.utf8CodeUnitCount == 0 }
        return memcmp(base, literal.utf8Start, bytes.count) == 0
    }
}
