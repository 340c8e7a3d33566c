#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The elements of a feed that matter for a `Song`, matched by namespace URI and local name.
///
/// Two forms of Apple's feeds: RSS 2.0 (`item`, with `title`, `category` and the itms module's
/// `artist`, `album`, `releasedate`) and Atom (`entry` in the Atom namespace, with the im module's
/// `name`, `artist`, `collection` (whose `im:name` is the album), `releaseDate`, and Atom's `category`,
/// whose `term` attribute is the category).
package enum FeedElement: UInt8, Sendable {
    /// Anything else.
    case other
    /// `item` (no namespace): an RSS song.
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
    /// `entry` in the Atom namespace: an Atom song.
    case entry
    /// `category` in the Atom namespace: its `term` attribute is the song's category.
    case atomCategory
    /// `name` in the im namespace: the song's title, or the album's inside `im:collection`.
    case name
    /// `artist` in the im namespace.
    case imArtist
    /// `collection` in the im namespace: the album, named by its `im:name`.
    case collection
    /// `releaseDate` in the im namespace ("2013-06-24T00:00:00-07:00").
    case imReleaseDate

    /// The namespace URI of Apple's iTunes Store RSS module.
    package static let itmsNamespace: StaticString = "http://phobos.apple.com/rss/1.0/modules/itms/"

    /// The namespace URI of Apple's iTunes Atom extensions (the `im:` prefix of its Atom feeds).
    package static let imNamespace: StaticString = "http://itunes.apple.com/rss"

    /// The Atom namespace URI.
    package static let atomNamespace: StaticString = "http://www.w3.org/2005/Atom"

    /// Classifies an element from its namespace URI (empty for none) and local name, as raw UTF-8.
    ///
    /// No allocation: the bytes are compared in place with the constant names.
    package static func classify(namespace: UnsafeRawBufferPointer, local: UnsafeRawBufferPointer) -> FeedElement {
        if namespace.isEmpty {
            switch local.count {
            case 4: return equals(local, "item") ? .item : .other
            case 5: return equals(local, "title") ? .title : .other
            case 8: return equals(local, "category") ? .category : .other
            default: return .other
            }
        }
        switch namespace.count {
        case itmsNamespace.utf8CodeUnitCount:
            guard equals(namespace, itmsNamespace) else { return .other }
            switch local.count {
            case 5: return equals(local, "album") ? .album : .other
            case 6: return equals(local, "artist") ? .artist : .other
            case 11: return equals(local, "releasedate") ? .releaseDate : .other
            default: return .other
            }
        case imNamespace.utf8CodeUnitCount:
            // The im and Atom URIs have the same length.
            if equals(namespace, atomNamespace) {
                switch local.count {
                case 5: return equals(local, "entry") ? .entry : .other
                case 8: return equals(local, "category") ? .atomCategory : .other
                default: return .other
                }
            }
            guard equals(namespace, imNamespace) else { return .other }
            switch local.count {
            case 4: return equals(local, "name") ? .name : .other
            case 6: return equals(local, "artist") ? .imArtist : .other
            case 10: return equals(local, "collection") ? .collection : .other
            case 11: return equals(local, "releaseDate") ? .imReleaseDate : .other
            default: return .other
            }
        default:
            return .other
        }
    }

    /// Classifies an element from NUL-terminated UTF-8 names (libxml2's): the namespace URI
    /// (`nil` or empty for none) and the local name.
    ///
    /// Nothing is measured first: the first byte picks the one name that can match, compared with
    /// `strcmp` (which stops at the first difference), and the URI is compared only for a local name
    /// of one of the feeds' namespaces.
    package static func classify(namespace: UnsafePointer<CChar>?, local: UnsafePointer<CChar>) -> FeedElement {
        guard let namespace, namespace.pointee != 0 else { return classifyPlain(local) }
        return inNamespace(classifyNamespacedLocal(local)) { cEquals(namespace, $0) }
    }

    /// Classifies expat's element name: "URI" U+0001 "local name", or the local name alone.
    ///
    /// One pass finds the separator; the URI is compared (length first) only for a local name of
    /// one of the feeds' namespaces.
    package static func classify(expatName name: UnsafePointer<CChar>, separator: CChar) -> FeedElement {
        guard let cut = strrchr(name, Int32(separator)) else { return classifyPlain(name) }
        let element = classifyNamespacedLocal(cut + 1)
        guard element != .other else { return .other }
        let uri = UnsafeRawBufferPointer(start: name, count: UnsafePointer(cut) - name)
        return inNamespace(element) { equals(uri, $0) }
    }

    /// `element` (found by its local name alone) if its URI is the one it belongs to; `artist` is
    /// also im's (``imArtist``).
    @inline(__always)
    private static func inNamespace(_ element: FeedElement, uriIs: (StaticString) -> Bool) -> FeedElement {
        guard element != .other else { return .other }
        if uriIs(element.namespace) { return element }
        return element == .artist && uriIs(imNamespace) ? .imArtist : .other
    }

    /// The namespace an element of a namespace is in (only for those).
    private var namespace: StaticString {
        switch self {
        case .artist, .album, .releaseDate: return Self.itmsNamespace
        case .entry, .atomCategory: return Self.atomNamespace
        default: return Self.imNamespace
        }
    }

    private static func classifyPlain(_ local: UnsafePointer<CChar>) -> FeedElement {
        switch UInt8(bitPattern: local.pointee) {
        case UInt8(ascii: "i"): return cEquals(local, "item") ? .item : .other
        case UInt8(ascii: "t"): return cEquals(local, "title") ? .title : .other
        case UInt8(ascii: "c"): return cEquals(local, "category") ? .category : .other
        default: return .other
        }
    }

    /// The element a local name would be in its namespace: the itms module's, Atom's or im's (`artist`,
    /// in both the itms and im namespaces, is told apart by its URI in ``inNamespace(_:uriIs:)``).
    private static func classifyNamespacedLocal(_ local: UnsafePointer<CChar>) -> FeedElement {
        switch UInt8(bitPattern: local.pointee) {
        case UInt8(ascii: "a"): return cEquals(local, "artist") ? .artist : cEquals(local, "album") ? .album : .other
        case UInt8(ascii: "r"):
            return cEquals(local, "releasedate")
                ? .releaseDate : cEquals(local, "releaseDate") ? .imReleaseDate : .other
        case UInt8(ascii: "e"): return cEquals(local, "entry") ? .entry : .other
        case UInt8(ascii: "c"):
            return cEquals(local, "category") ? .atomCategory : cEquals(local, "collection") ? .collection : .other
        case UInt8(ascii: "n"): return cEquals(local, "name") ? .name : .other
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
