import ArgumentParser
import BenchEngine
import BenchReports
import Foundation

/// `bench generate`: write a synthetic feed.
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Write a synthetic iTunes Store feed, RSS or Atom (or, with --shape, a document of a known shape), the same bytes for the same settings.",
        discussion:
            "Data/top300.rss.xml is `bench generate --songs 300 --seed \(FeedGenerator.defaultSeed) --output Data/top300.rss.xml`."
    )

    @Option(help: "The number of songs (items).")
    var songs: Int = 300

    @Option(help: "The seed of the pseudo-random choices.")
    var seed: UInt64 = FeedGenerator.defaultSeed

    @Option(help: "The feed's form: rss (the 2012 feeds) or atom (Apple's later feeds); the same songs either way.")
    var format: FeedGenerator.Format = .rss

    @Option(help: "The file to write (default: standard output).")
    var output: String?

    @Option(
        help: ArgumentHelp(
            "Write a document of this shape instead of a feed (for --workload document).",
            discussion: DocumentShape.allCases.map { "\($0.rawValue): \($0.summary)" }.joined(separator: "; ")))
    var shape: DocumentShape?

    @Option(help: "With --shape: the document's size in bytes, about.")
    var bytes: Int = 1_000_000

    func validate() throws {
        guard songs >= 0 else { throw ValidationError("--songs must be 0 or more") }
        guard bytes >= 1 else { throw ValidationError("--bytes must be at least 1") }
    }

    func run() throws {
        if let shape {
            let document = shape.generate(
                bytes: bytes, seed: seed == FeedGenerator.defaultSeed ? DocumentShape.defaultSeed : seed)
            try write(document, what: "\(shape.rawValue) document")
            return
        }
        let feed = FeedGenerator(songs: songs, seed: seed, format: format).generate()
        try write(feed.bytes, what: "\(songs) songs (\(format.rawValue))")
    }

    private func write(_ bytes: [UInt8], what: String) throws {
        guard let output else {
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
            throw CommandFailure(description: "cannot write \(output): \(error.localizedDescription)")
        }
        print(
            Format.wrap(
                "Wrote \(output): \(what), \(bytes.count) bytes, sha256 \(SongDigest.sha256(bytes: bytes))",
                width: Terminal(quiet: true).width))
    }
}

extension DocumentShape: ExpressibleByArgument {}
extension FeedGenerator.Format: ExpressibleByArgument {}
