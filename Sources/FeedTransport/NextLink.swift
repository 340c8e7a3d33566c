import Foundation

/// Finds a page's Atom `<link rel="next" href="…">` in its first bytes.
public enum NextLink {
    public static func find(in head: [UInt8]) -> String? {
        let text = String(decoding: head, as: UTF8.self)
        var searchFrom = text.startIndex
        while let open = text.range(of: "<", range: searchFrom..<text.endIndex) {
            guard let close = text.range(of: ">", range: open.upperBound..<text.endIndex) else { return nil }
            let tag = text[open.upperBound..<close.lowerBound]
            searchFrom = close.upperBound
            let name = tag.prefix { !$0.isWhitespace && $0 != "/" }
            guard name == "link" || name.hasSuffix(":link") else { continue }
            guard attribute("rel", in: tag) == "next", let href = attribute("href", in: tag) else { continue }
            return href.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        }
        return nil
    }

    private static func attribute(_ name: String, in tag: Substring) -> String? {
        for quote in ["\"", "'"] {
            if let start = tag.range(of: " \(name)=\(quote)") ?? tag.range(of: "\n\(name)=\(quote)")
                ?? tag.range(of: "\t\(name)=\(quote)"),
                let end = tag.range(of: quote, range: start.upperBound..<tag.endIndex)
            {
                return String(tag[start.upperBound..<end.lowerBound])
            }
        }
        return nil
    }
}
