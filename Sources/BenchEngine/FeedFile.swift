import Foundation
import SongFeed

/// A feed document read from disk, with the identity the reports and the store record.
public struct FeedFile: Sendable {
    /// The path as given.
    public var path: String
    /// The document's bytes.
    public var bytes: [UInt8]
    /// The lowercase hexadecimal SHA-256 of ``bytes``.
    public var sha256: String

    /// Reads a feed.
    ///
    /// - Throws: ``FeedFileError`` naming the path when it is missing, a directory or unreadable.
    public init(path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FeedFileError(description: "no such file: \(path)")
        }
        guard !isDirectory.boolValue else {
            throw FeedFileError(description: "a directory, not a file: \(path)")
        }
        // A FIFO would block the open until something writes to it, and a device or a socket has
        // no size to read: only a regular file (or a link to one) is a document.
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw FeedFileError(description: "not a regular file (a FIFO, a device or a socket?): \(path)")
        }
        guard let bytes = Self.read(path) else {
            throw FeedFileError(description: "cannot read \(path)")
        }
        self.path = path
        self.bytes = bytes
        self.sha256 = SongDigest.sha256(bytes: bytes)
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
    public static func feeds(inDirectory directory: String) throws -> [String] {
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
