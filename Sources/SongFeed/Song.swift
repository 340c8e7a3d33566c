/// One song of an iTunes Store feed: what every parser adapter must build from each `item`.
///
/// The fields are the ones Apple's XMLPerformance sample kept. Text fields hold the element's whole
/// character data, entities decoded and CDATA included, exactly as XML defines it (no trimming).
/// An element that is absent from an item gives the empty string; ``releaseDate`` is `nil` when
/// `itms:releasedate` is absent or not a date in the feed's form ("July 10, 2012").
///
/// Its JSON form is `{"title","category","artist","album","releaseDate"}`, with `releaseDate`
/// written as `"YYYY-MM-DD"` or `null`.
public struct Song: Hashable, Codable, Sendable {
    /// The item's `title` (in the iTunes feeds, "Album - Artist").
    public var title: String
    /// The item's `category` (the genre), or empty.
    public var category: String
    /// The item's `itms:artist`, or empty.
    public var artist: String
    /// The item's `itms:album`, or empty.
    public var album: String
    /// The calendar date of the item's `itms:releasedate`, or `nil`.
    public var releaseDate: SongDate?

    public init(title: String, category: String, artist: String, album: String, releaseDate: SongDate?) {
        self.title = title
        self.category = category
        self.artist = artist
        self.album = album
        self.releaseDate = releaseDate
    }

    private enum CodingKeys: String, CodingKey {
        case title, category, artist, album, releaseDate
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        category = try container.decode(String.self, forKey: .category)
        artist = try container.decode(String.self, forKey: .artist)
        album = try container.decode(String.self, forKey: .album)
        releaseDate = try container.decodeIfPresent(SongDate.self, forKey: .releaseDate)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(category, forKey: .category)
        try container.encode(artist, forKey: .artist)
        try container.encode(album, forKey: .album)
        // Always present: `null` when there is no date, so every object has the same five keys.
        try container.encode(releaseDate, forKey: .releaseDate)
    }
}

extension Song {
    /// The names of the fields, in their canonical order (used by reports and comparisons).
    package static let fieldNames = ["title", "category", "artist", "album", "releaseDate"]

    /// The fields' values as text, in the order of ``fieldNames`` (`releaseDate` as "YYYY-MM-DD" or "nil").
    package var fieldValues: [String] {
        [title, category, artist, album, releaseDate?.description ?? "nil"]
    }
}
