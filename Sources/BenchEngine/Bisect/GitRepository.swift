import BenchWorker
import Foundation

/// The git commands `bench bisect` uses, on one repository: each run to its end, its output read.
///
/// Nothing here changes the repository's own checkout, HEAD, branches or index: probed commits are
/// checked out in a worktree of their own (``addWorktree(at:commit:)``), which is removed at the end.
package struct GitRepository: Sendable {
    /// The repository's top directory.
    package var root: String

    /// A git command that failed, or a repository that is not one.
    package struct Failure: Error, CustomStringConvertible, Sendable {
        package var description: String
    }

    /// One commit: its hash and subject.
    package struct Commit: Sendable, Equatable, Codable {
        package var hash: String
        package var subject: String
        package var short: String { String(hash.prefix(10)) }
    }

    /// The repository that holds `directory`.
    ///
    /// - Throws: ``Failure`` when git is missing or `directory` is in no repository.
    package init(containing directory: String) throws {
        guard InstructionCounter.findExecutable("git") != nil else {
            throw Failure(description: "bench bisect needs git, which is not installed")
        }
        let top = try Self.git(["-C", directory, "rev-parse", "--show-toplevel"], in: directory)
        guard top.status == 0 else {
            throw Failure(description: "\(directory) is not in a git repository: bench bisect runs inside one")
        }
        root = top.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The commit `revision` names.
    ///
    /// - Throws: ``Failure`` naming the revision when there is no such commit.
    package func commit(_ revision: String) throws -> Commit {
        let resolved = try run(["rev-parse", "--verify", "--quiet", "\(revision)^{commit}"], allowFailure: true)
        let hash = resolved.output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard resolved.status == 0, !hash.isEmpty else {
            throw Failure(description: "unknown revision \(revision): no such commit in \(root)")
        }
        return Commit(hash: hash, subject: try subject(of: hash))
    }

    /// The subject line of `hash`.
    package func subject(of hash: String) throws -> String {
        try run(["log", "-1", "--format=%s", hash]).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether `ancestor` is an ancestor of `descendant` (or the same commit).
    package func isAncestor(_ ancestor: String, of descendant: String) throws -> Bool {
        try run(["merge-base", "--is-ancestor", ancestor, descendant], allowFailure: true).status == 0
    }

    /// The commits after `good` up to `bad`, oldest first, along the ancestry path (`bad` last).
    package func commits(after good: String, through bad: String) throws -> [Commit] {
        let listed = try run(["log", "--reverse", "--ancestry-path", "--format=%H%x09%s", "\(good)..\(bad)"]).output
        return listed.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            guard let hash = fields.first, hash.count >= 40 else { return nil }
            return Commit(hash: String(hash), subject: fields.count > 1 ? String(fields[1]) : "")
        }
    }

    /// What is changed in the repository's checkout and not committed (tracked files only), as
    /// `git status --short` says it; empty when nothing is.
    package func uncommittedChanges() throws -> String {
        try run(["status", "--porcelain", "--untracked-files=no"]).output
    }

    /// The state a bisect must leave as it found it: HEAD, the branches, the index.
    package func state() throws -> String {
        let head = try run(["rev-parse", "HEAD"]).output
        let branches = try run(["for-each-ref", "--format=%(refname) %(objectname)", "refs/heads"]).output
        let index = try run(["diff", "--cached", "--name-only"]).output
        return head + branches + index
    }

    /// A worktree of `commit` at `path` (detached), replacing one a bisect left there before.
    package func addWorktree(at path: String, commit: String) throws {
        if FileManager.default.fileExists(atPath: path) { removeWorktree(at: path) }
        _ = try run(["worktree", "add", "--quiet", "--detach", "--force", path, commit])
    }

    /// Checks `commit` out in the worktree at `path`, whatever a build left in it.
    package func checkout(worktree path: String, commit: String) throws {
        _ = try Self.checked(Self.git(["-C", path, "checkout", "--quiet", "--detach", "--force", commit], in: path))
        _ = try? Self.git(["-C", path, "clean", "-fdq"], in: path)
    }

    /// Removes the worktree at `path` and its record in the repository.
    package func removeWorktree(at path: String) {
        _ = try? run(["worktree", "remove", "--force", path], allowFailure: true)
        try? FileManager.default.removeItem(atPath: path)
        _ = try? run(["worktree", "prune"], allowFailure: true)
    }

    @discardableResult
    package func run(_ arguments: [String], allowFailure: Bool = false) throws -> (status: Int32, output: String) {
        let result = try Self.git(["-C", root] + arguments, in: root)
        return allowFailure ? (result.status, result.output) : try Self.checked(result)
    }

    private static func checked(_ result: (status: Int32, output: String, error: String, command: String)) throws -> (
        status: Int32, output: String
    ) {
        guard result.status == 0 else {
            throw Failure(
                description: "\(result.command) failed: \(result.error.trimmingCharacters(in: .whitespacesAndNewlines))"
            )
        }
        return (result.status, result.output)
    }

    private static func git(_ arguments: [String], in directory: String) throws -> (
        status: Int32, output: String, error: String, command: String
    ) {
        // Quick, and the cleanup after an interruption needs them: never stopped.
        let result = try ChildProcess.run(
            InstructionCounter.findExecutable("git") ?? "/usr/bin/git", arguments, in: directory,
            stopsOnInterrupt: false)
        return (result.status, result.output, result.error, "git " + arguments.dropFirst(2).joined(separator: " "))
    }
}

/// A program run to its end with its output collected; stopped (SIGINT, then SIGKILL) when this
/// process is interrupted (`WorkerProcess/interruption`).
package enum ChildProcess {
    package struct Result: Sendable {
        package var status: Int32
        package var output: String
        package var error: String
        /// Whether it was stopped because this process was interrupted.
        package var interrupted: Bool
    }

    /// Runs `executable` to its end.
    ///
    /// `errorLine` gets each line of its standard error as it comes (progress); `stopsOnInterrupt`:
    /// stopped when this process is interrupted (a build, a count), or left to end.
    package static func run(
        _ executable: String, _ arguments: [String], in directory: String, environment: [String: String]? = nil,
        input: Data? = nil, stopsOnInterrupt: Bool = true, errorLine: (@Sendable (String) -> Void)? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        if let environment { process.environment = environment }
        let output = Pipe()
        let error = Pipe()
        let feed = input.map { _ in Pipe() }
        process.standardOutput = output
        process.standardError = error
        process.standardInput = feed ?? FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw GitRepository.Failure(description: "cannot run \(executable): \(error.localizedDescription)")
        }
        if let feed, let input {
            // Written on a thread of its own: a tool that writes as it reads would otherwise stop
            // on a full output pipe while this thread still writes.
            Thread {
                feed.fileHandleForWriting.write(input)
                try? feed.fileHandleForWriting.close()
            }.start()
        }
        let outputReader = PipeDrain(output.fileHandleForReading)
        let errorReader = PipeDrain(error.fileHandleForReading, line: errorLine)
        var interrupted = false
        while stopsOnInterrupt && process.isRunning {
            if WorkerProcess.interruption != nil && !interrupted {
                interrupted = true
                process.interrupt()
                DispatchQueue.global().asyncAfter(deadline: .now() + 10) { [process] in
                    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                }
            }
            usleep(20_000)
        }
        process.waitUntilExit()
        let out = outputReader.wait()
        let err = errorReader.wait()
        return Result(
            status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
            error: String(decoding: err, as: UTF8.self), interrupted: interrupted)
    }
}
