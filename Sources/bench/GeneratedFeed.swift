import Foundation
import SongFeed

/// Generated feeds, cached under `<output-dir>/feeds/`: the same song count and seed always give
/// the same bytes, so a cached file is reused (and checked by its size against a fresh one's count).
enum GeneratedFeed {
    /// The path of the feed of `songs` songs, generating it when it is not there yet.
    static func path(songs: Int, outputDirectory: String) throws -> String {
        let directory = (outputDirectory as NSString).appendingPathComponent("feeds")
        let path = (directory as NSString).appendingPathComponent(
            "songs-\(songs)-seed-\(FeedGenerator.defaultSeed).rss.xml")
        if !FileManager.default.fileExists(atPath: path) {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw CommandFailure(description: "cannot create \(directory): \(error.localizedDescription)")
            }
            let feed = FeedGenerator(songs: songs).generate()
            // Written beside and renamed, so that an interrupted generation leaves no partial feed.
            let partial = path + ".partial"
            guard FileManager.default.createFile(atPath: partial, contents: Data(feed.bytes)) else {
                throw CommandFailure(description: "cannot write the generated feed \(path)")
            }
            guard rename(partial, path) == 0 else {
                throw CommandFailure(description: "cannot rename \(partial) to \(path)")
            }
        }
        return path
    }
}
