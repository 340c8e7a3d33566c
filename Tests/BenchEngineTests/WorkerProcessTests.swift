@testable import BenchEngine
@testable import BenchWorker
import BenchTestSupport
import Foundation
import Testing

@Suite("WorkerProcess: spawn, report, crash, time limit, peak memory")
struct WorkerProcessTests {
    @Test func resultArrivesOnDescriptor3() throws {
        let outcome = try WorkerProcess.run(
            executable: "/bin/sh", arguments: ["-c", "printf 'result' >&3; echo noise"])
        #expect(outcome.termination == .exited(0))
        #expect(outcome.result == Array("result".utf8))
        #expect(outcome.peakResidentBytes > 0)
    }

    @Test func standardErrorAndExitStatusAreKept() throws {
        let outcome = try WorkerProcess.run(executable: "/bin/sh", arguments: ["-c", "echo 'it broke' >&2; exit 3"])
        #expect(outcome.termination == .exited(3))
        #expect(words(outcome.standardError).contains("it broke"))
    }

    @Test func aCrashIsReportedWithItsSignal() throws {
        let outcome = try WorkerProcess.run(executable: "/bin/sh", arguments: ["-c", "kill -SEGV $$"])
        #expect(outcome.termination == .signaled(SIGSEGV))
        #expect(outcome.termination.description == "crashed with signal \(SIGSEGV) (SIGSEGV)")
    }

    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: "/proc/self/fd") && WorkerProcessTests.glibcHasCloseFrom,
            "needs /proc to list a worker's descriptors, and glibc 2.34 or later (its closefrom spawn action)"))
    func aWorkerHoldsItsOwnDescriptorsOnly() throws {
        // This glibc has the action: the spawn must have found it (a skip would hide a lookup gone wrong).
        try #require(
            WorkerProcess.closesOtherDescriptors, "glibc 2.34 or later has posix_spawn_file_actions_addclosefrom_np")
        // Open without close-on-exec, as a library, or a test beside this one, may leave one; at
        // 100 or above, clear of the worker's own whatever else is open.
        let devNull = open("/dev/null", O_RDONLY)
        try #require(devNull >= 0)
        let stray = fcntl(devNull, F_DUPFD, 100)
        close(devNull)
        try #require(stray >= 100)
        defer { close(stray) }
        // The shell's own descriptors, listed by a child of it onto the result pipe (the `:` keeps a
        // shell that runs its last command in its own process, bash, from listing ls's).
        let listing = ["-c", "exec 1>&3; ls /proc/$$/fd; :"]
        let plain = try WorkerProcess.run(executable: "/bin/sh", arguments: listing, timeout: 60)
        #expect(plain.termination == .exited(0))
        #expect(Self.descriptors(plain.result) == [0, 1, 2, 3])
        let withProgress = try WorkerProcess.run(
            executable: "/bin/sh", arguments: listing, timeout: 60, progress: { _ in })
        #expect(withProgress.termination == .exited(0))
        #expect(Self.descriptors(withProgress.result) == [0, 1, 2, 3, 4])
    }

    /// Whether the C library is glibc 2.34 or later, which has `posix_spawn_file_actions_addclosefrom_np`.
    static var glibcHasCloseFrom: Bool { glibcVersion().map { $0 >= (2, 34) } ?? false }

    /// The C library's version when it is glibc (`confstr(_CS_GNU_LIBC_VERSION)`: "glibc 2.36").
    static func glibcVersion() -> (Int, Int)? {
        #if canImport(Glibc)
            var buffer = [CChar](repeating: 0, count: 64)
            guard confstr(Int32(_CS_GNU_LIBC_VERSION), &buffer, buffer.count) > 0 else { return nil }
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let numbers = text.split(separator: " ").last?.split(separator: ".").compactMap { Int($0) } ?? []
            return numbers.count >= 2 ? (numbers[0], numbers[1]) : nil
        #else
            return nil
        #endif
    }

    /// The descriptor numbers of an `ls /proc/PID/fd` listing, in order.
    static func descriptors(_ listing: [UInt8]) -> [Int32] {
        String(decoding: listing, as: UTF8.self).split(separator: "\n").compactMap { Int32($0) }.sorted()
    }

    @Test func aWorkerPastItsTimeLimitIsKilled() throws {
        let started = Date()
        let outcome = try WorkerProcess.run(executable: "/bin/sleep", arguments: ["30"], timeout: 0.3)
        #expect(outcome.termination == .timedOut(seconds: 0.3))
        #expect(Date().timeIntervalSince(started) < 20, "the worker was not killed")
    }

    @Test func aWorkerThatClosesItsPipesButKeepsRunningIsKilledToo() throws {
        let outcome = try WorkerProcess.run(
            executable: "/bin/sh", arguments: ["-c", "exec 3>&- 2>&-; sleep 30"], timeout: 0.5)
        #expect(outcome.termination == .timedOut(seconds: 0.5))
    }

    @Test func largeResultsAreReadWhileTheWorkerWrites() throws {
        // 4 MB through the pipe: the parent must read while the child writes, or both block.
        let outcome = try WorkerProcess.run(
            executable: "/bin/sh", arguments: ["-c", "head -c 4000000 /dev/zero >&3; head -c 200000 /dev/zero >&2"],
            timeout: 60)
        #expect(outcome.termination == .exited(0))
        #expect(outcome.result.count == 4_000_000)
        #expect(outcome.standardError.utf8.count <= WorkerProcess.standardErrorLimit)
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"),
            "needs /usr/bin/python3 to allocate in a child process"))
    func peakMemoryIsTheWorkersOwn() throws {
        // A worker that touches about 200 MB reports at least that much (wait4's upper bound).
        let outcome = try WorkerProcess.run(
            executable: "/usr/bin/python3", arguments: ["-c", "b = bytearray(200 * 1024 * 1024)"], timeout: 60)
        #expect(outcome.termination == .exited(0))
        #expect(outcome.peakResidentBytes >= 200 * 1024 * 1024)
    }

    @Test func progressArrivesOnDescriptor4OnlyWhenAskedFor() throws {
        var counts: [Int] = []
        let asked = try WorkerProcess.run(
            executable: "/bin/sh", arguments: ["-c", "printf . >&4; sleep 0.1; printf .. >&4; printf done >&3"],
            progress: { counts.append($0) })
        #expect(asked.result == Array("done".utf8))
        #expect(counts.last == 3)
        let notAsked = try WorkerProcess.run(
            executable: "/bin/sh", arguments: ["-c", "printf . >&4 || printf closed >&3"])
        #expect(notAsked.result == Array("closed".utf8))
    }

    @Test func aMeasuringWorkerTicksOncePerIteration() throws {
        var last = 0
        let job = MeasureJob(parser: "expat", feed: TestPaths.top300, iterations: 4, warmup: 2, chunkSize: 0)
        let outcome = try WorkerProcess.run(
            WorkerCommand(executable: TestPaths.workerExecutable, job: .measure(job)), timeout: 120,
            progress: { last = $0 })
        #expect(outcome.termination == .exited(0))
        #expect(last == 6)
    }

    @Test func aMissingExecutableIsAnError() {
        #expect(throws: WorkerProcess.SpawnError.self) {
            try WorkerProcess.run(executable: "/nonexistent/bench", arguments: [])
        }
    }

    @Test func environmentIsPassedOn() throws {
        let outcome = try WorkerProcess.run(
            executable: "/bin/sh", arguments: ["-c", "printf '%s|%s' \"$BENCH_TEST_VALUE\" \"$SWIFT_BACKTRACE\" >&3"],
            environment: ["BENCH_TEST_VALUE": "42"])
        #expect(String(decoding: outcome.result, as: UTF8.self) == "42|enable=no")
    }
}

/// `idleTimeout`: a worker that runs many cases is killed when it stops finishing them.
@Suite("WorkerProcess: progress deadlines")
struct WorkerProgressDeadlineTests {
    @Test func aWorkerThatStopsReportingProgressIsStalled() throws {
        let outcome = try WorkerProcess.run(
            executable: "/bin/sh", arguments: ["-c", "printf . >&4; printf . >&4; exec sleep 30"], idleTimeout: 0.5)
        #expect(outcome.termination == .stalled(seconds: 0.5))
        #expect(outcome.termination.description == "killed after 0.5 s without progress")
    }

    @Test func aWorkerThatKeepsReportingIsNotStalled() throws {
        let outcome = try WorkerProcess.run(
            executable: "/bin/sh", arguments: ["-c", "for i in 1 2 3 4 5 6; do printf . >&4; sleep 0.2; done"],
            idleTimeout: 2)
        #expect(outcome.termination == .exited(0))
    }

    @Test func aWorkerLearnsItsParent() throws {
        let outcome = try WorkerProcess.run(
            executable: "/bin/sh", arguments: ["-c", "printf \"$\(WorkerProcess.parentVariable)\" >&3"])
        let value = String(decoding: outcome.result, as: UTF8.self)
        #expect(value.count == 10 && pid_t(value) == getpid(), "\(value)")
    }
}

/// The typed worker contract: a job goes in as JSON on standard input, the same bytes every time.
@Suite("Worker jobs")
struct WorkerJobTests {
    @Test func aJobRoundTripsAndEncodesToTheSameBytesEveryTime() throws {
        let jobs: [WorkerJob] = [
            .measure(
                MeasureJob(
                    parser: "expat", feed: "/a/feed.xml", iterations: 3, warmup: 1, chunkSize: 512, retryPreempted: true
                )),
            .download(
                DownloadJob(
                    parser: "libxml2", url: URL(string: "http://127.0.0.1:1/f.xml")!, iterations: 2, warmup: 0,
                    timeout: 5, conditional: true)),
            .practice(
                PracticeJob(
                    practice: .queue(width: 2, pageSize: 25, cancel: true), parser: "expat", iterations: 1, warmup: 0,
                    timeout: 5, entries: 300)),
            .verify(VerifyJob(parser: "foundation", feed: "f.xml", chunkSizes: [1, 0])),
            .conformance(
                ConformanceJob(
                    parser: "expat", suite: "/x", paths: ["a.xml", "b.xml"], chunkSize: 0, memoryLimitMiB: nil)),
            .catalog(CatalogJob(catalog: "/x/c.xml")),
            .allocationProbe(AllocationProbeJob(blocks: 1, bytes: 2, keep: true)),
        ]
        for job in jobs {
            let bytes = job.encoded()
            #expect(!bytes.isEmpty)
            #expect(bytes == job.encoded())
            #expect(try JSONDecoder().decode(WorkerJob.self, from: Data(bytes)) == job)
        }
    }

    @Test func aWorkerWithoutAJobSaysSoAndFails() throws {
        let outcome = try WorkerProcess.run(
            WorkerCommand(
                executable: TestPaths.workerExecutable, arguments: [WorkerCommand.workerArgument],
                input: Array("{}".utf8)),
            timeout: 60)
        #expect(outcome.termination == .exited(1))
        #expect(words(outcome.standardError).contains("no worker job on standard input"))
    }

    @Test func anUnknownParserIsAnErrorThatNamesTheKnownOnes() throws {
        let job = WorkerJob.verify(VerifyJob(parser: "nope", feed: TestPaths.top300, chunkSizes: [0]))
        let outcome = try WorkerProcess.run(
            WorkerCommand(executable: TestPaths.workerExecutable, job: job), timeout: 60)
        #expect(outcome.termination == .exited(1))
        #expect(words(outcome.standardError).contains("unknown parser 'nope'; known: "))
    }

    @Test func aLargeInputReachesTheWorkerWhole() throws {
        // Over a pipe's default 64 KiB: the buffer grows before the worker starts.
        let input = [UInt8](repeating: UInt8(ascii: "x"), count: 200_000)
        let outcome = try WorkerProcess.run(
            executable: "/bin/sh", arguments: ["-c", "wc -c >&3"], input: input, timeout: 30)
        #expect(outcome.termination == .exited(0))
        #expect(
            String(decoding: outcome.result, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "200000")
    }
}
