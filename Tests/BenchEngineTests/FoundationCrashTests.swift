import BenchEngine
import BenchTestSupport
import FeedParsers
import ParserTestSupport
import Foundation
import Testing

/// Known crashes of Foundation's `XMLParser` on Linux, pinned so that a fix upstream is noticed:
/// when one of these tests fails because Foundation no longer crashes, update the pin and the
/// notes in docs/parsers.md and DESIGN.md.
@Suite("Foundation's known crashes (pinned)")
struct FoundationCrashTests {
    static var crashes: Bool {
        #if os(Linux)
            true
        #else
            false
        #endif
    }

    @Test(
        "<!ATTLIST … #IMPLIED> in a well-formed DTD crashes it and every parser built on it (SIGSEGV)",
        .enabled(if: crashes), arguments: foundationBasedParsers)
    func attlistImplied(parser: String) throws {
        let prolog = "\n<!DOCTYPE rss [<!ATTLIST item id CDATA #IMPLIED>]>"
        let bytes = Array(Samples.feed([Samples.item()], prolog: prolog).utf8)
        let verdict = try verifyInWorker(parser, bytes)
        #expect(verdict.status == .crashed("worker crashed with signal \(SIGSEGV) (SIGSEGV)"))
        // The same document is fine for the others.
        for other in inProcessParsers {
            #expect(try parserType(other).parse(bytes) == [Samples.harakiri], "\(other)")
        }
    }

    @Test(
        "Invalid UTF-8 in an element name traps it and every parser built on it (SIGILL)", .enabled(if: crashes),
        arguments: foundationBasedParsers)
    func invalidUTF8InName(parser: String) throws {
        let good = Array(Samples.feed([Samples.item()]).utf8)
        let bytes = good.replacingFirst(Array("<title>".utf8), with: [0x3C, 0x74, 0xFF, 0x74, 0x6C, 0x65, 0x3E])
        let verdict = try verifyInWorker(parser, bytes)
        guard case .crashed(let detail) = verdict.status else {
            Issue.record("Foundation no longer crashes here: \(verdict.status)")
            return
        }
        #expect(detail.hasPrefix("worker crashed with signal \(SIGILL) (SIGILL)"))
    }

    @Test("A crash is reported for that parser only; the others still run", .enabled(if: crashes))
    func crashIsIsolated() throws {
        let directory = try TemporaryDirectory()
        let prolog = "\n<!DOCTYPE rss [<!ATTLIST item id CDATA #IMPLIED>]>"
        let path = try directory.write("attlist.xml", Samples.feed([Samples.item()], prolog: prolog))
        let verification = try FeedVerifier.verify(
            feed: path, parsers: ParserRegistry.names, chunkSizes: [0], executable: TestPaths.workerExecutable)
        #expect(!verification.allAgree)
        for verdict in verification.verdicts {
            if foundationBasedParsers.contains(verdict.parser) {
                guard case .crashed = verdict.status else {
                    Issue.record("\(verdict.parser): \(verdict.status)"); continue
                }
            } else if !ParserRegistry.buildsSongs(verdict.parser) {
                #expect(verdict.status.mayBeTimed, "\(verdict.parser)")
            } else {
                #expect(verdict.status == .agrees, "\(verdict.parser)")
                #expect(verdict.songCount == 1)
            }
        }
    }
}
