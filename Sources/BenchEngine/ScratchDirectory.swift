import BenchWorker
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A directory of this process's own under the temporary directory, removed on every way out: at
/// the end (``remove()``), on SIGINT and SIGTERM (`WorkerProcess/removeOnInterrupt(_:)`), and,
/// after a crash or a SIGKILL that left it, by the next command that makes one of the same prefix.
///
/// Its name holds the process id of its owner ("bench-hostile-4242-…"): making one first removes
/// those of the same prefix whose owner is no longer running (and that this user owns: the
/// temporary directory is shared), and says which (``cleared``). A process id taken again by
/// another process keeps its leftover until that one has ended too.
///
/// ```swift
/// let scratch = try ScratchDirectory(prefix: "bench-hostile")
/// defer { scratch.remove() }
/// for leftover in scratch.cleared { print(leftover) }
/// ```
package struct ScratchDirectory: Sendable {
    /// A directory a process that is no longer running left behind, removed.
    package struct Leftover: Sendable, Equatable, CustomStringConvertible {
        package var path: String
        /// The process that made it.
        package var owner: pid_t
        /// The files it held.
        package var files: Int

        /// What was removed, and why it could be.
        ///
        /// "Removed /tmp/bench-hostile-4242-… (4109 files), left by process 4242, which ended without
        /// removing it (a crash, or a SIGKILL)."
        package var description: String {
            "Removed \(path) (\(files) file\(files == 1 ? "" : "s")), left by process \(owner), which ended "
                + "without removing it (a crash, or a SIGKILL)."
        }
    }

    /// The directory's path.
    package let path: String
    /// The leftovers of processes no longer running that were removed before it was made.
    package let cleared: [Leftover]

    /// Removes the leftovers of `prefix` in `parent` (see ``ScratchDirectory``), then makes
    /// "`prefix`-`pid`-`UUID`" there and has it removed if the process is interrupted.
    ///
    /// - Throws: a file system error when the directory cannot be made.
    package init(prefix: String, in parent: String = NSTemporaryDirectory()) throws {
        cleared = Self.clearLeftovers(prefix: prefix, in: parent)
        path = (parent as NSString).appendingPathComponent("\(prefix)-\(getpid())-\(UUID().uuidString)")
        WorkerProcess.removeOnInterrupt(path)
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            WorkerProcess.forgetOnInterrupt(path)
            throw error
        }
    }

    /// Removes the directory and all it holds.
    package func remove() {
        try? FileManager.default.removeItem(atPath: path)
        WorkerProcess.forgetOnInterrupt(path)
    }

    /// Removes the directories "`prefix`-PID-…" in `parent` that this user owns and whose process is
    /// no longer running; what was removed.
    static func clearLeftovers(prefix: String, in parent: String) -> [Leftover] {
        let files = FileManager.default
        guard let names = try? files.contentsOfDirectory(atPath: parent) else { return [] }
        var cleared: [Leftover] = []
        for name in names.sorted() where name.hasPrefix(prefix + "-") {
            let rest = name.dropFirst(prefix.count + 1)
            guard let dash = rest.firstIndex(of: "-"), let owner = pid_t(rest[..<dash]), owner > 0,
                owner != getpid(), !isRunning(owner)
            else { continue }
            let path = (parent as NSString).appendingPathComponent(name)
            // A directory of this user's, not a link: another user's name in a shared directory is
            // theirs to remove.
            var status = stat()
            guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR, status.st_uid == getuid() else {
                continue
            }
            let count = files.enumerator(atPath: path)?.allObjects.count ?? 0
            guard (try? files.removeItem(atPath: path)) != nil else { continue }
            cleared.append(Leftover(path: path, owner: owner, files: count))
        }
        return cleared
    }

    /// Whether a process of this id exists (one of another user's counts: it may not be signalled).
    static func isRunning(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
