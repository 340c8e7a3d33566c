import BenchResults
import Foundation
import SongFeed

/// A feed document read from disk, with the identity the reports and the store record.
package struct FeedFile: Sendable {
    /// The path as given.
    package var path: String
    /// The document's bytes.
    package var bytes: [UInt8]
    /// The lowercase hexadecimal SHA-256 of ``bytes``.
    package var sha256: String

    /// Reads a feed and its digest (the driver's: what the reports and the store name it by).
    ///
    /// - Throws: ``FeedFileError`` naming the path when it is missing, not a regular file (a
    ///   directory, a FIFO, a device) or unreadable.
    package init(path: String) throws {
        let bytes = try Self.bytes(at: path)
        self.path = path
        self.bytes = bytes
        self.sha256 = SongDigest.sha256(bytes: bytes)
    }

    /// A feed's bytes alone, as a worker reads them: a worker never names the feed, so it does not
    /// hash it (a SHA-256 of the whole feed, in every worker, thrown away).
    ///
    /// - Throws: ``FeedFileError`` naming the path when it is missing, not a regular file (a
    ///   directory, a FIFO, a device) or unreadable.
    package static func bytes(at path: String) throws -> [UInt8] {
        if let problem = FilePathProblem(path: path) {
            throw FeedFileError(description: "\(problem.rawValue): \(path)")
        }
        guard let bytes = read(path) else {
            throw FeedFileError(description: "cannot read \(path)")
        }
        return bytes
    }

    /// The file's bytes, read straight into the array (one copy of the feed in memory, not two:
    /// a worker holding a 300 MB feed should not peak at 600 MB).
    private static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        let size = Int(status.st_size)
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            while count < size {
                let got = Foundation.read(descriptor, buffer.baseAddress.map { $0 + count }, size - count)
                if got <= 0 {
                    failed = got < 0
                    break
                }
                count += got
            }
        }
        return failed ? nil : bytes
    }

    /// The feeds of a directory: its `*.xml` files, sorted by name.
    ///
    /// - Throws: ``FeedFileError`` when the directory cannot be listed or holds no feed.
    package static func feeds(inDirectory directory: String) throws -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            throw FeedFileError(description: "cannot list the feed directory \(directory)")
        }
        let feeds = names.filter { $0.hasSuffix(".xml") }.sorted().map {
            (directory as NSString).appendingPathComponent($0)
        }
        guard !feeds.isEmpty else { throw FeedFileError(description: "no *.xml feed in \(directory)") }
        return feeds
    }
}
