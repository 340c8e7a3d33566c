import BenchEngine
import BenchTestSupport
import Foundation
import Testing

@Suite("WorkerProcess: spawn, report, crash, time limit, peak memory")
struct WorkerProcessTests {
    @Test func resultArrivesOnDescriptor3() throws {
        let outcome = try WorkerProcess.run(executable: "/bin/sh", arguments: ["-c", "printf 'result' >&3; echo noise"])
        #expect(outcome.termination == .exited(0))
        #expect(outcome.result == Array("result".utf8))
        #expect(outcome.peakResidentBytes > 0)
    }

    @Test func standardErrorAndExitStatusAreKept() throws {
        let outcome = try WorkerProcess.run(executable: "/bin/sh", arguments: ["-c", "echo 'it broke' >&2; exit 3"])
        #expect(outcome.termination == .exited(3))
        #expect(outcome.standardError.contains("it broke"))
    }

    @Test func aCrashIsReportedWithItsSignal() throws {
        let outcome = try WorkerProcess.run(executable: "/bin/sh", arguments: ["-c", "kill -SEGV $$"])
        #expect(outcome.termination == .signaled(SIGSEGV))
        #expect(outcome.termination.description == "crashed with signal \(SIGSEGV) (SIGSEGV)")
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
        let notAsked = try WorkerProcess.run(executable: "/bin/sh", arguments: ["-c", "printf . >&4 || printf closed >&3"])
        #expect(notAsked.result == Array("closed".utf8))
    }

    @Test func aMeasuringWorkerTicksOncePerIteration() throws {
        var last = 0
        let outcome = try WorkerProcess.run(
            executable: TestPaths.benchExecutable,
            arguments: ["worker", "measure", "--parser", "expat", "--iterations", "4", "--warmup", "2", "--chunk-size", "0", TestPaths.top300],
            timeout: 120, progress: { last = $0 })
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
            executable: "/bin/sh", arguments: ["-c", "for i in 1 2 3 4 5 6; do printf . >&4; sleep 0.2; done"], idleTimeout: 2)
        #expect(outcome.termination == .exited(0))
    }

    @Test func aWorkerLearnsItsParent() throws {
        let outcome = try WorkerProcess.run(executable: "/bin/sh", arguments: ["-c", "printf \"$\(WorkerProcess.parentVariable)\" >&3"])
        let value = String(decoding: outcome.result, as: UTF8.self)
        #expect(value.count == 10 && pid_t(value) == getpid(), "\(value)")
    }
}
