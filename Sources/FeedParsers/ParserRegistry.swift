/// The parsers this build knows, by name.
public enum ParserRegistry {
    /// Every parser, in the order reports list them.
    ///
    /// Those that meet the whole contract come first:
    /// when `bench verify` finds two sets of songs shared by as many parsers, the first listed wins.
    public static var all: [any SongFeedParser.Type] {
        [
            LibXML2FeedParser.self,
            ExpatFeedParser.self,
            CLibXML2ReferenceParser.self,
            CExpatReferenceParser.self,
            LibXML2DOMFeedParser.self,
            LibXML2ReaderFeedParser.self,
            FoundationFeedParser.self,
            FoundationStreamFeedParser.self,
            XMLCoderFeedParser.self,
            SWXMLHashFeedParser.self,
            MemchrFloorParser.self,
        ]
    }

    /// The parsers of ``all`` that walk a whole document into a ``DocumentSink`` (the document
    /// workload), in its order; the `null` baseline is ``documentBaseline``.
    public static var documentParsers: [any DocumentParser.Type] {
        // A parser takes the document workload by conforming (a whole-document parser through its
        // reader's `WholeDocumentWalker`): the list follows ``all``.
        all.compactMap { $0 as? any DocumentParser.Type }
    }

    /// Why a parser of ``all`` has no document workload, by name.
    public static var documentNotApplicable: [String: String] {
        [
            XMLCoderFeedParser.name:
                "a Codable decoder reads a document into types declared for its shape: with no schema it has nothing to walk",
            SWXMLHashFeedParser.name:
                "SWXMLHash's tree keeps neither namespace URIs nor processing instructions (its delegate drops them), so a document's events cannot be read back from it",
        ]
    }

    /// The document workload's baseline, which parses nothing.
    public static var documentBaseline: any DocumentParser.Type { NullFeedParser.self }

    /// The document workload's second baseline: the sink alone, the document's recorded events
    /// replayed into it (what the sink costs every parser).
    public static var sinkBaseline: any DocumentParser.Type { SinkReplayParser.self }

    /// The document parser called `name` (the baselines included), or `nil`.
    public static func documentParser(named name: String) -> (any DocumentParser.Type)? {
        [documentBaseline, sinkBaseline].first { $0.name == name } ?? documentParsers.first { $0.name == name }
    }

    /// The names of ``all``, in order.
    public static var names: [String] { all.map { $0.name } }

    /// The parsers `bench run` measures when none are named, to stay under a minute: the classic
    /// three, the C references that give their binding's cost, and the floor (see docs/parsers.md's table
    /// of parsers for why).
    public static var defaultNames: [String] {
        [
            LibXML2FeedParser.name, ExpatFeedParser.name, CLibXML2ReferenceParser.name, CExpatReferenceParser.name,
            FoundationFeedParser.name, MemchrFloorParser.name,
        ]
    }

    /// The classic study's three parsers: `bench sweep`'s default (a sweep multiplies every parser's
    /// cells by the feed sizes and chunk sizes).
    public static var classicNames: [String] {
        [LibXML2FeedParser.name, ExpatFeedParser.name, FoundationFeedParser.name]
    }

    /// The baseline that parses nothing (see ``NullFeedParser``); not in ``all``.
    public static var baseline: any SongFeedParser.Type { NullFeedParser.self }

    /// The parser called `name` (the baseline included), or `nil`.
    public static func parser(named name: String) -> (any SongFeedParser.Type)? {
        name == baseline.name ? baseline : all.first { $0.name == name }
    }

    /// Whether the parser called `name` builds songs to compare (`false` for the baseline, the
    /// floor, and names this build does not know).
    public static func buildsSongs(_ name: String) -> Bool {
        parser(named: name)?.buildsSongs ?? false
    }

    /// The kind of the parser called `name`, as reports write it (the document workload's `sink`
    /// baseline included); `nil` for names this build does not know.
    public static func kind(of name: String) -> ParserKind? {
        name == sinkBaseline.name ? .baseline : parser(named: name)?.kind
    }
}
