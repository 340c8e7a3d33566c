@testable import BenchWorker
import BenchEngine
import BenchResults
import BenchTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Every worker runs under a memory limit and from the very executable that started it; a parser
/// nobody confirms is not "agree".
@Suite("Worker limits, the running build, and confirmed answers")
struct WorkerLimitTests {
    /// A worker that grows a mebibyte every 5 ms, touching each: killed at the limit, and said so.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs python3"))
    func aWorkerPastItsMemoryLimitIsKilledAndSaidSo() throws {
        let limit = 64 << 20
        let grow = "import time\nx = []\nwhile True:\n    x.append(b'a' * (1 << 20))\n    time.sleep(0.005)\n"
        let outcome = try WorkerProcess.run(
            executable: "/usr/bin/python3", arguments: ["-c", grow], timeout: 120, memoryLimit: limit)
        #expect(outcome.termination == .exceededMemory(limitBytes: limit))
        #expect(outcome.termination.description == "killed after exceeding the 64 MiB memory limit")
        #expect(!outcome.termination.isCrash)
    }

    @Test func aWorkerUnderItsMemoryLimitIsLeftAlone() throws {
        let outcome = try WorkerProcess.run(
            executable: "/bin/sh", arguments: ["-c", "printf ok >&3"], timeout: 60, memoryLimit: 64 << 20)
        #expect(outcome.termination == .exited(0))
        #expect(outcome.result == Array("ok".utf8))
    }

    @Test func everyWorkerHasAMemoryLimitByDefault() {
        #expect(WorkerProcess.memoryLimitBytes == WorkerProcess.defaultMemoryLimitBytes)
        #expect(WorkerProcess.formatBytes(WorkerProcess.defaultMemoryLimitBytes) == "4 GiB")
    }

    #if os(Linux)
        /// Workers start from the running process's own executable file, never from its path again.
        @Test func workersRunTheExecutableThatIsRunning() throws {
            let executable = WorkerProcess.currentExecutable()
            #expect(executable == "/proc/\(getpid())/exe")
            let own = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
            #expect(WorkerProcess.directory(ofExecutable: executable) == (own as NSString).deletingLastPathComponent)
            // A worker started from it is this very program (its /proc/self/exe is the same file).
            let outcome = try WorkerProcess.run(
                executable: "/bin/sh", arguments: ["-c", "readlink /proc/$PPID/exe >&3"], timeout: 60)
            #expect(String(decoding: outcome.result, as: UTF8.self).hasPrefix(own))
        }
    #endif

    // MARK: Agreement needs a second parser

    /// A feed whose third title holds invalid UTF-8: every parser but SWXMLHash (which returns what
    /// it read before an error) refuses it.
    static let invalidUTF8Feed: [UInt8] = {
        let items = Samples.feed([Samples.item(title: "one"), Samples.item(title: "two"), Samples.item(title: "BAD")])
        var bytes = Array(items.utf8)
        if let range = items.range(of: "BAD") {
            bytes[items.utf8.distance(from: items.utf8.startIndex, to: range.lowerBound)] = 0xFF
        }
        return bytes
    }()

    @Test func aParserAloneIsUnverifiedNotAgree() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("bad.xml", Self.invalidUTF8Feed)
        let verification = try FeedVerifier.verify(
            feed: path, parsers: ["swxmlhash"], chunkSizes: [0], executable: TestPaths.workerExecutable, timeout: 120)
        guard case .unverified(let detail) = verification.verdicts[0].status else {
            Issue.record("swxmlhash alone: \(verification.verdicts[0].status)")
            return
        }
        #expect(detail.contains("no other parser confirms"))
        #expect(!verification.allAgree)
        #expect(!verification.verdicts[0].status.mayBeTimed)
        // Parsers that meet the contract were checked beside it, and refused the feed.
        #expect(verification.confirmers.map(\.parser).starts(with: ["libxml2", "expat"]))
        #expect(verification.confirmers.allSatisfy { !$0.status.mayBeTimed })
    }

    /// Two parsers that share a gap (the text of an entity declared in the DTD) confirm nothing
    /// between them: checked without confirmers, both are unverified; with them, both are wrong.
    @Test func twoParsersWithTheSameGapConfirmNothing() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            "entity.xml", "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY e \"entity text\">]>\n<r><a>&e;</a></r>\n")
        let alone = try FeedVerifier.verify(
            feed: path, parsers: ["foundation", "libxml2-reader"], chunkSizes: [0],
            executable: TestPaths.workerExecutable, timeout: 120, workload: .document, confirming: false)
        let digests = Set(alone.verdicts.compactMap(\.digest))
        #expect(digests.count == 1 && alone.verdicts.allSatisfy { $0.digest != nil }, "they give the same events")
        for verdict in alone.verdicts {
            guard case .unverified(let detail) = verdict.status else {
                Issue.record("\(verdict.parser): \(verdict.status)")
                continue
            }
            #expect(detail.contains("confirm nothing"))
        }
        #expect(!alone.allAgree)

        let confirmed = try FeedVerifier.verify(
            feed: path, parsers: ["foundation", "libxml2-reader"], chunkSizes: [0],
            executable: TestPaths.workerExecutable, timeout: 120, workload: .document)
        #expect(confirmed.confirmers.map(\.parser) == ["expat", "c-expat"])
        #expect(confirmed.confirmers.allSatisfy { $0.status == .agrees })
        for verdict in confirmed.verdicts {
            guard case .disagrees(let detail) = verdict.status else {
                Issue.record("\(verdict.parser): \(verdict.status)")
                continue
            }
            #expect(detail.contains("entity text"))
        }
    }

    /// One parser asked, confirmed by another that meets the contract: it agrees.
    @Test func aParserConfirmedByAnotherAgrees() throws {
        let verification = try FeedVerifier.verify(
            feed: TestPaths.top300, parsers: ["foundation"], chunkSizes: [16_384],
            executable: TestPaths.workerExecutable, timeout: 120)
        #expect(verification.verdicts[0].status == .agrees)
        #expect(verification.confirmers.map(\.parser) == ["libxml2"])
        #expect(verification.allAgree)
    }
}

/// What a recorder was asked, for the session tests.
final class CallLog: RunRecorder, @unchecked Sendable {
    /// The environment the session tests record their run under.
    static let environment = RunEnvironment(
        runID: "r", startedAt: "t", commandLine: "bench", buildConfiguration: "debug", gitCommit: nil, host: "h",
        os: "Linux", cpuModel: "CPU", cores: 2, swiftVersion: "6.3.1", libxml2Version: "2.9.14",
        expatVersion: "2.5.0")

    private let lock = NSLock()
    private var calls: [String] = []

    var recorded: [String] {
        lock.lock()
        defer { lock.unlock() }
        return calls
    }

    func note(_ call: String) {
        lock.lock()
        calls.append(call)
        lock.unlock()
    }

    func beginRun(_ environment: RunEnvironment, settings: RunSettings?) throws { note("begin") }
    func recordDocuments(_ documents: [DocumentProfile], runID: String) throws { note("documents") }
    func recordNotTimed(_ cells: [CellSummary], runID: String) throws { note("not timed") }
    func record(_ samples: [Sample], cells: [CellRecord], runID: String) throws {
        if !samples.isEmpty { note("samples") }
        if !cells.isEmpty { note("summaries") }
    }
    func finishRun(
        _ runID: String, endedAt: String, noise: NoiseReport?, rounds: Int?, cells: [CellRecord], complete: Bool
    ) throws {
        note(complete ? "finish" : "end incomplete")
    }
    func recordProfiles(_ profiles: [CellProfile], runID: String) throws {
        note("profiles")
    }
}

@Suite("A run whose workers cannot start")
struct UnstartedWorkerTests {
    /// Workers that cannot be started measured nothing: the run is not finished as complete, and
    /// says why.
    @Test func aRunWhoseWorkersCannotStartStaysIncomplete() throws {
        let plan = RunPlan(
            parsers: ["libxml2"], feeds: [TestPaths.top300],
            settings: RunSettings(iterations: 1, warmup: 0, rounds: 1, chunkSize: 16_384, timeoutSeconds: 30),
            executable: "/nonexistent/bench", debugBuild: true)
        let environment = CallLog.environment
        let log = CallLog()
        let outcome = try BenchSession(plan: plan).run(environment: environment, recorder: log)
        #expect(!outcome.result.environment.complete)
        #expect(!log.recorded.contains("finish"), "\(log.recorded)")
        #expect(log.recorded.first == "begin" && log.recorded.contains("samples"))
        // Ended incomplete, with the summaries of what it measured (none of them timed).
        #expect(log.recorded.last == "end incomplete", "\(log.recorded)")
        let unstarted = outcome.problems.filter {
            if case .workersNotStarted = $0.kind { return true }
            return false
        }
        #expect(!unstarted.isEmpty, "\(outcome.problems)")
        #expect(unstarted.allSatisfy { $0.description.contains("the run is stored incomplete") })
    }
}

@Suite("What a run records as it goes")
struct RecordingAsItGoesTests {
    /// Each worker's samples are written as it ends; the summaries of every cell once a round, then
    /// with the finished run (after every worker, they made a run's cost grow with the square of
    /// its workers).
    @Test func summariesAreRecordedOnceARoundAndWithTheFinishedRun() throws {
        let plan = RunPlan(
            parsers: ["libxml2", "expat"], feeds: [TestPaths.top300],
            settings: RunSettings(iterations: 1, warmup: 0, rounds: 3, chunkSize: 16_384, timeoutSeconds: 60),
            executable: TestPaths.workerExecutable, debugBuild: true)
        let environment = CallLog.environment
        let log = CallLog()
        let outcome = try BenchSession(plan: plan).run(environment: environment, recorder: log)
        let calls = log.recorded
        #expect(outcome.result.environment.complete, "\(outcome.problems)")
        #expect(calls.filter { $0 == "summaries" }.count == 3, "\(calls)")
        #expect(calls.last == "finish", "\(calls)")
        // Every round's workers (one a parser at least) before its summaries.
        let rounds = calls.split(separator: "summaries").map { Array($0) }
        #expect(rounds.prefix(3).allSatisfy { $0.filter { $0 == "samples" }.count >= 2 }, "\(calls)")
    }
}

/// A store that notes what a run asks of it, records and history alike, in one order.
final class StoreLog: RunRecorder, RunHistorySource, @unchecked Sendable {
    let log = CallLog()

    func beginRun(_ environment: RunEnvironment, settings: RunSettings?) throws { log.note("begin") }
    func recordDocuments(_ documents: [DocumentProfile], runID: String) throws { log.note("documents") }
    func recordNotTimed(_ cells: [CellSummary], runID: String) throws { log.note("not timed") }
    func record(_ samples: [Sample], cells: [CellRecord], runID: String) throws {}
    func finishRun(
        _ runID: String, endedAt: String, noise: NoiseReport?, rounds: Int?, cells: [CellRecord], complete: Bool
    ) throws {
        log.note(complete ? "finish" : "end incomplete")
    }
    func recordProfiles(_ profiles: [CellProfile], runID: String) throws {}
    func calibrations(host: String, excluding runID: String?, lastRuns: Int) throws -> [RunCalibration] {
        log.note("calibrations")
        return []
    }
    func parseHistory(host: String, excluding runID: String?, lastRuns: Int, feeds: [String]) throws
        -> [StoredSample]
    {
        log.note("parse history")
        return []
    }
    func recentFigures(parsers: [String], scenarios: [String], lastRuns: Int) throws -> [RunFigures] {
        log.note("recent figures \(lastRuns)")
        return []
    }
}

@Suite("A run's steps, in their order (BenchSession.measure)")
struct RunStepsTests {
    /// The store is opened once the check has passed, the run recorded in it, then assessed against
    /// its history, then the page's history read.
    @Test func theStoreIsOpenedAfterTheCheckAndReadAfterTheRun() throws {
        let plan = RunPlan(
            parsers: ["libxml2"], feeds: [TestPaths.top300],
            settings: RunSettings(iterations: 1, warmup: 0, rounds: 1, chunkSize: 16_384, timeoutSeconds: 60),
            executable: TestPaths.workerExecutable, debugBuild: false)
        let store = StoreLog()
        let measured = try BenchSession(plan: plan).measure(
            environment: CallLog.environment,
            openStore: {
                store.log.note("open")
                return store
            }, historyRuns: 7, checking: { store.log.note("check") })
        let calls = store.log.recorded
        #expect(
            calls == ["check", "open", "begin", "finish", "calibrations", "parse history", "recent figures 7"],
            "\(calls)")
        #expect(measured.store != nil)
        #expect(measured.outcome.result.hostState != nil)
        #expect(measured.outcome.result.environment.complete, "\(measured.outcome.problems)")
    }

    /// An input no parser can read stops the run at the check: the store is never opened, so
    /// nothing is recorded.
    @Test func anUnusableInputLeavesTheStoreUnopened() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("run-steps-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let feed = directory.appendingPathComponent("not-xml.txt")
        try Data("this is not XML at all\n".utf8).write(to: feed)
        let plan = RunPlan(
            parsers: ["libxml2"], feeds: [feed.path],
            settings: RunSettings(iterations: 1, warmup: 0, rounds: 1, chunkSize: 16_384, timeoutSeconds: 60),
            executable: TestPaths.workerExecutable, debugBuild: true)
        var opened = 0
        #expect(throws: BenchSession.UnusableInputs.self) {
            _ = try BenchSession(plan: plan).measure(
                environment: CallLog.environment,
                openStore: {
                    opened += 1
                    return StoreLog()
                }, historyRuns: 1)
        }
        #expect(opened == 0)
    }
}
