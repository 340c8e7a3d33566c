import Foundation

/// Why a path named as a feed or a document cannot be read as one.
///
/// Only a regular file (or a link to one) can: a directory has no bytes of its own, a FIFO's open
/// waits for a writer, and a device or a socket has no size to read. Shared by the feed server and
/// the engine's `FeedFile`.
package enum FilePathProblem: String, Sendable {
    case missing = "no such file"
    case directory = "a directory, not a file"
    case notRegular = "not a regular file (a FIFO, a device or a socket?)"

    /// What is wrong with `path`; `nil` for a regular file (whose read can still fail: permissions).
    package init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            self = .missing
            return
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: self = .directory
        default: self = .notRegular
        }
    }
}
