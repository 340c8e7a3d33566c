import SongFeed

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The elements of a feed that matter for a ``Song``, matched by namespace URI and local name.
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

    static func equals(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        guard let base = bytes.baseAddress else { return literal.utf8CodeUnitCount == 0 }
        return memcmp(base, literal.utf8Start, bytes.count) == 0
    }
}

/// The song-building work every adapter shares, fed with element and character events.
///
/// It keeps the state of the classic sample's delegate: whether it is inside an `item`, which song
/// field it is collecting, and the field's character data as bytes in one reused buffer. A `String`
/// is made only when a field ends, and the date is converted once, with ``SongDate/init(feedText:)``.
///
/// A field is a direct child of `item`; its text is all the character data inside it, including
/// that of any nested elements. A field longer than ``maximumFieldBytes`` is an error, so that a
/// hostile document cannot make a parser buffer without bound.
///
/// It is a class that each adapter holds with `let`: a struct stored in the adapter's class was
/// copied whole (songs, buffer, closure) on every callback that read it, which cost more than the
/// parsing it wrapped.
public final class SongAssembler {
    /// The longest text one song field may have, in UTF-8 bytes.
    public static let maximumFieldBytes = 1 << 20

    /// The songs completed so far, in document order.
    public private(set) var songs: [Song] = []

    private let onSong: ((Song) -> Void)?
    private var depth = 0
    private var itemDepth = 0  // 0: not inside an item
    private var field = FeedElement.other  // .other: not collecting
    private var fieldDepth = 0
    private var text: [UInt8] = []
    private var title = ""
    private var category = ""
    private var artist = ""
    private var album = ""
    private var releaseDate: SongDate?

    /// How many elements are open.
    public var openElements: Int { depth }

    /// Whether character data is being collected now; adapters may skip ``characters(_:)`` otherwise.
    public var isCollectingText: Bool { field != .other }

    public init(onSong: ((Song) -> Void)?) {
        self.onSong = onSong
        text.reserveCapacity(256)
    }

    /// An element starts.
    public func startElement(_ element: FeedElement) {
        depth += 1
        guard field == .other else { return }  // an element nested in a field: its text belongs to the field
        if itemDepth == 0 {
            if element == .item {
                itemDepth = depth
                title = ""
                category = ""
                artist = ""
                album = ""
                releaseDate = nil
            }
        } else if depth == itemDepth + 1, element != .other, element != .item {
            field = element
            fieldDepth = depth
            text.removeAll(keepingCapacity: true)
        }
    }

    /// Character data (text or CDATA), as UTF-8 bytes.
    ///
    /// - Returns: `false` when the current field has grown past ``maximumFieldBytes``; the adapter
    ///   must then stop its parser and report ``fieldTooLongMessage``.
    public func characters(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard field != .other else { return true }
        guard text.count + bytes.count <= Self.maximumFieldBytes else { return false }
        text.append(contentsOf: bytes)
        return true
    }

    /// Character data given as a `String` (Foundation's `XMLParser` hands out strings).
    public func characters(_ string: String) -> Bool {
        guard field != .other else { return true }
        var string = string
        return string.withUTF8 { characters(UnsafeRawBufferPointer($0)) }
    }

    /// The current element ends.
    public func endElement() {
        defer { depth -= 1 }
        if field != .other {
            guard depth == fieldDepth else { return }
            switch field {
            case .title: title = String(decoding: text, as: UTF8.self)
            case .category: category = String(decoding: text, as: UTF8.self)
            case .artist: artist = String(decoding: text, as: UTF8.self)
            case .album: album = String(decoding: text, as: UTF8.self)
            case .releaseDate: releaseDate = text.withUnsafeBytes { SongDate(feedText: $0) }
            case .item, .other: break
            }
            field = .other
        } else if itemDepth != 0, depth == itemDepth {
            let song = Song(title: title, category: category, artist: artist, album: album, releaseDate: releaseDate)
            songs.append(song)
            itemDepth = 0
            onSong?(song)
        }
    }

    /// The message for a field past ``maximumFieldBytes``.
    public var fieldTooLongMessage: String {
        "song field <\(field)> of item \(songs.count + 1) is longer than \(Self.maximumFieldBytes) bytes"
    }
}
