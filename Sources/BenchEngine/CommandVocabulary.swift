import FeedParsers
import FeedTransport
import SongFeed

// The names the command line takes from the parser, transport and feed modules, reached through
// the engine: `bench` imports no parser module (DESIGN.md, "Modules"). Each is the module's own
// type under its own name; a module that imports both sees one type.

/// The parsers this build knows (`FeedParsers.ParserRegistry`).
package typealias ParserRegistry = FeedParsers.ParserRegistry
/// What kind of parser one is (`FeedParsers.ParserKind`).
package typealias ParserKind = FeedParsers.ParserKind
/// The protocol of a parser adapter that builds songs (`FeedParsers.SongFeedParser`).
package typealias SongFeedParser = FeedParsers.SongFeedParser
/// One song, as every parser builds it (`SongFeed.Song`).
package typealias Song = SongFeed.Song
/// A synthetic iTunes Store feed (`SongFeed.FeedGenerator`).
package typealias FeedGenerator = SongFeed.FeedGenerator
/// A document of a known shape, for the document workload (`SongFeed.DocumentShape`).
package typealias DocumentShape = SongFeed.DocumentShape
/// The SHA-256 of bytes, as runs record their feeds.
package typealias SongDigest = SongFeed.SongDigest
/// The embedded feed server's network profile (`FeedTransport.NetworkProfile`).
package typealias NetworkProfile = FeedTransport.NetworkProfile
