import FeedParsers
import FeedTransport
import Foundation

/// The names a `fields=` selection keeps, resolved to namespace URI and local name.
struct FieldSelection: Equatable {
    var names: Set<[String]>

    /// Reads `item(title,itms:artist)` against a feed's layout.
    init(_ text: String, layout: FeedLayout) throws {
        let entryName = layout.kind == .rss ? "item" : "entry"
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix(entryName + "("), trimmed.hasSuffix(")") else {
            throw FeedQueryError(
                "fields: only '\(entryName)(name,name,…)' is understood (the child elements of each \(entryName) to keep), not '\(text.prefix(80))'"
            )
        }
        let inner = trimmed.dropFirst(entryName.count + 1).dropLast()
        var names: Set<[String]> = []
        for part in inner.split(separator: ",", omittingEmptySubsequences: false) {
            let name = part.trimmingCharacters(in: .whitespaces)
            let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_.:"))
            guard !name.isEmpty, name.unicodeScalars.allSatisfy(allowed.contains),
                name.filter({ $0 == ":" }).count <= 1,
                !name.hasPrefix(":"), !name.hasSuffix(":")
            else {
                throw FeedQueryError(
                    "fields: '\(name.prefix(80))' is not an element name (nested selections, attributes and predicates are not supported)"
                )
            }
            let pieces = name.split(separator: ":").map(String.init)
            if pieces.count == 2 {
                guard let uri = layout.namespaces[pieces[0]] else {
                    throw FeedQueryError("fields: the feed declares no namespace prefix '\(pieces[0])'")
                }
                names.insert([uri, pieces[1]])
            } else {
                // An unprefixed name: no namespace in RSS, the default (Atom) namespace in Atom.
                names.insert([layout.kind == .atom ? (layout.namespaces[""] ?? "") : "", name])
            }
        }
        self.names = names
    }

    func keeps(_ child: FeedLayout.Child) -> Bool { names.contains([child.namespace, child.localName]) }
}

/// A feed file that can be served whole, in pages, or with only some fields.
final class PagedFeed: @unchecked Sendable {
    let bytes: [UInt8]
    /// `nil` when the file is not a feed the server can page (then only the whole file is served).
    private let layout: FeedLayout?
    private let layoutError: String?
    private let lock = NSLock()
    private var cache: [String: [UInt8]] = [:]

    init(bytes: [UInt8]) {
        self.bytes = bytes
        do {
            layout = try FeedLayout(bytes)
            layoutError = nil
        } catch {
            layout = nil
            layoutError = "\(error)"
        }
    }

    /// Entries in the feed (0 when it cannot be paged).
    var entryCount: Int { layout?.entries.count ?? 0 }

    /// The body for `query`; `nextLink(startIndex)` is the path and query of the page that starts
    /// at `startIndex`, for the next link.
    func body(for query: FeedQuery, nextLink: (FeedQuery) -> String) throws -> [UInt8] {
        if query.isWholeFeed { return bytes }
        guard let layout else {
            throw FeedQueryError("this file cannot be served in pages or fields: \(layoutError ?? "not a feed")")
        }
        let key = "\(query.startIndex ?? 0)|\(query.maxResults ?? 0)|\(query.fields ?? "")|\(nextLink(query))"
        if let cached = lock.withLock({ cache[key] }) { return cached }
        let fields = try query.fields.map { try FieldSelection($0, layout: layout) }
        let entries = layout.entries
        let first = min(entries.count, (query.startIndex ?? 1) - 1)
        let last = min(entries.count, first + (query.maxResults ?? entries.count))
        var page: [UInt8] = []
        page.reserveCapacity(bytes.count / max(1, entries.count) * (last - first) + 4_096)
        // The part before the first entry: the channel's own elements.
        let headEnd = entries.first?.range.lowerBound ?? bytes.count
        page += bytes[0..<headEnd]
        if last < entries.count {
            var next = query
            next.startIndex = last + 1
            next.maxResults = query.maxResults ?? (entries.count - last)
            let href = Self.escapeAttribute(nextLink(next))
            page += Array(
                "<link xmlns=\"http://www.w3.org/2005/Atom\" rel=\"next\" type=\"application/rss+xml\" href=\"\(href)\"/>\n"
                    .utf8)
        }
        for entry in entries[first..<last] {
            if let fields {
                page += bytes[entry.startTag]
                for child in entry.children where fields.keeps(child) {
                    page += Array("\n".utf8)
                    page += bytes[child.range]
                }
                page += Array("\n".utf8)
                page += bytes[entry.endTag]
            } else {
                page += bytes[entry.range]
            }
            page += Array("\n".utf8)
        }
        // The part after the last entry: the end of the channel and of the document.
        page += bytes[(entries.last?.range.upperBound ?? bytes.count)...]
        lock.withLock {
            if cache.count >= 256 { cache.removeAll() }
            cache[key] = page
        }
        return page
    }

    static func escapeAttribute(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;")
    }
}

extension FeedQuery {
    /// The query string that asks for this page and fields (and `extra` items), for a next link.
    func queryString(extra: [URLQueryItem]) -> String {
        var components = URLComponents()
        var items: [URLQueryItem] = []
        if let startIndex { items.append(URLQueryItem(name: "start-index", value: String(startIndex))) }
        if let maxResults { items.append(URLQueryItem(name: "max-results", value: String(maxResults))) }
        if let fields { items.append(URLQueryItem(name: "fields", value: fields)) }
        components.queryItems = items + extra
        // `+` and `&` inside a value must not read as separators.
        return components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B") ?? ""
    }
}
