import BenchTestSupport
import Foundation
import Testing

@testable import BenchEngine
@testable import BenchWorker

@Suite("Instruction counter: what a counted worker is given")
struct InstructionCounterTests {
    /// Cells run in parallel and all name the same feed: every counted worker must get the same job
    /// bytes, the feed named through the one link. (The link was removed and re-made by each cell; the
    /// cell that lost the race named the feed by its own path, and its count moved by ~300 instructions.)
    @Test func parallelCellsGetTheSameJobThroughOneLink() throws {
        let directory = try TemporaryDirectory()
        let feed = try directory.write("feed.xml", "<rss/>")
        let counter = try Self.counter(in: directory)
        let job = MeasureJob(parser: "libxml2", feed: feed, iterations: 2, warmup: 1, chunkSize: 16384)
        let inputs = Results()
        for round in 0..<20 {
            if round > 0 {
                // A stale link (to another file) is replaced, not followed.
                let link = try counter.feedLink(feed)
                try FileManager.default.removeItem(atPath: link)
                try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/nowhere/else.xml")
            }
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                inputs.add(Result { try counter.command(job, outputPrefix: "out").input ?? [] })
            }
        }
        let all = try inputs.values.map { try $0.get() }
        #expect(all.count == 160)
        #expect(Set(all).count == 1)
        let sent = try JSONDecoder().decode(WorkerJob.self, from: Data(all.first ?? []))
        guard case .measure(let measured) = sent else {
            Issue.record("not a measure job: \(sent)")
            return
        }
        #expect(measured.feed != feed && measured.feed.hasPrefix(counter.directory + "/feed-"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: measured.feed) == feed)
        // No temporary link is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: counter.directory).count == 1)
    }

    /// The package's frozen clock, built beside `bench`, freezes `time()` only where asked.
    ///
    /// `time()` returns `BENCH_FROZEN_TIME` in a process that preloads it with the variable set, and
    /// the real time otherwise (a variable that is not a whole number freezes nothing). Perl's `time`
    /// calls the C library's `time()`.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/perl"), "needs /usr/bin/perl"))
    func theFrozenClockFreezesTimeOnlyWhereAsked() throws {
        let library = InstructionCounter.frozenClockLibrary(besideExecutable: TestPaths.workerExecutable)
        #expect(FileManager.default.fileExists(atPath: library), "SwiftPM did not build \(library) beside bench")
        func perlTime(_ environment: [String: String]) throws -> Int {
            let result = try runProgram(
                "/usr/bin/perl", ["-e", "print time"], environment: environment.merging(["LD_PRELOAD": library]) { $1 })
            #expect(result.status == 0, "\(result.standardError)")
            return Int(result.standardOutput) ?? -1
        }
        let now = Int(Date().timeIntervalSince1970)
        #expect(try perlTime([InstructionCounter.frozenTimeVariable: InstructionCounter.frozenTime]) == 1_337_040_000)
        #expect(abs(try perlTime([:]) - now) < 60)
        #expect(abs(try perlTime([InstructionCounter.frozenTimeVariable: "12x"]) - now) < 60)
    }

    /// Without the frozen clock beside the executable, counting is refused with a message that says
    /// which file, where it was looked for and how to get it, before anything is copied.
    @Test func aMissingFrozenClockIsNamed() throws {
        let directory = try TemporaryDirectory()
        let executable = try directory.write("bench", "")
        do {
            let counter = try InstructionCounter.prepare(executable: executable)
            counter.remove()
            Issue.record("prepared without the frozen clock")
        } catch let error as InstructionCounter.Unavailable {
            // valgrind or binutils may be missing here: then that is what it says.
            let tools = ["valgrind", "objcopy", "nm"].allSatisfy { InstructionCounter.findExecutable($0) != nil }
            let said = error.description
            #expect(!tools || said.contains("looked for \(directory.path("libFrozenClock.so"))"), "\(error)")
            #expect(!tools || said.contains("swift build -c release"), "\(error)")
        }
    }

    /// A dump's counts come from its `events:` and `totals:` lines, by the events' names; the
    /// estimated cycles follow the model (L1 hits + 5 × last-level hits + 35 × RAM hits).
    @Test func aDumpGivesItsInstructionsAndEstimatedCycles() {
        let events = "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n"
        // 1,500 accesses, 35 L1 misses of which 6 went to RAM: 1,465 + 5 × 29 + 35 × 6.
        let full = InstructionCounter.parseCounts(
            dump: "version: 1\n" + events + "totals: 1000 300 200 10 20 5 2 3 1\n")
        #expect(full == InstructionCounter.ParseCounts(instructions: 1000, estimatedCycles: 1820))
        // callgrind leaves out trailing zeros: no RAM hits here.
        let short = InstructionCounter.parseCounts(dump: events + "totals: 1000 300 200 10 20 5\n")
        #expect(short == InstructionCounter.ParseCounts(instructions: 1000, estimatedCycles: 1465 + 5 * 35))
        // Without the cache simulation: the instructions alone.
        let plain = InstructionCounter.parseCounts(dump: "events: Ir\ntotals: 1234\n")
        #expect(plain == InstructionCounter.ParseCounts(instructions: 1234, estimatedCycles: nil))
        #expect(InstructionCounter.parseCounts(dump: events) == nil)
        #expect(InstructionCounter.parseCounts(dump: events + "totals: 12x\n") == nil)
    }

    /// The counted worker runs callgrind with its cache simulation and a fixed geometry (the
    /// same misses on any host).
    @Test func theCountedWorkerSimulatesFixedCaches() throws {
        let directory = try TemporaryDirectory()
        let feed = try directory.write("feed.xml", "<rss/>")
        let counter = try Self.counter(in: directory)
        let job = MeasureJob(parser: "expat", feed: feed, iterations: 1, warmup: 1, chunkSize: 16384)
        let arguments = try counter.command(job, outputPrefix: "out").arguments
        for option in ["--cache-sim=yes", "--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64"] {
            #expect(arguments.contains(option))
        }
    }

    /// nm's listing is read only where the word is: each whole line that has it, once, whether it
    /// is the first line, the last (with or without its line break) or has the word twice.
    @Test func theListingIsReadOnlyWhereTheWordIs() {
        let word = InstructionCounter.symbolWord
        let listing = [
            "0000000000423660 T $s11BenchEngine13MeasureWorkerO20callgrindParseRegion_",
            "0000000000423670 T $s11BenchEngine13MeasureWorkerO7measure",
            "0000000000423680 t callgrind_callgrindThreadRegion",
            "0000000000423690 T bench_main",
            "00000000004236a0 T bench_callgrind_stop_instrumentation",
        ]
        let lines = { (text: String) in InstructionCounter.lines(of: text, containing: word).map(String.init) }
        let expected = [listing[0], listing[2], listing[4]]
        #expect(lines(listing.joined(separator: "\n")) == expected)
        #expect(lines(listing.joined(separator: "\n") + "\n") == expected)
        #expect(lines(listing[1] + "\n" + listing[3]).isEmpty)
        #expect(lines("").isEmpty)
        #expect(lines(word) == [word])
    }

    /// A counter with its directory in `directory` and tools that are never run.
    static func counter(in directory: TemporaryDirectory) throws -> InstructionCounter {
        let counter = InstructionCounter(
            valgrind: "/usr/bin/valgrind", setarch: nil, frozenClockLibrary: "/nowhere/libFrozenClock.so",
            executable: "/nowhere/bench", symbol: "region", directory: directory.path("counter"))
        try FileManager.default.createDirectory(atPath: counter.directory, withIntermediateDirectories: true)
        return counter
    }

    /// What the parallel calls returned.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [Result<[UInt8], any Error>] = []
        func add(_ result: Result<[UInt8], any Error>) { lock.withLock { stored.append(result) } }
        var values: [Result<[UInt8], any Error>] { lock.withLock { stored } }
    }
}
