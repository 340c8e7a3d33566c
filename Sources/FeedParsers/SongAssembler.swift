import SongFeed

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The song-building work every adapter shares, fed with element and character events.
///
/// It keeps the state of the classic sample's delegate: whether it is inside an `item` (RSS) or an
/// `entry` (Atom), which song field it is collecting, and the field's character data as bytes in one
/// reused buffer. A `String` is made only when a field ends, and the date is converted once, with
/// `SongDate.init(feedText:)`.
///
/// A field is a direct child of the `item` or `entry` (an RSS item's fields are RSS elements, an Atom
/// entry's are Atom and im elements), except the Atom album, the `im:name` of a direct
/// `im:collection`; its text is all the character data inside it, including that of any nested
/// elements. The Atom category is its `category`'s `term` attribute. The last field of a name wins.
/// A field longer than 1 MiB is an error, so that a hostile document cannot make a parser buffer
/// without bound.
///
/// Outside the suite, an adapter reaches it through ``SongEvents`` (events as they are read) or
/// ``song(title:category:artist:album:releaseDate:item:parser:)`` (an item's whole texts).
///
/// It is a class that each adapter holds with `let`: a struct stored in the adapter's class was
/// copied whole (songs, buffer, closure) on every callback that read it. Its state lives behind a
/// pointer that it allocates and frees itself: the callbacks run once per element and per run of
/// text, and a stored property of a class costs a dynamic exclusivity check on every access, which
/// was a measurable share of the Swift binding's cost over the same extraction in C.
public final class SongAssembler {
    /// The longest text one song field may have, in UTF-8 bytes.
    package static let maximumFieldBytes = 1 << 20

    private struct State {
        var songs: [Song] = []
        var depth = 0
        var itemDepth = 0  // 0: not inside an item or entry
        var atom = false  // the item is an Atom entry
        var inCollection = false  // the entry's current direct child is its im:collection
        var field = FeedElement.other  // the song field being collected (.title … .releaseDate), or .other
        var fieldDepth = 0
        /// The current field's text: `textCount` bytes of a buffer of `textCapacity` (grown by doubling).
        var text: UnsafeMutableRawPointer? = nil
        var textCount = 0
        var textCapacity = 0
        var title = ""
        var category = ""
        var artist = ""
        var album = ""
        var releaseDate: SongDate?
    }

    private let state: UnsafeMutablePointer<State>
    private let onSong: ((Song) -> Void)?

    /// The songs completed so far, in document order.
    public var songs: [Song] { state.pointee.songs }

    /// How many elements are open.
    public var openElements: Int { state.pointee.depth }

    /// Whether character data is being collected now; adapters may skip ``characters(_:)-(UnsafeRawBufferPointer)`` otherwise.
    @inline(__always)
    package var isCollectingText: Bool { state.pointee.field != .other }

    public init(onSong: ((Song) -> Void)?) {
        self.onSong = onSong
        state = UnsafeMutablePointer<State>.allocate(capacity: 1)
        state.initialize(to: State())
    }

    deinit {
        state.pointee.text?.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The current field's text.
    private var text: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: state.pointee.text, count: state.pointee.textCount)
    }

    /// An element starts.
    ///
    /// - Returns: `true` when it is the Atom `category` of an entry: the adapter must then pass its
    ///   `term` attribute's value (empty when it has none) to
    ///   ``categoryTerm(_:)-(UnsafeRawBufferPointer)`` before anything else.
    @discardableResult
    package func startElement(_ element: FeedElement) -> Bool {
        let s = state
        s.pointee.depth += 1
        // An element nested in a field: its text belongs to the field.
        guard s.pointee.field == .other else { return false }
        if s.pointee.itemDepth == 0 {
            if element == .item || element == .entry {
                s.pointee.itemDepth = s.pointee.depth
                s.pointee.atom = element == .entry
                s.pointee.inCollection = false
                s.pointee.title = ""
                s.pointee.category = ""
                s.pointee.artist = ""
                s.pointee.album = ""
                s.pointee.releaseDate = nil
            }
            return false
        }
        var field = FeedElement.other
        if s.pointee.depth == s.pointee.itemDepth + 1 {
            if !s.pointee.atom {
                switch element {
                case .title, .category, .artist, .album, .releaseDate: field = element
                default: return false
                }
            } else {
                // Known at each direct child's start, so that nothing is checked when elements end.
                s.pointee.inCollection = element == .collection
                switch element {
                case .name: field = .title
                case .imArtist: field = .artist
                case .imReleaseDate: field = .releaseDate
                case .atomCategory: return true
                default: return false
                }
            }
        } else if element == .name, s.pointee.inCollection, s.pointee.depth == s.pointee.itemDepth + 2 {
            field = .album
        } else {
            return false
        }
        s.pointee.field = field
        s.pointee.fieldDepth = s.pointee.depth
        s.pointee.textCount = 0
        return false
    }

    /// The `term` attribute of the Atom `category` that ``startElement(_:)`` asked for: the song's
    /// category (the last category's wins; an empty value when it has none).
    ///
    /// - Returns: `false` when it is longer than ``maximumFieldBytes``: the adapter must then stop
    ///   and report ``fieldTooLongMessage``.
    package func categoryTerm(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count <= Self.maximumFieldBytes else {
            state.pointee.field = .category
            return false
        }
        state.pointee.category = String(decoding: bytes, as: UTF8.self)
        return true
    }

    /// ``categoryTerm(_:)-(UnsafeRawBufferPointer)`` from a `String` (Foundation's attributes), or
    /// `nil` for none.
    package func categoryTerm(_ string: String?) -> Bool {
        var string = string ?? ""
        return string.withUTF8 { categoryTerm(UnsafeRawBufferPointer($0)) }
    }

    /// Character data (text or CDATA), as UTF-8 bytes.
    ///
    /// - Returns: `false` when the current field has grown past ``maximumFieldBytes``; the adapter
    ///   must then stop its parser and report ``fieldTooLongMessage``.
    package func characters(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let s = state
        guard s.pointee.field != .other, let source = bytes.baseAddress else { return true }
        let needed = s.pointee.textCount + bytes.count
        guard needed <= Self.maximumFieldBytes else { return false }
        if needed > s.pointee.textCapacity { grow(to: needed) }
        guard let text = s.pointee.text else { return true }
        (text + s.pointee.textCount).copyMemory(from: source, byteCount: bytes.count)
        s.pointee.textCount = needed
        return true
    }

    /// Makes the text buffer hold at least `needed` bytes, its content kept.
    @inline(never)
    private func grow(to needed: Int) {
        var capacity = Swift.max(256, state.pointee.textCapacity)
        while capacity < needed { capacity *= 2 }
        let grown = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 1)
        if let old = state.pointee.text {
            grown.copyMemory(from: old, byteCount: state.pointee.textCount)
            old.deallocate()
        }
        state.pointee.text = grown
        state.pointee.textCapacity = capacity
    }

    /// Character data given as a `String` (Foundation's `XMLParser` hands out strings).
    package func characters(_ string: String) -> Bool {
        guard isCollectingText else { return true }
        var string = string
        return string.withUTF8 { characters(UnsafeRawBufferPointer($0)) }
    }

    /// The current element ends.
    package func endElement() {
        let s = state
        defer { s.pointee.depth -= 1 }
        if s.pointee.field != .other {
            guard s.pointee.depth == s.pointee.fieldDepth else { return }
            let text = self.text
            switch s.pointee.field {
            case .title: s.pointee.title = String(decoding: text, as: UTF8.self)
            case .category: s.pointee.category = String(decoding: text, as: UTF8.self)
            case .artist: s.pointee.artist = String(decoding: text, as: UTF8.self)
            case .album: s.pointee.album = String(decoding: text, as: UTF8.self)
            case .releaseDate: s.pointee.releaseDate = SongDate(feedText: text)
            default: break
            }
            s.pointee.field = .other
        } else if s.pointee.itemDepth != 0, s.pointee.depth == s.pointee.itemDepth {
            let song = Song(
                title: s.pointee.title, category: s.pointee.category, artist: s.pointee.artist, album: s.pointee.album,
                releaseDate: s.pointee.releaseDate)
            s.pointee.songs.append(song)
            s.pointee.itemDepth = 0
            onSong?(song)
        }
    }

    /// The message for a field past ``maximumFieldBytes``.
    package var fieldTooLongMessage: String {
        Self.fieldTooLongMessage(field: state.pointee.field, item: state.pointee.songs.count + 1)
    }

    /// The `item`th song (from 1) from its fields' whole texts, as the adapters that get each text
    /// from their library (trees, decoders) make it: a missing field is empty, and the date is
    /// converted as every adapter converts it.
    ///
    /// - Throws: ``FeedParseError`` from `parser` (no position) when a text is longer than 1 MiB
    ///   (the limit of every song field).
    public static func song(
        title: String?, category: String?, artist: String?, album: String?, releaseDate: String?, item: Int,
        parser: String
    ) throws -> Song {
        let limit = fieldTooLongMessage(
            title: title, category: category, artist: artist, album: album, releaseDate: releaseDate, item: item)
        if let limit { throw FeedParseError(parser: parser, message: limit, line: 0, column: 0) }
        return Song(
            title: title ?? "", category: category ?? "", artist: artist ?? "", album: album ?? "",
            releaseDate: releaseDate.flatMap { SongDate(feedText: $0) })
    }

    /// The message when one of the `item`th item's field texts is longer than ``maximumFieldBytes``.
    ///
    /// `nil` when every text fits. Nothing is allocated unless a field is too long.
    static func fieldTooLongMessage(
        title: String?, category: String?, artist: String?, album: String?, releaseDate: String?, item: Int
    ) -> String? {
        func tooLong(_ text: String?) -> Bool { (text?.utf8.count ?? 0) > maximumFieldBytes }
        let field: FeedElement
        if tooLong(title) {
            field = .title
        } else if tooLong(category) {
            field = .category
        } else if tooLong(artist) {
            field = .artist
        } else if tooLong(album) {
            field = .album
        } else if tooLong(releaseDate) {
            field = .releaseDate
        } else {
            return nil
        }
        return fieldTooLongMessage(field: field, item: item)
    }

    /// The message for `field` of the `item`th item (from 1) past ``maximumFieldBytes``.
    package static func fieldTooLongMessage(field: FeedElement, item: Int) -> String {
        "song field <\(field)> of item \(item) is longer than \(maximumFieldBytes) bytes"
    }
}
