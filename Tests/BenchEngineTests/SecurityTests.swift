import BenchEngine
import BenchTestSupport
import FeedParsers
import ParserTestSupport
import Foundation
import SongFeed
import Testing

/// No external entity is ever read, and entity expansion is bounded.
@Suite("Hostile input")
struct SecurityTests {
    static let secret = "TOP-SECRET-\(UInt32.random(in: 1_000...9_999))"

    /// A document whose external entity names a local file holding ``secret``.
    static func externalEntityDocument(directory: TemporaryDirectory) throws -> [UInt8] {
        let file = try directory.write("secret.txt", secret)
        let prolog =
            "\n<!DOCTYPE rss [<!ENTITY xxe SYSTEM \"file://\(file)\"><!ENTITY % pe SYSTEM \"file://\(file)\">]>"
        let item = Samples.item(title: "before &xxe; after", artist: "&xxe;")
        return Array(Samples.feed([item], prolog: prolog).utf8)
    }

    @Test("An external entity is never read", arguments: songParsers)
    func externalEntityIsNotRead(parser: String) throws {
        let directory = try TemporaryDirectory()
        let bytes = try Self.externalEntityDocument(directory: directory)
        let verdict = try verifyInWorker(parser, bytes, chunkSizes: [0, 7])
        switch verdict.status {
        case .failed(let error):
            #expect(error.parser == parser)
        case .consistent, .agrees, .unverified:
            // Ignored: then the secret must be in no song.
            let songs = try #require(try? parserType(parser).parse(bytes))
            #expect(!songs.contains { $0.fieldValues.joined().contains(Self.secret) })
        default:
            Issue.record("\(parser): \(verdict.status)")
        }
    }

    @Test("An external entity is never read (in process)", arguments: inProcessParsers)
    func externalEntityInProcess(parser: String) throws {
        let directory = try TemporaryDirectory()
        let bytes = try Self.externalEntityDocument(directory: directory)
        do {
            let songs = try parserType(parser).parse(bytes, chunkSize: 5)
            #expect(!songs.contains { $0.fieldValues.joined().contains(Self.secret) })
        } catch let error as FeedParseError {
            #expect(!error.message.contains(Self.secret))
        }
    }

    @Test("An external DTD is never read", arguments: inProcessParsers)
    func externalDTDIsNotRead(parser: String) throws {
        let directory = try TemporaryDirectory()
        let dtd = try directory.write("evil.dtd", "<!ENTITY leak \"\(Self.secret)\">")
        // The entity is referenced: a parser that read the DTD would put the secret in the title.
        let bytes = Array(
            Samples.feed([Samples.item(title: "x &leak; y")], prolog: "\n<!DOCTYPE rss SYSTEM \"file://\(dtd)\">").utf8)
        do {
            let songs = try parserType(parser).parse(bytes)
            #expect(!songs.contains { $0.fieldValues.joined().contains(Self.secret) })
        } catch is FeedParseError {}
    }

    @Test("Billion laughs is bounded", arguments: songParsers, [true, false])
    func billionLaughs(parser: String, inTitle: Bool) throws {
        let bytes = Array(Samples.billionLaughs(inTitle: inTitle).utf8)
        let verdict = try verifyInWorker(parser, bytes, chunkSizes: [0, 64], timeout: 120)
        switch verdict.status {
        case .failed(let error):
            #expect(error.parser == parser)
        case .consistent, .agrees, .unverified:
            break  // finished within bounds
        default:
            Issue.record("\(parser): \(verdict.status)")
        }
        let peak = try #require(verdict.peakResidentBytes)
        #expect(peak < 512 << 20, "\(parser) peaked at \(peak >> 20) MiB")
    }
}
