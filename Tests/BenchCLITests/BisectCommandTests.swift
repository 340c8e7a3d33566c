import BenchTestSupport
import Foundation
import Testing

/// `bench bisect` as a user runs it, on a synthetic history built by a stand-in `swift` (first on
/// the child's `PATH`): the exit status of the contract, its refusals, and what Ctrl-C leaves.
@Suite("bench bisect: the command")
struct BisectCommandTests {
    static let hasValgrind = FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind")

    static func environment(_ swift: String) -> [String: String] {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return ["PATH": (swift as NSString).deletingLastPathComponent + ":" + path]
    }

    @Test(.enabled(if: hasValgrind, "bench bisect refuses to start without valgrind"))
    func aStepIsFoundAndNothingMovedExitsFour() throws {
        let directory = try TemporaryDirectory()
        let swift = try SyntheticHistory.installFakeSwift(in: directory)
        let root = try SyntheticHistory.repository(SyntheticHistory.counts([(6, 3)], commits: 9), in: directory)
        let found = try runBench(
            ["bisect", "--good", "HEAD~8", "--bad", "HEAD", "--feed", "feed.xml"], in: URL(fileURLWithPath: root),
            environment: Self.environment(swift))
        #expect(found.status == 0, "\(found.standardError)")
        #expect(found.standardOutput.contains("Found 1 commit:"))
        #expect(found.standardOutput.contains("commit 6"))
        #expect(found.standardError.contains("building"))
        let json = try runBench(
            ["bisect", "--good", "HEAD~4", "--bad", "HEAD", "--feed", "feed.xml", "--format", "json"],
            in: URL(fileURLWithPath: root), environment: Self.environment(swift))
        #expect(json.status == 0)
        let decoded = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        #expect((decoded?["steps"] as? [Any])?.count == 1)
        let elsewhere = try TemporaryDirectory()
        let flat = try SyntheticHistory.repository(SyntheticHistory.counts([], commits: 4), in: elsewhere)
        let nothing = try runBench(
            ["bisect", "--good", "HEAD~3", "--bad", "HEAD", "--feed", "feed.xml"], in: URL(fileURLWithPath: flat),
            environment: Self.environment(swift))
        #expect(nothing.status == 4)
        #expect(nothing.standardOutput.contains("Nothing moved"))
    }

    @Test(.enabled(if: hasValgrind, "bench bisect refuses to start without valgrind"))
    func badInputIsAClearError() throws {
        let directory = try TemporaryDirectory()
        let swift = try SyntheticHistory.installFakeSwift(in: directory)
        let root = try SyntheticHistory.repository(SyntheticHistory.counts([(2, 3)], commits: 4), in: directory)
        let url = URL(fileURLWithPath: root)
        let cases: [([String], String)] = [
            (["--good", "nosuch", "--bad", "HEAD"], "unknown revision nosuch"),
            (["--good", "HEAD", "--bad", "HEAD~2"], "is not an ancestor"),
            (["--good", "HEAD~2", "--bad", "HEAD", "--threshold", "0"], "--threshold"),
            (["--good", "HEAD~2", "--bad", "HEAD", "--feed", "missing.xml"], "no feed at"),
        ]
        for (arguments, message) in cases {
            let result = try runBench(
                ["bisect"] + arguments + (arguments.contains("--feed") ? [] : ["--feed", "feed.xml"]), in: url,
                environment: Self.environment(swift))
            #expect(result.status != 0 && result.status != 4, "\(arguments)")
            #expect(result.standardError.contains(message), "\(arguments): \(result.standardError)")
        }
        try "dirty\n".write(toFile: root + "/counts", atomically: true, encoding: .utf8)
        let dirty = try runBench(
            ["bisect", "--good", "HEAD~2", "--bad", "HEAD", "--feed", "feed.xml"], in: url,
            environment: Self.environment(swift))
        #expect(dirty.status == 1)
        #expect(dirty.standardError.contains("uncommitted changes"))
        let outside = try runBench(
            ["bisect", "--good", "HEAD~2", "--bad", "HEAD"], in: directory.url, environment: Self.environment(swift))
        #expect(outside.status == 1)
        #expect(outside.standardError.contains("not in a git repository"))
    }

    /// Ctrl-C during a build: the worktree is removed, HEAD, the branches and the index are as they
    /// were, and what was probed is said.
    @Test(.enabled(if: hasValgrind, "bench bisect refuses to start without valgrind"))
    func anInterruptedBisectLeavesTheRepositoryAsItWas() throws {
        let directory = try TemporaryDirectory()
        let swift = try SyntheticHistory.installFakeSwift(in: directory, slow: true)
        let root = try SyntheticHistory.repository(SyntheticHistory.counts([(6, 3)], commits: 9), in: directory)
        func git(_ arguments: String...) throws -> String {
            try runProgram("/usr/bin/git", ["-C", root] + arguments).standardOutput
        }
        let before =
            try git("rev-parse", "HEAD") + git("for-each-ref") + git("status", "--porcelain", "--untracked-files=no")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.benchExecutable)
        process.arguments = ["bisect", "--good", "HEAD~8", "--bad", "HEAD", "--feed", "feed.xml"]
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        process.environment = ProcessInfo.processInfo.environment.merging(Self.environment(swift)) { $1 }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        // The progress on standard error, read as it comes: the interruption lands in the second
        // probe's build, whatever the machine's load (a fixed sleep was before the first probe's end
        // on a busy machine).
        let progress = ProgressLines()
        error.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            // Empty at the end of the file, where the handler would be called again and again.
            if data.isEmpty { handle.readabilityHandler = nil } else { progress.append(data) }
        }
        try process.run()
        let deadline = Date().addingTimeInterval(600)
        while progress.count(of: " building (") < 2, process.isRunning, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(progress.count(of: " building (") >= 2, "\(progress.text)")
        process.interrupt()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        error.fileHandleForReading.readabilityHandler = nil
        #expect(process.terminationStatus == 130)
        #expect(said.contains("Interrupted by SIGINT"), "\(said)")
        #expect(said.contains("Probes, in the order made"))
        let after =
            try git("rev-parse", "HEAD") + git("for-each-ref") + git("status", "--porcelain", "--untracked-files=no")
        #expect(after == before)
        #expect(try git("worktree", "list").split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: root + "/.build-bisect/worktree"))
    }
}

/// Lines a child process writes, gathered from a pipe's handler thread and read by the test's.
private final class ProgressLines: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []

    func append(_ data: Data) {
        lock.lock()
        bytes += data
        lock.unlock()
    }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: bytes, as: UTF8.self)
    }

    func count(of marker: String) -> Int { text.components(separatedBy: marker).count - 1 }
}
