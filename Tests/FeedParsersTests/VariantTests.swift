import BenchTestSupport
import FeedParsers
import ParserTestSupport
import SongFeed
import Testing

/// The same songs whatever the surface form: prefixes, default namespaces, comments, CDATA,
/// character references, line ends.
///
/// Every parser, several chunk sizes.
@Suite("Surface forms give the same songs")
struct VariantTests {
    static let sizes: [Int?] = [1, 3, 7, 64, nil]

    /// Checks the songs at every chunk size; for a parser in `deviates` (a ``KnownDeviation``),
    /// checks that it gives *other* songs, as its summary says.
    static func check(
        _ parser: String, _ document: String, _ expected: [Song], deviates: Set<String> = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for size in sizes {
            let songs = try parse(parser, document, chunkSize: size)
            if deviates.contains(parser) {
                #expect(
                    songs != expected, "\(parser) now agrees here: update its summary and KnownDeviation",
                    sourceLocation: sourceLocation)
            } else {
                #expect(
                    songs == expected, "chunk size \(size.map(String.init) ?? "whole")", sourceLocation: sourceLocation)
            }
        }
    }

    @Test(arguments: songParsers)
    func itmsPrefixIsFreeToChoose(parser: String) throws {
        try Self.check(parser, Samples.feed([Samples.item(prefix: "i")], prefix: "i"), [Samples.harakiri])
        try Self.check(parser, Samples.feed([Samples.item(prefix: "apple")], prefix: "apple"), [Samples.harakiri])
    }

    @Test(arguments: songParsers)
    func itmsAsTheDefaultNamespaceOnEachElement(parser: String) throws {
        let item = """
            <title>Harakiri - Serj Tankian</title><category>Rock</category>
            <artist xmlns="\(Samples.itms)">Serj Tankian</artist>
            <album xmlns="\(Samples.itms)">Harakiri</album>
            <releasedate xmlns="\(Samples.itms)">July 10, 2012</releasedate>
            """
        try Self.check(parser, Samples.feed([item]), [Samples.harakiri])
    }

    @Test(arguments: songParsers)
    func theLiteralPrefixAloneDoesNotMatch(parser: String) throws {
        // "itms:" bound to another namespace: not the iTunes elements.
        let document = Samples.feed([Samples.item()]).replacingOccurrences(
            of: Samples.itms, with: "http://example.com/other/")
        try Self.check(
            parser, document,
            [Song(title: Samples.harakiri.title, category: "Rock", artist: "", album: "", releaseDate: nil)],
            deviates: KnownDeviation.localNamesOnly)
    }

    @Test(arguments: songParsers)
    func textSplitByCommentsAndCDATA(parser: String) throws {
        let item = Samples.item(
            title: "Hara<!-- a comment -->kiri<![CDATA[ - ]]>Serj<!---->&#32;Tankian",
            artist: "<![CDATA[Serj]]><![CDATA[ Tank]]>ian", album: "Hara<?pi data?>kiri")
        try Self.check(parser, Samples.feed([item]), [Samples.harakiri], deviates: KnownDeviation.splitTextCut)
    }

    @Test(arguments: songParsers)
    func characterAndEntityReferences(parser: String) throws {
        let item = Samples.item(
            title: "Caf&#233; &amp; &#x6771;&#x4EAC; &lt;3 &#39;n&apos; &quot;x&quot; &gt;", category: "R&amp;B/Soul",
            artist: "Beyonc&#xE9;", album: "&#8471; &#x1F3B5;")
        let expected = Song(
            title: "Café & 東京 <3 'n' \"x\" >", category: "R&B/Soul", artist: "Beyoncé", album: "℗ 🎵",
            releaseDate: SongDate(year: 2012, month: 7, day: 10))
        try Self.check(parser, Samples.feed([item]), [expected])
    }

    @Test(arguments: songParsers)
    func crlfLineEndsBecomeLF(parser: String) throws {
        // Every "\n" becomes "\r\n", and the album also has a lone "\r": both are one line end.
        let item = Samples.item(title: "Line one\nline two", album: "A\rB")
        let document = Samples.feed([item]).replacingOccurrences(of: "\n", with: "\r\n")
        var expected = Samples.harakiri
        expected.title = "Line one\nline two"
        expected.album = "A\nB"
        try Self.check(parser, document, [expected])
    }

    @Test(arguments: songParsers)
    func missingFieldsAndBadDates(parser: String) throws {
        let items = [
            "<title>Only a title</title>",
            Samples.item(date: "sometime in 2012"),
            Samples.item(date: "February 30, 2012"),
            "<title></title><category/><releasedate>July 10, 2012</releasedate>",
        ]
        let expected = [
            Song(title: "Only a title", category: "", artist: "", album: "", releaseDate: nil),
            Song(
                title: Samples.harakiri.title, category: "Rock", artist: "Serj Tankian", album: "Harakiri",
                releaseDate: nil),
            Song(
                title: Samples.harakiri.title, category: "Rock", artist: "Serj Tankian", album: "Harakiri",
                releaseDate: nil),
            // releasedate without the itms namespace is not the iTunes element.
            Song(title: "", category: "", artist: "", album: "", releaseDate: nil),
        ]
        try Self.check(parser, Samples.feed(items), expected, deviates: KnownDeviation.localNamesOnly)
    }

    @Test(arguments: songParsers)
    func onlyDirectChildrenOfItemAreFields(parser: String) throws {
        let item = """
            <title>Outer <b>bold</b> text</title>
            <media><title>not the song's title</title></media>
            <category>Rock</category>
            """
        let expected = Song(title: "Outer bold text", category: "Rock", artist: "", album: "", releaseDate: nil)
        try Self.check(parser, Samples.feed([item]), [expected], deviates: KnownDeviation.ownTextOnly)
    }

    @Test(arguments: songParsers)
    func whitespaceIsKeptAsXMLDefinesIt(parser: String) throws {
        let item =
            "<title>  spaced\ttitle  </title><releasedate xmlns=\"\(Samples.itms)\">  July 10, 2012 </releasedate>"
        let expected = Song(
            title: "  spaced\ttitle  ", category: "", artist: "", album: "",
            releaseDate: SongDate(year: 2012, month: 7, day: 10))
        try Self.check(parser, Samples.feed([item]), [expected])
    }

    static let entityDocument = Samples.feed(
        [Samples.item(title: "&label; Records", album: "&label; and &label;")],
        prolog: "\n<!DOCTYPE rss [<!ENTITY label \"Reprise\">]>")

    @Test(arguments: inProcessParsers)
    func internalEntitiesExpandEverywhere(parser: String) throws {
        var expected = Samples.harakiri
        expected.title = "Reprise Records"
        expected.album = "Reprise and Reprise"
        try Self.check(parser, Self.entityDocument, [expected], deviates: KnownDeviation.noDTDEntities)
    }

    /// Pinned: every parser over Foundation's XMLParser loses the internal entities' text on Linux
    /// (see ``foundationDropsInternalEntityText()``).
    @Test(arguments: foundationBasedParsers)
    func foundationBasedParsersDropInternalEntityText(parser: String) throws {
        var expected = Samples.harakiri
        expected.title = "Reprise Records"
        expected.album = "Reprise and Reprise"
        #if os(Linux)
            try Self.check(parser, Self.entityDocument, [expected], deviates: Set(foundationBasedParsers))
        #endif
    }

    /// Pinned: Foundation's XMLParser on Linux, with `shouldResolveExternalEntities` off (the only
    /// setting that cannot read external entities), drops the text of internal entities.
    ///
    /// `bench verify`
    /// reports it as disagreeing on such a feed. When this test fails, Foundation has changed.
    @Test func foundationDropsInternalEntityText() throws {
        var expected = Samples.harakiri
        expected.title = " Records"
        expected.album = " and "
        #if os(Linux)
            try Self.check("foundation", Self.entityDocument, [expected])
        #endif
    }

    @Test(arguments: songParsers)
    func noItemsNoSongs(parser: String) throws {
        try Self.check(parser, Samples.feed([]), [])
    }

    @Test(arguments: songParsers)
    func utf16DocumentsDecodeToo(parser: String) throws {
        let text = Samples.feed([Samples.item(title: "東京 - Beyoncé")]).replacingOccurrences(of: "UTF-8", with: "UTF-16")
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        var expected = Samples.harakiri
        expected.title = "東京 - Beyoncé"
        for size in [1, 3, nil] as [Int?] {
            #expect(try parserType(parser).parse(bytes, chunkSize: size) == [expected])
        }
    }
}
