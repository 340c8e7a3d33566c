// A parser of the suite's trait `CodableParsers` (on by default).
#if CodableParsers
    import Foundation
    import SongFeed
    import XMLCoder

    #if canImport(FoundationXML)
        import FoundationXML
    #endif

    /// The `xmlcoder` adapter: the chunks gathered, then ``XMLCoderReader`` over the whole document.
    package typealias XMLCoderFeedParser = WholeDocumentParser<XMLCoderReader>

    /// CoreOffice/XMLCoder: the feed decoded into `Decodable` types (`rss` → `channel` → `[item]`, or
    /// Atom's `feed` → `[entry]`), which are then made into songs.
    ///
    /// XMLCoder parses with Foundation's `XMLParser(data:)` into its own tree of boxes, then decodes
    /// the types from it; the adapter buffers the chunks and decodes them once all are in. Options: namespace
    /// processing on (keys are local names), value whitespace kept as in the document (XMLCoder trims
    /// it by default), external entities not resolved (`XMLParser`'s default policy, `.never`; and the
    /// suite's loader refuses every load, see ``ExternalLoads``).
    ///
    /// What differs from the contract: elements are matched by **local name only** — XMLCoder keys
    /// carry no namespace URI, so `<x:artist>` in any namespace is taken for `itms:artist`; only `item`s
    /// that are children of `channel` are found; a field's text is its own character data (text
    /// inside nested elements is not collected). It inherits `XMLParser`'s limits on Linux: documents
    /// over 10,000,000 bytes fail, and the inputs that crash `XMLParser` crash it too.
    package enum XMLCoderReader: WholeDocumentReader {
        package static func songs(in bytes: Data, onSong: ((Song) -> Void)?) throws -> [Song] {
            ExternalLoads.refuse()
            let decoder = XMLDecoder(trimValueWhitespaces: false)
            decoder.shouldProcessNamespaces = true
            let feed: Feed
            do {
                feed = try decoder.decode(Feed.self, from: bytes)
            } catch {
                throw Self.describe(error)
            }
            var songs: [Song] = []
            if let channel = feed.channel {
                songs.reserveCapacity(channel.items.count)
                for item in channel.items {
                    let song = try SongAssembler.song(
                        title: item.title?.value, category: item.category?.value, artist: item.artist?.value,
                        album: item.album?.value, releaseDate: item.releaseDate?.value, item: songs.count + 1,
                        parser: Self.name)
                    songs.append(song)
                    onSong?(song)
                }
                return songs
            }
            for entry in feed.entries ?? [] {
                let song = try SongAssembler.song(
                    title: entry.name?.value, category: entry.category.map { $0.term ?? "" },
                    artist: entry.artist?.value,
                    album: entry.collection?.name?.value, releaseDate: entry.releaseDate?.value, item: songs.count + 1,
                    parser: Self.name)
                songs.append(song)
                onSong?(song)
            }
            return songs
        }

        /// An error of the decode as a ``FeedParseError``.
        ///
        /// XMLCoder rethrows `XMLParser`'s own error without its position (line and column are then 0, unknown), or a `DecodingError` when the
        /// document does not have the types' shape.
        static func describe(_ error: any Error) -> FeedParseError {
            let message: String
            var code: Int?
            var notAFeed: Bool?
            if let decoding = error as? DecodingError {
                switch decoding {
                case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
                    .valueNotFound(_, let context):
                    let path = context.codingPath.map(\.stringValue).joined(separator: "/")
                    message = context.debugDescription + (path.isEmpty ? "" : " (at \(path))")
                    // A missing key or a wrong type is about the feed's shape, the XML having been read;
                    // data corrupted at the top ("could not be parsed into XML") is about the XML.
                    if case .dataCorrupted = decoding { notAFeed = path.isEmpty ? nil : true } else { notAFeed = true }
                @unknown default:
                    message = "\(decoding)"
                }
            } else {
                let nsError = error as NSError
                code = nsError.domain == XMLParser.errorDomain ? nsError.code : nil
                message = nsError.domain == XMLParser.errorDomain ? FoundationReader.describe(nsError) : "\(error)"
            }
            let oneLine = message.split(whereSeparator: \.isNewline).joined(separator: "; ")
            return FeedParseError(parser: name, message: oneLine, line: 0, column: 0, code: code, notAFeed: notAFeed)
        }

        // MARK: The feed as Decodable types

        /// An RSS `rss` (its `channel`) or an Atom `feed` (its `entry` elements).
        private struct Feed: Decodable {
            var channel: Channel?
            var entries: [Entry]?

            enum CodingKeys: String, CodingKey {
                case channel
                case entries = "entry"
            }
        }

        /// An Atom entry: im's `name`, `artist`, `collection` (its `name`), `releaseDate`, and Atom's
        /// `category` (its `term`), by local names.
        private struct Entry: Decodable {
            var name: Text?
            var category: Category?
            var artist: Text?
            var collection: Collection?
            var releaseDate: Text?
        }

        private struct Category: Decodable {
            var term: String?
        }

        private struct Collection: Decodable {
            var name: Text?
        }

        private struct Channel: Decodable {
            var items: [Item]

            enum CodingKeys: String, CodingKey {
                case items = "item"
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                items = try container.decodeIfPresent([Item].self, forKey: .items) ?? []
            }
        }

        private struct Item: Decodable {
            var title: Text?
            var category: Text?
            var artist: Text?
            var album: Text?
            var releaseDate: Text?

            enum CodingKeys: String, CodingKey {
                case title, category, artist, album
                case releaseDate = "releasedate"
            }
        }

        /// An element's character data, with or without attributes (XMLCoder's key "" is the value).
        private struct Text: Decodable {
            var value: String

            enum CodingKeys: String, CodingKey {
                case value = ""
            }

            init(from decoder: any Decoder) throws {
                if let container = try? decoder.container(keyedBy: CodingKeys.self),
                    let value = try container.decodeIfPresent(String.self, forKey: .value)
                {
                    self.value = value
                } else {
                    let single = try decoder.singleValueContainer()
                    value = single.decodeNil() ? "" : try single.decode(String.self)
                }
            }
        }

        // MARK: Identity

        package static let name = "xmlcoder"

        package static let contractGaps: Set<ContractGap> = [.localNamesOnly, .partialText, .acceptsMalformed]
        package static let kind = ParserKind.codable

        package static var summary: String {
            "XMLCoder 0.18.2 XMLDecoder into Decodable rss/channel/item or feed/entry types (local names, no URI match), once all bytes are in"
        }
    }
#endif
