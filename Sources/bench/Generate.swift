import ArgumentParser
import Foundation
import SongFeed

/// `bench generate`: write a synthetic feed.
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a synthetic iTunes Store RSS feed, the same bytes for the same song count and seed.",
        discussion:
            "Data/top300.rss.xml is `bench generate --songs 300 --seed \(FeedGenerator.defaultSeed) --output Data/top300.rss.xml`."
    )

    @Option(help: "The number of songs (items).")
    var songs: Int = 300

    @Option(help: "The seed of the pseudo-random choices.")
    var seed: UInt64 = FeedGenerator.defaultSeed

    @Option(help: "The file to write (default: standard output).")
    var output: String?

    func validate() throws {
        guard songs >= 0 else { throw ValidationError("--songs must be 0 or more") }
    }

    func run() throws {
        let feed = FeedGenerator(songs: songs, seed: seed).generate()
        if let output {
            do {
                try Data(feed.bytes).write(to: URL(fileURLWithPath: output))
            } catch {
                throw CommandFailure(description: "cannot write \(output): \(error.localizedDescription)")
            }
            let sha = SongDigest.sha256(bytes: feed.bytes)
            print("Wrote \(output): \(songs) songs, \(feed.bytes.count) bytes, sha256 \(sha)")
        } else {
            FileHandle.standardOutput.write(Data(feed.bytes))
        }
    }
}
