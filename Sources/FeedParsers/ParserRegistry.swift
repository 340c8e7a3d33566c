import Foundation

/// The parsers this build knows, by name: the suite's own, then those a package registered
/// (``register(_:)``, which `BenchTool.main(parsers:)` calls before any command runs).
public enum ParserRegistry {
    /// Every parser, in the order reports list them: the built-in ones, then the registered ones.
    ///
    /// Those that meet the whole contract come first:
    /// when `bench verify` finds two sets of songs shared by as many parsers, the first listed wins.
    package static var all: [any SongFeedParser.Type] {
        builtIn + registered.withLock { $0 }
    }

    /// The suite's own parsers.
    package static var builtIn: [any SongFeedParser.Type] {
        var parsers: [any SongFeedParser.Type] = [
            LibXML2FeedParser.self,
            ExpatFeedParser.self,
            CLibXML2ReferenceParser.self,
            CExpatReferenceParser.self,
            LibXML2DOMFeedParser.self,
            LibXML2ReaderFeedParser.self,
            FoundationFeedParser.self,
            FoundationStreamFeedParser.self,
        ]
        #if CodableParsers
            parsers += [XMLCoderFeedParser.self, SWXMLHashFeedParser.self]
        #endif
        return parsers + [MemchrFloorParser.self]
    }

    /// The built-in parsers this build left out, by name, each with the suite's trait that brings
    /// it (`CodableParsers`): not listed, and named with their trait when asked for.
    package static var leftOut: [String: String] {
        #if CodableParsers
            return [:]
        #else
            return ["xmlcoder": "CodableParsers", "swxmlhash": "CodableParsers"]
        #endif
    }

    /// The parsers a package added to the built-in ones, in the order it gave them.
    package static var registeredParsers: [any SongFeedParser.Type] { registered.withLock { $0 } }

    /// Adds parsers from outside the suite: listed, verified and measured beside the built-in ones.
    ///
    /// Every process of a run registers the same parsers (a worker is the same executable run
    /// again), so a worker finds a parser by its name. A parser whose name is taken, empty or not a
    /// single word (letters, digits, `-`, `_`, `.`) is refused.
    ///
    /// - Throws: ``RegistrationError`` naming the parser and why.
    public static func register(_ parsers: [any SongFeedParser.Type]) throws {
        try registered.withLock { list in
            var names = Set((builtIn + list).map { $0.name } + [baseline.name, sinkBaseline.name])
            // Every parser checked before any is added: a refused list adds none.
            var added = list
            for parser in parsers {
                let name = parser.name
                let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_."))
                guard !name.isEmpty, name.unicodeScalars.allSatisfy(allowed.contains), name.lowercased() != "all"
                else {
                    throw RegistrationError(
                        description: "cannot register the parser named '\(name)': a name is one word of letters, "
                            + "digits, '-', '_' or '.', and not 'all'")
                }
                guard names.insert(name).inserted else {
                    throw RegistrationError(
                        description: "cannot register \(String(reflecting: parser)): the name '\(name)' is taken")
                }
                added.append(parser)
            }
            list = added
        }
    }

    /// Why a parser could not be registered.
    public struct RegistrationError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    private static let registered = RegisteredParsers()

    /// The parsers of ``all`` that walk a whole document into a ``DocumentSink`` (the document
    /// workload), in its order; the `null` baseline is ``documentBaseline``.
    package static var documentParsers: [any DocumentParser.Type] {
        // A parser takes the document workload by conforming (a whole-document parser through its
        // reader's `WholeDocumentWalker`): the list follows ``all``.
        all.compactMap { $0 as? any DocumentParser.Type }
    }

    /// Why a parser of ``all`` has no document workload, by name.
    package static var documentNotApplicable: [String: String] {
        var reasons: [String: String] = [:]
        for parser in registeredParsers where !(parser is any DocumentParser.Type) {
            reasons[parser.name] =
                "it does not walk a document: its adapter conforms to SongFeedParser only (conform to DocumentParser, "
                + "or adapt it as an XMLEventReader, for the document workload)"
        }
        return reasons.merging(builtInDocumentNotApplicable) { first, _ in first }
    }

    /// Why a built-in parser has no document workload, by name.
    static var builtInDocumentNotApplicable: [String: String] {
        #if CodableParsers
            return [
                XMLCoderFeedParser.name:
                    "a Codable decoder reads a document into types declared for its shape: with no schema it has nothing to walk",
                SWXMLHashFeedParser.name:
                    "SWXMLHash's tree keeps neither namespace URIs nor processing instructions (its delegate drops them), so a document's events cannot be read back from it",
            ]
        #else
            return [:]
        #endif
    }

    /// The document workload's baseline, which parses nothing.
    package static var documentBaseline: any DocumentParser.Type { NullFeedParser.self }

    /// The document workload's second baseline: the sink alone, the document's recorded events
    /// replayed into it (what the sink costs every parser).
    package static var sinkBaseline: any DocumentParser.Type { SinkReplayParser.self }

    /// The document parser called `name` (the baselines included), or `nil`.
    package static func documentParser(named name: String) -> (any DocumentParser.Type)? {
        [documentBaseline, sinkBaseline].first { $0.name == name } ?? documentParsers.first { $0.name == name }
    }

    /// The names of ``all``, in order.
    package static var names: [String] { all.map { $0.name } }

    /// The parsers `bench run` measures when none are named, to stay under a minute: the classic
    /// three, the C references that give their binding's cost, and the floor (see docs/parsers.md's table
    /// of parsers for why); and every registered parser whose author did not say otherwise
    /// (``SongFeedParser/inDefaultSet``).
    package static var defaultNames: [String] { defaultNames(registered: registeredParsers) }

    /// The default set with `registered` as the registered parsers.
    package static func defaultNames(registered: [any SongFeedParser.Type]) -> [String] {
        [
            LibXML2FeedParser.name, ExpatFeedParser.name, CLibXML2ReferenceParser.name, CExpatReferenceParser.name,
            FoundationFeedParser.name, MemchrFloorParser.name,
        ] + registered.filter { $0.inDefaultSet }.map { $0.name }
    }

    /// The classic study's three parsers: `bench sweep`'s default (a sweep multiplies every parser's
    /// cells by the feed sizes and chunk sizes).
    package static var classicNames: [String] {
        [LibXML2FeedParser.name, ExpatFeedParser.name, FoundationFeedParser.name]
    }

    /// The baseline that parses nothing (see ``NullFeedParser``); not in ``all``.
    package static var baseline: any SongFeedParser.Type { NullFeedParser.self }

    /// The parser called `name` (the baseline included), or `nil`.
    package static func parser(named name: String) -> (any SongFeedParser.Type)? {
        name == baseline.name ? baseline : all.first { $0.name == name }
    }

    /// Whether the parser called `name` builds songs to compare (`false` for the baseline, the
    /// floor, and names this build does not know).
    package static func buildsSongs(_ name: String) -> Bool {
        parser(named: name)?.buildsSongs ?? false
    }

    /// The kind of the parser called `name`, as reports write it (the document workload's `sink`
    /// baseline included); `nil` for names this build does not know.
    package static func kind(of name: String) -> ParserKind? {
        name == sinkBaseline.name ? .baseline : parser(named: name)?.kind
    }
}

/// The registered parsers, behind a lock.
private final class RegisteredParsers: @unchecked Sendable {
    private let lock = NSLock()
    private var parsers: [any SongFeedParser.Type] = []

    func withLock<T>(_ body: (inout [any SongFeedParser.Type]) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&parsers)
    }
}
