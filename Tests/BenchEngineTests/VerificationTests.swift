@testable import BenchWorker
import BenchEngine
import BenchTestSupport
import FeedParsers
import Foundation
import SongFeed
import Testing

@Suite("FeedVerifier: agreement across parsers and chunk sizes")
struct VerificationTests {
    @Test func allParsersAgreeOnTheCommittedFeed() throws {
        let verification = try FeedVerifier.verify(
            feed: TestPaths.top300, parsers: ParserRegistry.names, chunkSizes: [7, 16_384, 0],
            executable: TestPaths.workerExecutable)
        #expect(verification.allAgree, "\(verification.verdicts.map(\.status))")
        let songBuilding = verification.verdicts.filter { ParserRegistry.buildsSongs($0.parser) }
        #expect(songBuilding.count == ParserRegistry.names.count - 1)
        #expect(
            songBuilding.allSatisfy { $0.status == .agrees && $0.songCount == 300 && ($0.peakResidentBytes ?? 0) > 0 })
        #expect(verification.verdicts.first { $0.parser == "memchr" }?.status == .notCompared("floor: builds no songs"))
        #expect(verification.referenceSongs == FeedGenerator(songs: 300).generate().songs)
        #expect(verification.referenceDigest == SongDigest.sha256(of: FeedGenerator(songs: 300).generate().songs))
        #expect(verification.bytes == 901_440)
    }

    @Test func aMalformedFeedFailsEveryParser() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("bad.xml", "<rss><channel><item><title>x</titl></item></channel></rss>")
        let verification = try FeedVerifier.verify(
            feed: path, parsers: ParserRegistry.names, chunkSizes: [1, 0], executable: TestPaths.workerExecutable)
        #expect(!verification.allAgree)
        for verdict in verification.verdicts where ParserRegistry.buildsSongs(verdict.parser) {
            if verdict.parser == "swxmlhash" {
                // Pinned: its lazy parser ignores XMLParser's errors (see its summary); no other parser
                // confirms what it built, so it is unverified, never "agree".
                guard case .unverified = verdict.status else {
                    Issue.record("swxmlhash: \(verdict.status)")
                    continue
                }
                continue
            }
            guard case .failed(let error) = verdict.status else {
                Issue.record("\(verdict.parser): \(verdict.status)")
                continue
            }
            #expect(error.parser == verdict.parser)
            // XMLCoder rethrows XMLParser's error without its position.
            #expect(error.line == (verdict.parser == "xmlcoder" ? 0 : 1), "\(verdict.parser)")
        }
    }

    @Test func aMissingFeedIsAClearError() {
        #expect(throws: FeedFileError.self) {
            try FeedVerifier.verify(
                feed: "/nonexistent/feed.xml", parsers: ["expat"], executable: TestPaths.workerExecutable)
        }
    }

    @Test func theWorkerReportsEachChunkSizeAndSendsSongsOnce() throws {
        let report = try VerifyWorker.run(VerifyJob(parser: "expat", feed: TestPaths.top300, chunkSizes: [1, 512, 0]))
        #expect(report.runs.map(\.chunkSize) == [1, 512, 0])
        #expect(report.runs.map(\.songCount) == [300, 300, 300])
        #expect(Set(report.runs.compactMap(\.digest)).count == 1)
        #expect(report.runs.filter { $0.songs != nil }.count == 1)
        #expect(throws: VerifyWorkerError.self) {
            try VerifyWorker.run(VerifyJob(parser: "nope", feed: TestPaths.top300, chunkSizes: [0]))
        }
    }

    @Test func firstDifferenceNamesSongAndField() {
        let a = [Samples.harakiri, Samples.harakiri]
        var b = a
        b[1].artist = "Someone Else"
        #expect(
            OutputDifference.first(b, a, parser: "x", reference: "y")
                == "song 2, field artist: x has \"Someone Else\", y has \"Serj Tankian\"")
        #expect(OutputDifference.first([a[0]], a, parser: "x", reference: "y") == "x built 1 songs, y built 2")
        var c = a
        c[0].releaseDate = nil
        #expect(
            OutputDifference.first(c, a, parser: "x", reference: "y").contains(
                "field releaseDate: x has \"nil\", y has \"2012-07-10\""))
    }

    @Test func aDifferenceInInvisibleCharactersIsShownEscaped() {
        // Issue 68, item 3: a carriage return printed as itself read as no difference at all.
        #expect(
            OutputDifference.first([.text("\r\n")], [.text("\n")], parser: "xylem", reference: "libxml2")
                == "event 1, text from its line 1, column 1: xylem has \"\\r\\n\", libxml2 has \"\\n\"")
        let long = String(repeating: "a", count: 100) + "\nbb\tc"
        #expect(
            OutputDifference.first(
                [.end, .text(long + "\u{00A0}")], [.end, .text(long + " ")], parser: "x", reference: "y")
                == "event 2, text from its line 2, column 5: x has \"…aaaaaaaaaaaaaaa\\nbb\\tcU+00A0\", "
                + "y has \"…aaaaaaaaaaaaaaa\\nbb\\tc \"")
        let attribute = DocumentEvent.Attribute(
            name: DocumentEvent.Name(uri: "", local: "v", prefix: ""), value: "\u{200B}\u{FEFF}\u{7}\\")
        #expect(
            DocumentEvent.start(DocumentEvent.Name(uri: "", local: "a", prefix: ""), [attribute]).summary
                == "start <a v=\"U+200BU+FEFFU+0007\\\\\">")
        var song = Samples.harakiri
        song.album = "Harakiri\r"
        #expect(
            OutputDifference.first([song], [Samples.harakiri], parser: "x", reference: "y")
                == "song 1, field album: x has \"Harakiri\\r\", y has \"Harakiri\"")
        #expect(
            CanonicalOracle.firstDifference(Array("<a>\n<b>x\u{00A0}</b>".utf8), Array("<a>\n<b>x </b>".utf8))
                == "at byte 8 (line 2, column 5): \"<a>\\n<b>xU+00A0</b>\" where the expected form has \"<a>\\n<b>x </b>\""
        )
    }

    @Test func theReferenceIsWhatMostParsersBuilt() throws {
        // A parser that disagrees is named; the two that agree are the reference.
        let directory = try TemporaryDirectory()
        // Foundation drops internal entity text on Linux: it disagrees with the two push parsers.
        let path = try directory.write(
            "entities.xml",
            Samples.feed([Samples.item(title: "&e; Records")], prolog: "\n<!DOCTYPE rss [<!ENTITY e \"Reprise\">]>"))
        let verification = try FeedVerifier.verify(
            feed: path, parsers: ParserRegistry.names, chunkSizes: [0, 3], executable: TestPaths.workerExecutable)
        #if os(Linux)
            let statuses = Dictionary(uniqueKeysWithValues: verification.verdicts.map { ($0.parser, $0.status) })
            #expect(statuses["libxml2"] == .agrees)
            #expect(statuses["expat"] == .agrees)
            guard case .disagrees(let detail) = statuses["foundation"] else {
                Issue.record("foundation: \(String(describing: statuses["foundation"]))")
                return
            }
            #expect(detail == "song 1, field title: foundation has \" Records\", libxml2 has \"Reprise Records\"")
        #endif
    }
}
