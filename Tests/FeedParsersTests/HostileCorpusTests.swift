import BenchEngine
import BenchResults
import BenchTestSupport
import FeedParsers
import Foundation
import SongFeed
import Testing

/// The hostile corpus (`HostileCorpus`, which `bench hostile` runs too): documents made to hurt a
/// parser, run against every parser that builds songs in worker processes with a limit of time
/// (`HostileCorpus.timeLimit` seconds without finishing a document) and of memory
/// (`HostileCorpus.memoryLimitMiB` of data per worker, `RLIMIT_DATA`: a parser that wants more gets
/// no memory, and the worker's crash is then a failure here).
///
/// Each document must end in a typed error or in a correct result, and the secret
/// of the local file that two of them name must be in no song. For the parsers built on Foundation's
/// `XMLParser`, a crash is an outcome pinned in ``pinnedCrashes`` (a new one, or one that goes
/// away, fails the test so that it is noticed). Two parsers at a time, one from each half of the
/// list: a parser's workers take up to a core and hundreds of MiB, and the other suites run beside
/// them; one at a time made this the longest chain of the whole test run (10 parsers, 425 s).
@Suite("Hostile corpus", .endToEnd)
struct HostileCorpusTests {
    /// The song parsers in two halves, alternately (the slow tree parsers fall in both).
    static let halves = (
        songParsers.enumerated().filter { $0.offset.isMultiple(of: 2) }.map(\.element),
        songParsers.enumerated().filter { !$0.offset.isMultiple(of: 2) }.map(\.element)
    )

    @Suite("first half", .serialized)
    struct FirstHalf {
        @Test(arguments: HostileCorpusTests.halves.0)
        func everyDocumentEndsInAnErrorOrACorrectResult(parser: String) throws {
            try HostileCorpusTests.check(parser)
        }
    }

    @Suite("second half", .serialized)
    struct SecondHalf {
        @Test(arguments: HostileCorpusTests.halves.1)
        func everyDocumentEndsInAnErrorOrACorrectResult(parser: String) throws {
            try HostileCorpusTests.check(parser)
        }
    }

    /// Crashes of the Foundation-based parsers, by document (all others crash nowhere): invalid
    /// UTF-8 in a name traps Foundation's `XMLParser` (SIGILL, see DESIGN.md), and the trees of
    /// XMLCoder and SWXMLHash recurse once per level of nesting.
    static let pinnedCrashes: [String: Set<String>] = [
        "foundation": ["invalid UTF-8 in a name"], "foundation-stream": ["invalid UTF-8 in a name"],
        "xmlcoder": ["100,000-deep nesting", "invalid UTF-8 in a name"],
        "swxmlhash": ["100,000-deep nesting", "invalid UTF-8 in a name"],
    ]

    /// Hangs of libxml2 2.9, pinned as they are the library's.
    ///
    /// It checks an element's attributes
    /// for duplicates pair by pair, in quadratic time (100,000 attributes take 7 s, 300,000 take 89 s
    /// here). Its push parser refuses a start tag of more than 10 MB before that ("Huge input
    /// lookup"); parsers handed the whole document at once do not.
    static let pinnedHangs: [String: Set<String>] = [
        "libxml2-dom": ["1,000,000 attributes"], "foundation": ["1,000,000 attributes"],
        "xmlcoder": ["1,000,000 attributes"], "swxmlhash": ["1,000,000 attributes"],
    ]

    /// Every document of the corpus against `parser`.
    static func check(_ parser: String) throws {
        let directory = try TemporaryDirectory()
        let corpus = try HostileCorpus(directory: directory.path(""))
        let result = HostileCorpusRunner.run(
            parser: parser, corpus: corpus, options: HostileCorpusRunner.Options(executable: TestPaths.benchExecutable))
        #expect(result.entries.count == corpus.all.count)
        var crashed: Set<String> = []
        var hung: Set<String> = []
        for (entry, document) in zip(result.entries, corpus.all) {
            switch entry.verdict {
            case .crashed:
                crashed.insert(entry.name)
            case .timedOut:
                hung.insert(entry.name)
            case .acceptedMalformed where KnownDeviation.errorsNotDetected.contains(parser):
                break
            case .wrongSongs where KnownDeviation.errorsNotDetected.contains(parser):
                if case .errorOrBounded = document.expectation {
                    Issue.record("\(parser) on \(entry.name): \(entry.verdict.description)")
                }
            default:
                #expect(entry.verdict.held, "\(parser) on \(entry.name): \(entry.verdict.description)")
            }
        }
        #expect(crashed == pinnedCrashes[parser, default: []], "\(parser) crashed on: \(crashed.sorted())")
        #expect(hung == pinnedHangs[parser, default: []], "\(parser) hung on: \(hung.sorted())")
    }
}

/// Differences of the libraries themselves that the suite reports rather than hides (found by
/// `scripts/fuzz.sh`'s libxml2-vs-expat target).
@Suite("Known library differences")
struct KnownLibraryDifferences {
    /// XML 1.0 §2.11: a lone carriage return is read as a line feed.
    ///
    /// libxml2 2.9's push parser leaves carriage returns in CDATA sections as they are, CR LF included (its pull parser,
    /// xmllint's, does not); expat follows the rule.
    @Test func aLoneCarriageReturnInCDATA() throws {
        let document = Samples.feed([Samples.item(title: "<![CDATA[a\r\rb\r\nc]]>")])
        for parser in ["libxml2", "c-libxml2"] {
            let title = try parse(parser, document).first?.title ?? ""
            #expect(title == "a\r\rb\r\nc", "\(parser): \(title.unicodeScalars.map { $0.value })")
        }
        for parser in ["expat", "c-expat"] {
            #expect(try parse(parser, document).first?.title == "a\n\nb\nc", "\(parser)")
        }
        // Outside CDATA both follow it.
        let text = Samples.feed([Samples.item(title: "a\r\rb\r\nc")])
        for parser in ["libxml2", "expat"] {
            #expect(try parse(parser, text).first?.title == "a\n\nb\nc", "\(parser)")
        }
    }
}
