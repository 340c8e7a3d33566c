import BenchTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a document cannot make the suite do: take unbounded memory, pass as confirmed when no
/// other parser confirms it, or run workers of another build than the one running.
@Suite("bench on hostile input: memory limit, time limit, unverified answers, the running build")
struct SafetyCommandTests {
    /// A 400 KB feed whose first title is a 100 KB internal entity referenced 100,000 times (10 GB
    /// once expanded): libxml2's tree grows without end while it reads the title.
    static func quadraticFeed(references: Int = 100_000) -> String {
        let entity = String(repeating: "x", count: 100_000)
        let title = String(repeating: "&e;", count: references)
        return Samples.feed(
            [Samples.item(title: title), Samples.item(title: "two")],
            prolog: "<!DOCTYPE rss [<!ENTITY e \"\(entity)\">]>\n")
    }

    @Test func aParserPastTheMemoryLimitIsOutOfMemoryNotCrashed() throws {
        let directory = try TemporaryDirectory()
        let feed = try directory.write("quadratic.xml", Self.quadraticFeed())
        let result = try runBench([
            "verify", feed, "--parsers", "libxml2-dom", "--chunk-sizes", "whole", "--memory-limit", "256MiB",
            "--timeout", "120",
        ])
        #expect(result.status == 1)
        let line = rows(result.standardOutput).first { $0.hasPrefix("libxml2-dom ") }
        #expect(
            line?.hasSuffix("OUT OF MEMORY: worker killed after exceeding the 256 MiB memory limit") == true,
            "\(line ?? "missing")\n\(result.standardOutput)")
    }

    @Test func aParserPastTheTimeLimitTimedOutNotCrashed() throws {
        let directory = try TemporaryDirectory()
        let feed = try directory.write("quadratic.xml", Self.quadraticFeed())
        let result = try runBench([
            "verify", feed, "--parsers", "foundation", "--chunk-sizes", "whole", "--timeout", "1",
        ])
        #expect(result.status == 1)
        let line = rows(result.standardOutput).first { $0.hasPrefix("foundation ") }
        #expect(line?.contains("TIMED OUT: worker killed after exceeding the 1 s time limit") == true, "\(line ?? "")")
        #expect(!result.standardOutput.contains("CRASHED"))
    }

    @Test func theMemoryLimitOptionSaysWhatItTakes() throws {
        let result = try runBench(["verify", "--memory-limit", "lots", "Data/top300.rss.xml"])
        #expect(result.status != 0)
        #expect(words(result.standardError).contains("--memory-limit takes a size of at least 64MiB"))
    }

    /// A parser that nobody confirms is not timed and the run does not pass.
    @Test func anUnconfirmedParserIsNotTimed() throws {
        let directory = try TemporaryDirectory()
        var bytes = Array(Samples.feed([Samples.item(title: "one"), Samples.item(title: "BAD")]).utf8)
        let marker = Array("BAD".utf8)
        if let start = bytes.indices.first(where: { bytes[$0...].starts(with: marker) }) { bytes[start] = 0xFF }
        let feed = try directory.write("bad.xml", bytes)
        let result = try runBench([
            "run", "--feed", feed, "--parsers", "swxmlhash", "--scenario", "parse", "--rounds", "1",
            "--iterations", "1", "--warmup", "0", "--no-allocation-counts", "--no-store", "--quiet",
            "--output-dir", directory.path("results"),
        ])
        // No parser may be timed on it: the run stops after the check (issue 43), saying why.
        #expect(result.status == 5, "\(result.standardError)")
        let line = entries(result.standardError).first { $0.hasPrefix("Unusable input: \(feed): ") }
        #expect(line?.contains("only swxmlhash read it") == true, "\(result.standardError)")
        #expect(line?.contains("UNVERIFIED") == true, "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("results/latest-summary.csv")))
    }

    #if os(Linux)
        /// A rebuild that replaces the worker executable during a run: the workers still run the
        /// build that started the run (before: "cannot start …/bench (deleted)", or the new build's workers).
        @Test func workersRunTheBuildThatStartedTheRun() throws {
            let directory = try TemporaryDirectory()
            let copy = directory.path("bench")
            try Self.copyExecutable(TestPaths.benchExecutable, to: copy)
            let worker = directory.path("bench-worker")
            try Self.copyExecutable(TestPaths.workerExecutable, to: worker)
            // The libraries SwiftPM builds beside it (the frozen clock is linked).
            let built = (TestPaths.benchExecutable as NSString).deletingLastPathComponent
            for name in try FileManager.default.contentsOfDirectory(atPath: built) where name.hasSuffix(".so") {
                try FileManager.default.copyItem(
                    atPath: (built as NSString).appendingPathComponent(name), toPath: directory.path(name))
            }
            let store = directory.path("stats.sqlite")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: copy)
            process.arguments = [
                "run", "--parsers", "libxml2,expat", "--scenario", "parse", "--rounds", "3", "--iterations", "1",
                "--warmup", "0", "--no-allocation-counts", "--quiet", "--store", store, "--output-dir",
                directory.path("results"),
            ]
            process.currentDirectoryURL = TestPaths.packageRoot
            // The build that runs is the point, not the figures: a busy machine must not fail the run.
            process.environment = ProcessInfo.processInfo.environment.merging(AnyMachine.environment) { $1 }
            process.standardOutput = FileHandle.nullDevice
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            // The store exists once the run has begun (after the agreement check's workers, before
            // the timed ones): then a "rebuild" renames another program over the path.
            let begun = Date()
            while !FileManager.default.fileExists(atPath: store) && process.isRunning
                && Date().timeIntervalSince(begun) < 120
            {
                usleep(10_000)
            }
            let marker = directory.path("replacement-ran")
            let replacement = try directory.write("new-build", "#!/bin/sh\ntouch '\(marker)'\nexit 3\n")
            chmod(replacement, 0o755)
            #expect(rename(replacement, worker) == 0)
            let stderr = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(String(decoding: stderr, as: UTF8.self))")
            #expect(!FileManager.default.fileExists(atPath: marker), "a worker ran the new file")
            let summary = try String(contentsOfFile: directory.path("results/latest-summary.csv"), encoding: .utf8)
            #expect(!summary.contains("could not start"))
        }

        /// Copies the program at `source` to a new file `destination`, through a descriptor closed on exec.
        ///
        /// `FileManager.copyItem` leaves its descriptor open to the processes that
        /// other tests start meanwhile, which then hold the copy open for writing until they end,
        /// and starting the copy fails ("Text file busy", seen once in a full `swift test`).
        static func copyExecutable(_ source: String, to destination: String) throws {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
            let descriptor = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
            guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            defer { close(descriptor) }
            try bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                    if written < 0 && errno == EINTR { continue }
                    guard written > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                    offset += written
                }
            }
        }
    #endif
}
