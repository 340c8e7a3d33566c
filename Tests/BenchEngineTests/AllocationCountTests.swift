@testable import BenchEngine
@testable import BenchWorker
import BenchResults
import BenchTestSupport
import Foundation
import Testing

/// The allocation counter, in worker processes (the interposer must be loaded first, and counts
/// every thread: a test process running other tests at once cannot count its own).
@Suite("Allocation counts")
struct AllocationCountTests {
    static func probe(_ job: AllocationProbeJob, counting: Bool = true) throws -> (
        WorkerProcess.Outcome, AllocationCounter.Counts?
    ) {
        let executable = TestPaths.workerExecutable
        let outcome = try WorkerProcess.run(
            WorkerCommand(
                executable: executable, job: .allocationProbe(job),
                environment: counting ? AllocationCounter.countingEnvironment(executable: executable) : [:]),
            timeout: 60)
        let counts = try? JSONDecoder().decode(AllocationCounter.Counts.self, from: Data(outcome.result))
        return (outcome, counts)
    }

    @Test func aFunctionWithAKnownNumberOfAllocationsCountsExactlyThat() throws {
        let (outcome, counts) = try Self.probe(AllocationProbeJob(blocks: 1_000, bytes: 48))
        #expect(outcome.termination == .exited(0), "\(outcome.standardError)")
        #expect(counts == AllocationCounter.Counts(allocations: 1_000, bytes: 48_000, keptBytes: 0))
        let (_, kept) = try Self.probe(AllocationProbeJob(blocks: 250, bytes: 4096, keep: true))
        #expect(kept == AllocationCounter.Counts(allocations: 250, bytes: 1_024_000, keptBytes: 1_024_000))
    }

    /// A plan for an executable without the interposer beside it (a `bench` copied on its own) counts
    /// no allocations and says why: the file, where it was looked for, how to get it.
    @Test func aPlanWithoutTheInterposerBesideItsExecutableLeavesTheCountsOut() throws {
        let directory = try TemporaryDirectory()
        let executable = try directory.write("bench", "")
        var settings = RunSettings(iterations: 1, warmup: 1, rounds: 1, chunkSize: 4096, timeoutSeconds: 60)
        settings.countsAllocations = true
        var plan = RunPlan(
            parsers: ["expat"], feeds: [TestPaths.top300], settings: settings, executable: executable, debugBuild: true)
        plan.leaveOutUnavailableAllocationCounts()
        #expect(plan.settings.countsAllocations == false)
        let said = try #require(plan.allocationCountsUnavailable)
        #expect(said.contains("looked for \(directory.path("libMallocInterposerSwift.so"))"), "\(said)")
        #expect(said.contains("swift build -c release"), "\(said)")

        try directory.write("libMallocInterposerSwift.so", "")
        var beside = RunPlan(
            parsers: ["expat"], feeds: [TestPaths.top300], settings: settings, executable: executable, debugBuild: true)
        beside.leaveOutUnavailableAllocationCounts()
        #expect(beside.settings.countsAllocations == true && beside.allocationCountsUnavailable == nil)
    }

    @Test func withoutTheInterposerAWorkerRefusesToCount() throws {
        // Workers get libc's malloc by default: a count would silently be 0.
        let (outcome, counts) = try Self.probe(AllocationProbeJob(blocks: 10, bytes: 16), counting: false)
        #expect(outcome.termination == .exited(1))
        #expect(counts == nil)
        #expect(words(outcome.standardError).contains("LD_PRELOAD"))
    }

    @Test func aTimedWorkerRefusesTheInterposerAndACountingWorkerCountsEveryParseAlike() throws {
        let executable = TestPaths.workerExecutable
        let timed = MeasureJob(parser: "expat", feed: TestPaths.top300, iterations: 3, warmup: 1, chunkSize: 4096)
        let timedWithInterposer = try WorkerProcess.run(
            WorkerCommand(
                executable: executable, job: .measure(timed),
                environment: AllocationCounter.countingEnvironment(executable: executable)),
            timeout: 60)
        #expect(timedWithInterposer.termination == .exited(1))
        #expect(words(timedWithInterposer.standardError).contains("16 bytes"))

        for parser in ["expat", "null"] {
            var counting = timed
            counting.parser = parser
            counting.countAllocations = true
            let outcome = try WorkerProcess.run(
                WorkerCommand(
                    executable: executable, job: .measure(counting),
                    environment: AllocationCounter.countingEnvironment(executable: executable)),
                timeout: 60)
            #expect(outcome.termination == .exited(0), "\(outcome.standardError)")
            let report = try JSONDecoder().decode(MeasureWorkerReport.self, from: Data(outcome.result))
            let counts = report.iterations.map { iteration in
                [Metric.allocations, .allocatedBytes, .keptBytes].compactMap { iteration.figures[$0] }
            }
            #expect(counts.count == 3 && counts.allSatisfy { $0.count == 3 }, "\(parser): \(counts)")
            // Exact: the same parse of the same feed allocates the same, every time.
            #expect(Set(counts).count == 1, "\(parser): \(counts)")
            let allocations = counts.first?.first ?? -1
            let kept = counts.first?.last ?? -1
            if parser == "null" {
                // Neither the harness nor the null parser allocates inside the parse: the parser is
                // a value (the protocols take one), held in the existential's inline buffer.
                #expect(allocations == 0)
                #expect(kept == 0)
            } else {
                #expect(allocations > 300)
                // What a parse leaves allocated is its songs: the same for every parser of the feed.
                #expect(kept > 300 * 100)
            }
        }
    }
}
