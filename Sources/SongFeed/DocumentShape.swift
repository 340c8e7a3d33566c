import Foundation

/// Synthetic documents of a known shape, for the document workload: which parser wins depends on the
/// markup-to-content ratio, the nesting, the attributes, the references, the encoding.
///
/// Each shape writes a well-formed document of about the size asked (never less than one block of
/// the shape), the same bytes for the same shape, size and seed. No DTD: every parser, Foundation's
/// included, can read them all.
///
/// ```swift
/// let bytes = DocumentShape.attributeHeavy.generate(bytes: 1 << 20)
/// ```
package enum DocumentShape: String, CaseIterable, Sendable {
    /// Empty elements with 20 attributes each: attribute parsing and sorting.
    case attributeHeavy = "attribute-heavy"
    /// Paragraphs of words: mostly character data, little markup.
    case textHeavy = "text-heavy"
    /// Chains of 200 nested elements (libxml2 refuses more than 256 levels without XML_PARSE_HUGE).
    case deep
    /// Many small sibling elements under one root: mostly markup.
    case wide
    /// Every element in one of 50 namespaces, declared on it, with prefixed attributes.
    case namespaces
    /// Text full of entity and character references (`&amp;`, `&#233;`, `&#x4E2D;`).
    case references
    /// Code in CDATA sections, with `<`, `&` and `>` left as they are.
    case cdata
    /// A few very long text runs and attribute values (expat's large-token path).
    case longTokens = "long-tokens"
    /// The text-heavy shape in UTF-16 (little-endian, with a byte order mark).
    case utf16

    /// One line about the shape.
    package var summary: String {
        switch self {
        case .attributeHeavy: return "empty elements with 20 attributes each"
        case .textHeavy: return "paragraphs of words, little markup"
        case .deep: return "chains of 200 nested elements"
        case .wide: return "many small sibling elements under the root"
        case .namespaces: return "elements and attributes in 50 namespaces, declared where used"
        case .references: return "text dense with entity and character references"
        case .cdata: return "code in CDATA sections"
        case .longTokens: return "a few text runs of 256 KiB and attribute values of 64 KiB"
        case .utf16: return "the text-heavy shape encoded in UTF-16LE with a BOM"
        }
    }

    /// The default seed of ``generate(bytes:seed:)``.
    package static let defaultSeed: UInt64 = 20_261_125

    /// The largest document ``generate(bytes:seed:)`` is asked for: 256 MiB.
    ///
    /// It is built in memory (twenty-five times the sweep's largest). More is refused before
    /// anything is allocated.
    package static let maxBytes = 256 << 20

    /// A document of this shape of about `bytes` bytes.
    package func generate(bytes target: Int, seed: UInt64 = defaultSeed) -> [UInt8] {
        if self == .utf16 {
            // Two bytes a character, more for the few beyond U+FFFF: grow the UTF-8 text until it is enough.
            var half = max(1, target / 2)
            while true {
                let document = Self.utf16(Self.textHeavy.generate(bytes: half, seed: seed))
                if document.count >= target { return document }
                half += max(1, target / 16)
            }
        }
        var random = SplitMix64(seed: seed)
        var out = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<doc>\n".utf8)
        var index = 0
        repeat {
            out += Array(block(index, &random).utf8)
            index += 1
        } while out.count < target
        out += Array("</doc>\n".utf8)
        return out
    }

    private static let words = [
        "parser", "stream", "element", "attribute", "namespace", "entity", "reference", "feed", "song", "album",
        "artist", "release", "chunk", "buffer", "event", "sink", "tree", "reader", "event", "markup", "content",
        "données", "größe", "中文", "ελληνικά",
    ]

    private static func sentence(_ count: Int, _ random: inout SplitMix64) -> String {
        (0..<count).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " ")
    }

    /// One repeated block of the shape (the `index`th).
    private func block(_ index: Int, _ random: inout SplitMix64) -> String {
        switch self {
        case .attributeHeavy:
            let attributes = (0..<20).map { " a\($0)=\"v\(index)-\(random.next() % 1000)\"" }.joined()
            return "<e\(attributes)/>\n"
        case .textHeavy, .utf16:
            return "<p>\(Self.sentence(300, &random))</p>\n"
        case .deep:
            let depth = 200
            return String(repeating: "<d>", count: depth) + "\(index)" + String(repeating: "</d>", count: depth) + "\n"
        case .wide:
            return (0..<50).map { "<i n=\"\(index * 50 + $0)\">\(random.next() % 100)</i>" }.joined() + "\n"
        case .namespaces:
            let space = index % 50
            return "<n\(space):e xmlns:n\(space)=\"urn:example:ns:\(space)\" n\(space):a=\"\(index)\">"
                + "<n\(space):f xmlns=\"urn:example:default:\(space)\"><g>\(Self.sentence(3, &random))</g></n\(space):f>"
                + "</n\(space):e>\n"
        case .references:
            let pieces = ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#233;", "&#x4E2D;", "&#38;", "&#x1F3B5;"]
            let text = (0..<40).map { _ in "w" + pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            return "<r>\(text)</r>\n"
        case .cdata:
            return "<code><![CDATA[if (a < b && c > d) { x = y & z; } // \(Self.sentence(20, &random))\n]]></code>\n"
        case .longTokens:
            let value = String(repeating: "v", count: 64 << 10)
            let text = String(repeating: "long text run ", count: (256 << 10) / 14)
            return "<t a=\"\(value)\">\(text)</t>\n"
        }
    }

    /// `document` (UTF-8, declared so) as UTF-16LE with a byte order mark and its declaration changed.
    private static func utf16(_ document: [UInt8]) -> [UInt8] {
        let text = String(decoding: document, as: UTF8.self)
            .replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"")
        var out: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { out += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        return out
    }
}
