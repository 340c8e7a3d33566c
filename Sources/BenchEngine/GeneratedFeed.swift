import Foundation
import SongFeed

/// Generated feeds and shaped documents, cached under `<output-dir>/feeds/`: the same song count
/// (or shape and size) and seed always give the same bytes, so a cached file is reused.
package enum GeneratedFeed {
    /// The path of the feed of `songs` songs, generating it when it is not there yet.
    ///
    /// - Throws: ``FeedResolutionError`` when it cannot be written.
    package static func path(songs: Int, outputDirectory: String) throws -> String {
        try cached(
            "songs-\(songs)-seed-\(FeedGenerator.defaultSeed).rss.xml", in: outputDirectory,
            FeedGenerator(songs: songs).generate().bytes)
    }

    /// The path of the `shape` document of about `bytes` bytes, generating it when it is not there yet.
    ///
    /// - Throws: ``FeedResolutionError`` when it cannot be written.
    package static func path(shape: DocumentShape, bytes: Int, outputDirectory: String) throws -> String {
        try cached(
            "\(shape.rawValue)-\(bytes)-seed-\(DocumentShape.defaultSeed).xml", in: outputDirectory,
            shape.generate(bytes: bytes))
    }

    /// `<output-dir>/feeds/<name>`, written from `generate()` when it is not there yet.
    private static func cached(
        _ name: String, in outputDirectory: String, _ generate: @autoclosure () -> [UInt8]
    ) throws -> String {
        let directory = (outputDirectory as NSString).appendingPathComponent("feeds")
        let path = (directory as NSString).appendingPathComponent(name)
        if !FileManager.default.fileExists(atPath: path) {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw FeedResolutionError.cannotCreate(directory, error.localizedDescription)
            }
            // Written beside and renamed, so that an interrupted generation leaves no partial file.
            let partial = path + ".partial"
            guard FileManager.default.createFile(atPath: partial, contents: Data(generate())) else {
                throw FeedResolutionError.cannotWriteGenerated(path)
            }
            guard rename(partial, path) == 0 else { throw FeedResolutionError.cannotRename(partial, path) }
        }
        return path
    }
}
