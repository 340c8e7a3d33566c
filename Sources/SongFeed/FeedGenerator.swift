import Foundation

/// Writes synthetic iTunes Store RSS feeds shaped item for item like the real 2012 feeds.
///
/// The shape follows `newreleases-100-2012-05-15.rss.xml` (see `../shared/data/itunes/`): the same
/// channel header and namespaces, and per item `title`, `link`, `description`, `pubDate`, a
/// `content:encoded` CDATA block of HTML, `category` with a `domain` attribute, `itms:artist`,
/// `itms:artistLink`, `itms:album`, `itms:albumLink`, `itms:albumPrice`, three `itms:coverArt` with
/// `height` and `width`, `itms:rights` and `itms:releasedate`; about 3 KB an item.
///
/// The song fields vary the way real ones do: accented and CJK names, `℗`, `&amp;`, `&lt;`,
/// numeric character references, an occasional empty `itms:rights`, a few items without `category`
/// or `itms:releasedate`. The output depends only on the song count and the seed, so a committed
/// feed can be checked byte for byte against a regenerated one.
///
/// ```swift
/// let feed = FeedGenerator(songs: 300, seed: 2012).generate()
/// // feed.bytes: the XML document; feed.songs: the songs every parser must build from it
/// ```
package struct FeedGenerator: Sendable {
    /// The number of items to write.
    package var songCount: Int
    /// The seed of the pseudo-random choices.
    package var seed: UInt64
    /// RSS 2.0 (the 2012 feeds) or Atom (the form Apple's feeds moved to).
    package var format: Format

    /// The form of the feed written; the same songs either way.
    package enum Format: String, CaseIterable, Sendable {
        /// RSS 2.0 with the itms module, as `newreleases-100-2012-05-15.rss.xml`.
        case rss
        /// Atom with the im module, each `entry` shaped like a song of Apple's 2013 Atom feeds (see
        /// `topalbums-10-2013-06-25.atom.xml`, whose entries are albums): `im:name` the title,
        /// `im:artist`, `im:collection` → `im:name` the album, `category` with `term` and `label`,
        /// `im:releaseDate` ("2012-05-07T00:00:00-07:00" with its `label`), and the HTML `content`
        /// escaped instead of in CDATA.
        case atom
    }

    /// The seed of the committed `Data/top300.rss.xml`.
    package static let defaultSeed: UInt64 = 20_120_515

    /// The most songs a feed is generated with: about 300 MB.
    ///
    /// It is built in memory (ten times the sweep's largest feed). More is refused before anything
    /// is allocated, not left to fail there (100,000,000 songs asked for 310 GB and ended in a
    /// fatal error).
    package static let maxSongs = 100_000

    package init(songs: Int, seed: UInt64 = FeedGenerator.defaultSeed, format: Format = .rss) {
        self.songCount = songs
        self.seed = seed
        self.format = format
    }

    /// A generated feed and the songs it holds, as an independent ground truth for the parsers.
    package struct Feed: Sendable {
        /// The feed document, UTF-8.
        package var bytes: [UInt8]
        /// The songs that a correct parser builds from ``bytes``, in document order.
        package var songs: [Song]
    }

    /// Generates the feed.
    package func generate() -> Feed {
        var random = SplitMix64(seed: seed)
        var out = ""
        out.reserveCapacity(songCount * 3_100 + 2_048)
        var songs: [Song] = []
        songs.reserveCapacity(songCount)
        out += format == .rss ? Self.channelHeader(songCount: songCount) : Self.atomHeader(songCount: songCount)
        for index in 0..<songCount {
            let item = ItemValues(index: index, random: &random)
            songs.append(item.song)
            out += format == .rss ? item.xml(first: index == 0) : item.atomXML()
        }
        out += format == .rss ? "\n\t</channel>\n</rss>\n" : "</feed>\n"
        return Feed(bytes: Array(out.utf8), songs: songs)
    }

    static func atomHeader(songCount: Int) -> String {
        let feed = "https://itunes.apple.com/us/rss/topsongs/limit=\(songCount)/xml"
        return """
            <?xml version="1.0" encoding="utf-8"?>

            \t<feed xmlns:im="http://itunes.apple.com/rss" xmlns="http://www.w3.org/2005/Atom" xml:lang="en">
            \t\t<id>\(feed)</id><title>iTunes Store: Top Songs</title><updated>2012-05-15T07:23:37-07:00</updated>\
            <link rel="alternate" type="text/html" href="https://itunes.apple.com/WebObjects/MZStore.woa/wa/viewTop?cc=us&amp;id=1&amp;popId=1"/>\
            <link rel="self" href="\(feed)"/><icon>http://itunes.apple.com/favicon.ico</icon>\
            <author><name>iTunes Store</name><uri>http://www.apple.com/itunes/</uri></author>\
            <rights>Copyright 2008 Apple Inc.</rights>

            """
    }

    static func channelHeader(songCount: Int) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"
        \txmlns:dc="http://purl.org/dc/elements/1.1/"
        \txmlns:sy="http://purl.org/rss/1.0/modules/syndication/"
        \txmlns:content="http://purl.org/rss/1.0/modules/content/"
          xmlns:atom="http://www.w3.org/2005/Atom"
        \txmlns:itms="http://phobos.apple.com/rss/1.0/modules/itms/">

        \t<channel>
        \t\t<title>iTunes Store: Top \(songCount) Songs</title>
        \t\t<link>http://itunes.apple.com/WebObjects/MZStore.woa/wa/viewTop?genreId=34&amp;popId=1</link>
            <atom:link href="http://ax.itunes.apple.com/WebObjects/MZStoreServices.woa/ws/RSS/topsongs/limit=\(songCount)/rss.xml" rel="self" type="application/rss+xml" />
        \t\t<description>iTunes Store: Today's Top \(songCount) Songs</description>
        \t\t<language>en</language>
        \t\t<copyright>Copyright 2008 Apple Inc.

        \t\t</copyright>
        \t\t<lastBuildDate>Tue, 15 May 2012 07:23:37 -0700</lastBuildDate>
        \t\t<generator>iTunes Music Store RSS v1.0.0</generator>
        \t\t<webMaster>musicstore@apple.com (iTunes Music Store)</webMaster>
        \t\t<ttl>240</ttl>

        \t\t<dc:creator>iTunes Music Store</dc:creator>
        \t\t<dc:date>2012-05-15T07:23:37-07:00</dc:date>

        \t\t<sy:updatePeriod>hourly</sy:updatePeriod>
        \t\t<sy:updateFrequency>1</sy:updateFrequency>
        \t\t<sy:updateBase>2003-09-01T12:00+00:00</sy:updateBase>
        \t\t<image>
        \t\t\t<url>http://r.mzstatic.com/images/rss/badge.gif</url>
        \t\t\t<link>http://www.apple.com/itunes/</link>
        \t\t\t<title>iTunes Music Store</title>
        \t\t\t<height>31</height>
        \t\t\t<width>88</width>
        \t\t</image>

        """
    }
}

/// The values of one generated item, drawn from the pools below.
private struct ItemValues {
    var index: Int
    var artist: String
    var album: String
    var genre: Genre
    var hasCategory: Bool
    var releaseDate: SongDate?
    var rights: String
    var price: String
    var albumID: Int
    var artistID: Int
    var imagePath: String
    /// Write non-ASCII characters of the title and artist as numeric character references.
    var useCharacterReferences: Bool

    init(index: Int, random: inout SplitMix64) {
        self.index = index
        artist = random.pick(Pools.artists)
        var name = random.pick(Pools.albumStarts)
        if random.chance(percent: 55) { name += " " + random.pick(Pools.albumEnds) }
        if random.chance(percent: 35) { name += " " + random.pick(Pools.albumSuffixes) }
        album = name
        genre = random.pick(Pools.genres)
        hasCategory = index % 37 != 5
        let month = 5 + random.below(3)  // May to July, as in the 2012 feeds
        let day = 1 + random.below(month == 6 ? 30 : 31)
        releaseDate = index % 41 == 7 ? nil : SongDate(year: 2012, month: month, day: day)
        let label = random.pick(Pools.labels)
        switch random.below(10) {
        case 0, 1, 2: rights = ""
        case 3, 4: rights = "℗ 2012 \(label)"
        case 5: rights = "(P) 2012 \(label), a division of Sony Music Entertainment"
        default: rights = "2012 \(label)"
        }
        price = random.pick(["$9.99", "$10.99", "$11.99", "$12.99", "$1.29", "$0.99", "$7.99", "$5.94"])
        albumID = 500_000_000 + random.below(40_000_000)
        artistID = 1_000_000 + random.below(500_000_000)
        let hexDigits = Array("0123456789abcdef")
        imagePath = String((0..<32).map { _ in hexDigits[random.below(16)] })
        useCharacterReferences = index % 7 == 2
    }

    var title: String { "\(album) - \(artist)" }

    var song: Song {
        Song(
            title: title, category: hasCategory ? genre.name : "", artist: artist, album: album,
            releaseDate: releaseDate)
    }

    var albumURL: String { "http://itunes.apple.com/album/\(slug(album))/id\(albumID)?uo=1&v0=9988" }
    var artistURL: String { "http://itunes.apple.com/artist/\(slug(artist))/id\(artistID)?uo=1&v0=9988" }
    var genreURL: String { "http://itunes.apple.com/genre/music-\(slug(genre.name))/id\(genre.id)?uo=1&v0=9988" }
    /// The 100×100 cover's URL; the other sizes differ in their last part.
    var image: String {
        "http://a\(1 + albumID % 5).mzstatic.com/us/r30/Music/v4/\(imagePath.prefix(2))/\(imagePath.dropFirst(2).prefix(2))/\(imagePath.dropFirst(4).prefix(2))/\(imagePath)/\(albumID).100x100-75.jpg"
    }

    /// The item as the 2012 feeds wrote it, white space included.
    func xml(first: Bool) -> String {
        let textArtist = escape(artist, references: useCharacterReferences)
        var s = first ? "\t\t<item>\n" : "<item>\n"
        s += "    <title>\(escape(title, references: useCharacterReferences))</title>\n"
        s += "    <link>\(escape(albumURL))</link>\n"
        s += "    <description>\(escape(album)) by \(textArtist)</description>\n"
        s += "    <pubDate>Tue, 15 May 2012 07:23:37 -0700</pubDate>\n"
        s += contentEncoded
        if hasCategory {
            s += "    <category domain=\"\(escape(genreURL))\">\(escape(genre.name))</category>\n"
        }
        s += itmsElements(textArtist: textArtist)
        s += "    \n\n</item>\n"
        return s
    }

    /// The song as an Atom `entry`, white space as in Apple's Atom feeds.
    func atomXML() -> String {
        let textArtist = escape(artist, references: useCharacterReferences)
        let textTitle = escape(title, references: useCharacterReferences)
        let base = image.dropLast("100x100-75.jpg".count)
        var s = "\t\t\n\t\t\t<entry>\n\t\t\t\t<updated>2012-05-15T07:23:37-07:00</updated>\n"
        s += "\t\t\t\t\n\t\t\t\t\t<id im:id=\"\(albumID)\">\(escape(albumURL))</id>\n"
        s += "\t\t\t\t\n\t\t\t\t\t<title>\(textTitle) - \(textArtist)</title>\n"
        s += "\t\t\t\t\n\t\t\t\t\t<im:name>\(textTitle)</im:name>\n"
        s += "\t\t\t\t\n\t\t\t\t\t<link rel=\"alternate\" type=\"text/html\" href=\"\(attribute(albumURL))\"/>\n"
        s += "\t\t\t\t\n\t\t\t\t\t<im:contentType term=\"Music\" label=\"Music\">"
        s += "<im:contentType term=\"Track\" label=\"Song\"/></im:contentType>\n"
        if hasCategory {
            s += "\t\t\t\t\n\t\t\t\t\t<category im:id=\"\(genre.id)\" term=\"\(attribute(genre.name))\" "
            s += "scheme=\"\(attribute(genreURL))\" label=\"\(attribute(genre.name))\"/>\n"
        }
        s += "\t\t\t\t\n\t\t\t\t\t<im:artist href=\"\(attribute(artistURL))\">\(textArtist)</im:artist>\n"
        s += "\t\t\t\t\n\t\t\t\t\t<im:price amount=\"\(price.dropFirst())000\" currency=\"USD\">\(price)</im:price>\n"
        for (height, file) in [(55, "53x53-50"), (60, "60x60-50"), (170, "100x100-75")] {
            s += "\t\t\t\t\n\t\t\t\t\t<im:image height=\"\(height)\">\(base)\(file).jpg</im:image>\n"
        }
        s += "\t\t\t\t\n\t\t\t\t\t<im:collection><im:name>\(escape(album))</im:name>"
        s += "<link rel=\"alternate\" type=\"text/html\" href=\"\(attribute(albumURL))\"/>"
        s += "<im:contentType term=\"Music\" label=\"Music\"><im:contentType term=\"Album\" label=\"Album\"/>"
        s += "</im:contentType></im:collection>\n"
        s += "\t\t\t\t\n\t\t\t\t\t<rights>\(escape(rights))</rights>\n"
        if let releaseDate {
            let day = releaseDate.description
            s +=
                "\t\t\t\t\n\t\t\t\t\t<im:releaseDate label=\"\(releaseDate.feedText)\">\(day)T00:00:00-07:00</im:releaseDate>\n"
        }
        s += "\t\t\t\t\n\t\t\t\t\n\t\t\t\t\t<content type=\"html\">\(escape(contentHTML))</content>\n"
        s += "\t\t\t\t\n\t\t\t</entry>\n"
        return s
    }

    /// The item's `content:encoded`: a CDATA block of HTML.
    private var contentEncoded: String {
        "    <content:encoded><![CDATA[" + contentHTML + "]]></content:encoded>\n"
    }

    /// The HTML of the item's description (in CDATA in RSS, escaped in Atom).
    private var contentHTML: String {
        let dateLine =
            releaseDate.map { "<B>Release Date:</B>\n\t\t\t\t\t\t\($0.feedText)<br>" }
            ?? "<B>Release Date:</B>\n\t\t\t\t\t\t<br>"
        return """
            <TABLE BORDER=0 WIDTH="100%"><TR><TD><table border="0" width="100%" cellspacing="0" cellpadding="0">
            \t\t\t\t<tr valign="top" align="left">
            \t\t\t\t\t<td ALIGN=CENTER WIDTH=166 VALIGN=TOP><a href="\(albumURL)"><img border="0" src="\(image)" /></a></td>
            \t\t\t\t\t<td width="10"><img alt="" width="10" height="1" src="http://r.mzstatic.com/images/spacer.gif" /></td>
            \t\t\t\t\t<td width="95%"><B><a href="\(albumURL)">\(album)</a></B><br>
            \t\t\t\t\t\t<a href="\(artistURL)">\(artist)</a><br><br>
            \t\t\t\t\t\t<font size="3" FACE="Helvetica,Arial,Geneva,Swiss,SunSans-Regular">\(dateLine)
            \t\t\t\t\t\t</font><font size="3" FACE="Helvetica,Arial,Geneva,Swiss,SunSans-Regular"><B>Total Songs:</B>
            \t\t\t\t\t\t\(1 + albumID % 18)</font><br>
            \t\t\t\t\t\t<font size="3" FACE="Helvetica,Arial,Geneva,Swiss,SunSans-Regular"><B>Genre:</B>
            \t\t\t\t\t\t<a href="\(genreURL)">\(genre.name)</a></font><br>
            \t\t\t\t\t\t<font size="3" FACE="Helvetica,Arial,Geneva,Swiss,SunSans-Regular"><B>Price:</B>
            \t\t\t\t\t\t\(price)</font><br>
            \t\t\t\t\t\t<font size="3" FACE="Helvetica,Arial,Geneva,Swiss,SunSans-Regular"><B>Copyright</B>
            \t\t\t\t\t\t\(rights)</font></td>
            \t\t\t\t</tr>
            \t\t\t</table></TD></TR>
            \t\t\t</TABLE>

            """
    }

    /// The item's `itms:` elements, from the artist to the release date.
    private func itmsElements(textArtist: String) -> String {
        var s = ""
        let texts = [("artist", textArtist), ("artistLink", escape(artistURL)), ("album", escape(album))]
        for (name, text) in texts + [("albumLink", escape(albumURL)), ("albumPrice", price)] {
            s += "    <itms:\(name)>\(text)</itms:\(name)>\n"
        }
        let base = image.dropLast("100x100-75.jpg".count)
        s += "                \n"
        s += "                <itms:coverArt height=\"53\" width=\"53\">\(base)53x53-50.jpg</itms:coverArt>\n"
        for (size, file) in [(60, "60x60-50"), (100, "100x100-75")] {
            s += "    <itms:coverArt height=\"\(size)\" width=\"\(size)\">\(base)\(file).jpg</itms:coverArt>\n"
        }
        s += "    \n    \n"
        s += "    <itms:rights>\(escape(rights))</itms:rights>\n"
        s += "    \n"
        if let releaseDate {
            s += "        <itms:releasedate>\(releaseDate.feedText)</itms:releasedate>\n"
        }
        return s
    }

    /// Escapes text for XML character data as the iTunes feeds did (`&#39;` for the apostrophe),
    /// optionally writing every non-ASCII character as a decimal character reference.
    func escape(_ text: String, references: Bool = false) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "'": out += "&#39;"
            default:
                if references && !scalar.isASCII {
                    out += "&#\(scalar.value);"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Escapes text for an attribute value in double quotes.
    func attribute(_ text: String) -> String {
        escape(text).replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// The URL slug iTunes derives from a name: ASCII letters and digits, lowercased, dashes between.
    func slug(_ text: String) -> String {
        var out = ""
        var pendingDash = false
        for scalar in text.lowercased().unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                if pendingDash && !out.isEmpty { out += "-" }
                out.unicodeScalars.append(scalar)
                pendingDash = false
            } else {
                pendingDash = true
            }
        }
        return out.isEmpty ? "id" : out
    }
}

struct Genre: Sendable {
    var name: String
    var id: Int
}
