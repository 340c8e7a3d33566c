import Foundation
import SongFeed

/// Documents made to hurt a parser, generated on the spot (nothing large is committed): billion
/// laughs, a quadratic blow-up, external entities and an external DTD that name a secret local
/// file, 100,000-deep nesting, a 10 MB name and attribute value, bad encodings, a NUL byte,
/// truncation at every byte offset of a feed's first 4 KiB, and 1,000,000 attributes on one element.
///
/// `bench hostile` runs them against any song parser (``HostileCorpusRunner``); the tests pin what
/// each built-in parser does with them.
package struct HostileCorpus: Sendable {
    /// What a document may end in.
    package enum Expectation: Sendable, Equatable {
        /// A typed error only (the document is not well-formed).
        case error
        /// A typed error, or these songs.
        case errorOr([Song])
        /// A typed error, or songs whose fields are within `SongAssembler`'s 1 MiB limit (entity
        /// expansion), none holding the secret.
        case errorOrBounded
    }

    /// One document of the corpus, written into ``HostileCorpus/directory``.
    package struct Document: Sendable {
        /// What it is ("billion laughs", "truncated at 17").
        package var name: String
        /// Its file, relative to ``HostileCorpus/directory``.
        package var path: String
        package var expectation: Expectation
        /// The byte count of a truncated feed; `nil` for the others.
        package var truncatedAt: Int?
    }

    /// The directory the documents (and the secret file two of them name) are written into.
    package let directory: String
    /// The text of the local file that the external entity and the external DTD name: a parser
    /// that shows it in a song or an error has read a local file.
    package let secret: String
    /// The documents that run together, in order.
    package let documents: [Document]
    /// One element with 1,000,000 attributes: run apart, with a time limit of its own
    /// (``manyAttributesTimeLimit``) and pushed 1 MiB at a time.
    package let manyAttributes: Document

    /// Seconds a worker may go without finishing a document.
    package static let timeLimit = 60.0
    /// Seconds the 1,000,000 attributes may take, pushed 1 MiB at a time (expat re-scans an
    /// unfinished tag at each chunk: 16 KiB chunks would take it 8 s): a parser that finishes does
    /// so in about a second.
    package static let manyAttributesTimeLimit = 5.0
    /// The chunk size the 1,000,000 attributes are pushed in.
    package static let manyAttributesChunkSize = 1 << 20
    /// The data limit of each worker (`RLIMIT_DATA`), MiB.
    package static let memoryLimitMiB = 1_024
    /// The name of the truncated documents' group, as reports show it.
    package static let truncationGroup = "truncated at every byte offset below 4,096"

    /// The itms namespace URI.
    static let itms = "http://phobos.apple.com/rss/1.0/modules/itms/"

    /// Writes the corpus into `directory` (which must exist) with a fresh secret.
    ///
    /// - Throws: a file system error when a document cannot be written.
    package init(directory: String) throws {
        self.directory = directory
        secret = "TOP-SECRET-\(UInt32.random(in: 1_000...9_999))"
        let secretFile = try Self.write("secret.txt", Array(secret.utf8), in: directory)
        let dtd = try Self.write("evil.dtd", Array("<!ENTITY leak \"\(secret)\">".utf8), in: directory)
        var documents: [Document] = []
        for (index, (name, bytes, expectation)) in Self.documents(secretFile: secretFile, dtd: dtd).enumerated() {
            let path = "case-\(index).xml"
            _ = try Self.write(path, bytes, in: directory)
            documents.append(Document(name: name, path: path, expectation: expectation))
        }
        // Truncation at every byte offset of the first 4 KiB of the committed feed (the generator's).
        let feed = FeedGenerator(songs: 300).generate().bytes.prefix(4_096)
        for length in 0..<feed.count {
            let path = "truncated-\(length).xml"
            _ = try Self.write(path, Array(feed.prefix(length)), in: directory)
            documents.append(
                Document(name: "truncated at \(length)", path: path, expectation: .error, truncatedAt: length))
        }
        self.documents = documents
        let many = Self.feed(
            "<title>Many</title><a " + (0..<1_000_000).map { "a\($0)=\"1\"" }.joined(separator: " ")
                + "/><itms:artist>A</itms:artist>")
        _ = try Self.write("many.xml", Array(many.utf8), in: directory)
        manyAttributes = Document(
            name: "1,000,000 attributes", path: "many.xml", expectation: .errorOr([Self.song("Many")]))
    }

    /// Every document in run order: ``documents``, then ``manyAttributes``.
    package var all: [Document] { documents + [manyAttributes] }

    static func write(_ name: String, _ bytes: [UInt8], in directory: String) throws -> String {
        let path = (directory as NSString).appendingPathComponent(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func song(_ title: String, artist: String = "A") -> Song {
        Song(title: title, category: "", artist: artist, album: "", releaseDate: nil)
    }

    static func feed(
        _ itemBody: String, prolog: String = "", declaration: String = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
    ) -> String {
        "\(declaration)\(prolog)\n<rss version=\"2.0\" xmlns:itms=\"\(itms)\"><channel>\n<item>\(itemBody)</item>\n</channel></rss>\n"
    }

    /// ``feed(_:prolog:declaration:)`` with the one "@" of `itemBody` replaced by `marker`'s bytes.
    static func feed(_ itemBody: String, marker: [UInt8]) -> [UInt8] {
        let text = Array(feed(itemBody).utf8)
        guard let at = text.firstIndex(of: UInt8(ascii: "@")) else { return text }
        return Array(text[..<at]) + marker + Array(text[(at + 1)...])
    }

    /// A billion-laughs document (10^9 expansions of "lol" if nothing stops it) in a song's title.
    static func billionLaughs() -> String {
        var dtd = "<!ENTITY lol \"lol\">"
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            dtd += "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
        }
        return
            "<?xml version=\"1.0\"?>\n<!DOCTYPE rss [\(dtd)]>\n<rss><channel><item><title>&lol9;</title></item></channel></rss>\n"
    }

    /// The documents other than the truncations and the attributes: name, bytes, expectation.
    static func documents(secretFile: String, dtd: String) -> [(String, [UInt8], Expectation)] {
        let fields = "<itms:artist>A</itms:artist>"
        let utf16Declaration = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>"
        return [
            ("billion laughs", Array(billionLaughs().utf8), .errorOrBounded),
            (
                "quadratic blow-up",
                Array(
                    feed(
                        "<title>" + String(repeating: "&big;", count: 4_000) + "</title>\(fields)",
                        prolog: "\n<!DOCTYPE rss [<!ENTITY big \"" + String(repeating: "x", count: 50_000) + "\">]>"
                    ).utf8),
                .errorOrBounded
            ),
            (
                "external entity in a song field",
                Array(
                    feed(
                        "<title>before &xxe; after</title><itms:artist>&xxe;</itms:artist>",
                        prolog: "\n<!DOCTYPE rss [<!ENTITY xxe SYSTEM \"file://\(secretFile)\">]>"
                    ).utf8),
                .errorOrBounded
            ),
            (
                "external DTD whose entity is in a song field",
                Array(feed("<title>&leak;</title>\(fields)", prolog: "\n<!DOCTYPE rss SYSTEM \"file://\(dtd)\">").utf8),
                .errorOrBounded
            ),
            (
                "100,000-deep nesting",
                Array(
                    feed(
                        "<title>Deep</title>" + String(repeating: "<a>", count: 100_000)
                            + String(repeating: "</a>", count: 100_000) + fields
                    ).utf8),
                .errorOr([song("Deep")])
            ),
            (
                "10 MB element name",
                Array(feed("<title>Name</title><" + String(repeating: "n", count: 10_000_000) + "/>" + fields).utf8),
                .errorOr([song("Name")])
            ),
            (
                "10 MB attribute value",
                Array(
                    feed("<title>Value</title><a v=\"" + String(repeating: "v", count: 10_000_000) + "\"/>" + fields)
                        .utf8),
                .errorOr([song("Value")])
            ),
            ("invalid UTF-8 in text", feed("<title>bad @ text</title>\(fields)", marker: [0xFF, 0xFE, 0x80]), .error),
            ("invalid UTF-8 in a name", feed("<title>t</title><n@/>\(fields)", marker: [0xC3, 0x28]), .error),
            (
                "wrong encoding declaration",
                Array(feed("<title>Caf\u{E9}</title>\(fields)", declaration: utf16Declaration).utf8),
                .errorOr([song("Caf\u{E9}")])
            ),
            (
                "UTF-16 without BOM",
                Array(feed("<title>Caf\u{E9}</title>\(fields)", declaration: utf16Declaration).utf16)
                    .flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
                .errorOr([song("Caf\u{E9}")])
            ),
            ("a NUL byte", feed("<title>nul @ byte</title>\(fields)", marker: [0]), .error),
        ]
    }
}
