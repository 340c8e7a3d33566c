import Foundation

/// What a request asks of a feed beyond the whole file: a page and a field selection, as GData
/// feeds take them.
///
/// - `start-index=K` (1-based) and `max-results=N`: entries K … K+N−1; the page carries an Atom
///   `<link rel="next">` to the next page while entries remain. Either alone is allowed (the other
///   defaults to 1, or to every remaining entry).
/// - `fields=item(title,itms:artist)` (RSS) or `fields=entry(title)` (Atom): keep only these child
///   elements of each entry; prefixes are the feed's own. Only this form of GData's XPath subset is
///   understood; anything else is refused with a message rather than half honoured.
public struct FeedQuery: Equatable, Sendable {
    public var startIndex: Int?
    public var maxResults: Int?
    /// The raw `fields` value, as given.
    public var fields: String?

    /// The largest page served (GData's limit is in the same range).
    public static let maxResultsLimit = 100_000

    public init(startIndex: Int? = nil, maxResults: Int? = nil, fields: String? = nil) {
        self.startIndex = startIndex
        self.maxResults = maxResults
        self.fields = fields
    }

    /// Whether the request asks for the whole file unchanged.
    public var isWholeFeed: Bool { startIndex == nil && maxResults == nil && fields == nil }

    /// The query of a request's query string; a value that is not a valid one is a ``FeedQueryError``.
    public init(queryItems: [URLQueryItem]) throws {
        var values: [String: String] = [:]
        for item in queryItems where values[item.name] == nil { values[item.name] = item.value ?? "" }
        func integer(_ name: String, minimum: Int, maximum: Int) throws -> Int? {
            guard let text = values[name] else { return nil }
            guard let value = Int(text), value >= minimum, value <= maximum else {
                throw FeedQueryError(
                    "\(name) must be an integer from \(minimum) to \(maximum), not '\(text.prefix(40))'")
            }
            return value
        }
        startIndex = try integer("start-index", minimum: 1, maximum: Int(Int32.max))
        maxResults = try integer("max-results", minimum: 1, maximum: Self.maxResultsLimit)
        fields = values["fields"]
    }
}
