// A parser of the suite's trait `CodableParsers` (on by default).
#if CodableParsers
    import Foundation
    import SongFeed
    import SWXMLHash

    /// The `swxmlhash` adapter: the chunks gathered, then ``SWXMLHashReader`` over the whole document.
    package typealias SWXMLHashFeedParser = WholeDocumentParser<SWXMLHashReader>

    /// drmohundro/SWXMLHash in its **lazy** mode: `rss` → `channel` → `item` looked up by path (or,
    /// when there is none, Atom's `feed` → `entry`, with `name`, `artist`, `collection` → `name`,
    /// `releaseDate` and `category`'s `term`); the lazy parse keeps only the elements on that path (the
    /// items and their children), then each song's fields are read from the indexed items.
    ///
    /// SWXMLHash parses with Foundation's `XMLParser(data:)` (namespace processing on: element names
    /// are local names; external entities not resolved, `XMLParser`'s default, and every external load
    /// refused by the suite's loader, see ``ExternalLoads``); the adapter buffers the chunks and parses
    /// them once all are in.
    ///
    /// What differs from the contract: elements are matched by **local name only** (no namespace URI);
    /// only `item`s that are children of `channel` are found; a field is the first of its name, not the
    /// last; a field's text is its own character data
    /// (not that of nested elements); and the lazy parser ignores `XMLParser`'s errors: a malformed or
    /// truncated document gives the songs read before the error, not an error (the benchmark's
    /// agreement check then reports it as wrong). It inherits the inputs that crash `XMLParser` on
    /// Linux; `XMLParser(data:)`'s error on documents over 10,000,000 bytes comes once the whole
    /// document is read, and is ignored like the others (on a 90 MB feed it builds every song).
    package enum SWXMLHashReader: WholeDocumentReader {
        package static func songs(in bytes: Data, onSong: ((Song) -> Void)?) throws -> [Song] {
            ExternalLoads.refuse()
            let indexer = XMLHash.config { options in
                options.shouldProcessLazily = true
                options.shouldProcessNamespaces = true
            }.parse(bytes)
            var songs: [Song] = []
            let items = indexer["rss"]["channel"]["item"].all
            if !items.isEmpty {
                songs.reserveCapacity(items.count)
                for item in items {
                    func text(_ name: String) -> String? { item[name].element?.text }
                    let song = try SongAssembler.song(
                        title: text("title"), category: text("category"), artist: text("artist"), album: text("album"),
                        releaseDate: text("releasedate"), item: songs.count + 1, parser: Self.name)
                    songs.append(song)
                    onSong?(song)
                }
                return songs
            }
            // Atom: feed/entry, the fields by their local names (the first of each, as for RSS).
            for entry in indexer["feed"]["entry"].all {
                func text(_ name: String) -> String? { entry[name].element?.text }
                let category = entry["category"].element.map { $0.attribute(by: "term")?.text ?? "" }
                let album = entry["collection"]["name"].element?.text
                let song = try SongAssembler.song(
                    title: text("name"), category: category, artist: text("artist"), album: album,
                    releaseDate: text("releaseDate"), item: songs.count + 1, parser: Self.name)
                songs.append(song)
                onSong?(song)
            }
            return songs
        }

        // MARK: Identity

        package static let name = "swxmlhash"

        package static let contractGaps: Set<ContractGap> = [.localNamesOnly, .partialText, .acceptsMalformed]
        package static let kind = ParserKind.tree

        package static var summary: String {
            "SWXMLHash 8.1.1 lazy mode: rss/channel/item or feed/entry by path (local names; parse errors not detected), once all bytes are in"
        }
    }
#endif
