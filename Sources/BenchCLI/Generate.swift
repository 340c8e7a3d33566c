import ArgumentParser
import BenchEngine
import BenchReports
import Foundation
import SongFeed

/// `bench generate`: write a synthetic feed.
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Write a synthetic iTunes Store feed, RSS or Atom (or, with --shape, a document of a known shape), the same bytes for the same settings.",
        discussion:
            "Data/top300.rss.xml is `bench generate --songs 300 --seed \(FeedGenerator.defaultSeed) --output Data/top300.rss.xml`."
    )

    @Option(help: "The number of songs (items), up to \(FeedGenerator.maxSongs) (default: \(Self.defaultSongs)).")
    var songs: Int?

    /// A feed's songs when `--songs` is not given: the committed feed's.
    static let defaultSongs = 300

    @Option(help: "The seed of the pseudo-random choices.")
    var seed: UInt64 = FeedGenerator.defaultSeed

    @Option(
        help:
            "The feed's form: rss (the 2012 feeds) or atom (Apple's later feeds); the same songs either way (default: rss)."
    )
    var format: FeedGenerator.Format?

    @Option(help: "The file to write; - or none: standard output.")
    var output: String?

    @Option(
        help: ArgumentHelp(
            "Write a document of this shape instead of a feed (for --workload document).",
            discussion: DocumentShape.allCases.map { "\($0.rawValue): \($0.summary)" }.joined(separator: "; ")))
    var shape: DocumentShape?

    @Option(
        help:
            "With --shape: the document's size in bytes, about, up to \(DocumentShape.maxBytes) (default: \(Self.defaultBytes))."
    )
    var bytes: Int?

    /// A shaped document's size when `--bytes` is not given.
    static let defaultBytes = 1_000_000

    func validate() throws {
        // What sizes a feed does not size a document, and the other way round: refused, not ignored.
        if shape != nil, songs != nil || format != nil {
            throw ValidationError("--songs and --format make a feed; a --shape document is sized by --bytes")
        }
        if shape == nil, bytes != nil {
            throw ValidationError("--bytes sizes a --shape document; a feed is sized by --songs")
        }
        guard (1...FeedGenerator.maxSongs).contains(songs ?? Self.defaultSongs) else {
            throw ValidationError("--songs must be from 1 to \(FeedGenerator.maxSongs) (a feed of about 300 MB)")
        }
        guard (1...DocumentShape.maxBytes).contains(bytes ?? Self.defaultBytes) else {
            throw ValidationError("--bytes must be from 1 to \(DocumentShape.maxBytes) (256 MiB)")
        }
    }

    func run() throws {
        if let shape {
            let document = shape.generate(
                bytes: bytes ?? Self.defaultBytes,
                seed: seed == FeedGenerator.defaultSeed ? DocumentShape.defaultSeed : seed)
            try write(document, what: "\(shape.rawValue) document")
            return
        }
        let (songs, format) = (songs ?? Self.defaultSongs, format ?? .rss)
        let feed = FeedGenerator(songs: songs, seed: seed, format: format).generate()
        try write(feed.bytes, what: "\(songs) songs (\(format.rawValue))")
    }

    private func write(_ bytes: [UInt8], what: String) throws {
        // `-` is standard output, as for most tools (it wrote a file named "-").
        guard let output, output != "-" else {
            FileHandle.standardOutput.write(Data(bytes))
            return
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CommandFailure(description: "\(output) is a directory: --output takes the file to write")
        }
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: output))
        } catch {
            throw CommandFailure(description: "cannot write \(output): \(RunFiles.reason(error, writing: output))")
        }
        print(
            Format.wrap(
                "Wrote \(output): \(what), \(bytes.count) bytes, sha256 \(SongDigest.sha256(bytes: bytes))",
                width: Terminal(quiet: true).width))
    }
}

extension DocumentShape: ExpressibleByArgument {}
extension FeedGenerator.Format: ExpressibleByArgument {}
