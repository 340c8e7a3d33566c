import BenchTestSupport
import Foundation
import Testing

@testable import BenchEngine
@testable import BenchWorker

/// `bench` copied on its own (`cp .build/release/bench .build/release/bench-worker ~/bin/`): it
/// starts, and does everything that does not count; a count that needs a library beside it says
/// which file, where it looked and how to get it; without its worker executable, a run says which
/// file it needs.
@Suite("bench copied on its own")
struct CopiedBenchTests {
    /// The two libraries only counting workers preload.
    static let libraries = [WorkerLibrary.allocationInterposer, .frozenClock]

    /// The built `bench` copied into `bin/` of a new directory, with its worker executable (unless
    /// not `worker`) and `libraries` beside it.
    static func copy(
        with libraries: [WorkerLibrary] = [], worker: Bool = true, in directory: TemporaryDirectory
    ) throws -> String {
        let bin = directory.url.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let copy = bin.appendingPathComponent("bench").path
        try FileManager.default.copyItem(atPath: TestPaths.benchExecutable, toPath: copy)
        if worker {
            try FileManager.default.copyItem(
                atPath: TestPaths.workerExecutable, toPath: bin.appendingPathComponent("bench-worker").path)
        }
        for library in libraries {
            try FileManager.default.copyItem(
                atPath: library.path(besideExecutable: TestPaths.benchExecutable),
                toPath: bin.appendingPathComponent(library.fileName).path)
        }
        return copy
    }

    /// The shortest timed run: libxml2 on the committed feed, one worker, one parse, nothing stored.
    ///
    /// A parse that loses the CPU to the tests beside counts (`--count-preempted`): else a busy
    /// machine can leave the cell with no figure, and the run exits 1.
    static func shortRun(_ extra: [String] = [], output: String) -> [String] {
        [
            "run", "--scenario", "parse", "--parsers", "libxml2", "--feed", TestPaths.top300, "--rounds", "1",
            "--iterations", "1", "--warmup", "1", "--no-store", "--quiet", "--count-preempted", "--output-dir",
            output,
        ] + extra
    }

    /// The parse rows of a run's summary CSV, by parser.
    static func parseRows(in output: String) throws -> [String: [String: String]] {
        let text = try String(contentsOfFile: output + "/latest-summary.csv", encoding: .utf8)
        // RFC 4180's CRLF: one Character, which a split on "\n" does not see.
        let lines = text.split(whereSeparator: \.isNewline).map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        guard let header = lines.first?.map(String.init) else { return [:] }
        var rows: [String: [String: String]] = [:]
        for line in lines.dropFirst() {
            let row = Dictionary(uniqueKeysWithValues: zip(header, line.map(String.init)))
            if row["scenario"] == "parse", let parser = row["parser"] { rows[parser] = row }
        }
        return rows
    }

    /// No process links the libraries the counting workers preload, and SwiftPM builds both beside it.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/readelf"), "needs readelf (binutils)"))
    func benchNeedsNeitherWorkerLibrary() throws {
        let dynamic = try runProgram("/usr/bin/readelf", ["-d", TestPaths.benchExecutable])
        #expect(dynamic.status == 0, "\(dynamic.standardError)")
        let needed = dynamic.standardOutput.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(needed.contains { $0.contains("[libc.so.6]") }, "readelf's lines: \(needed)")
        for library in Self.libraries {
            #expect(!needed.contains { $0.contains(library.fileName) }, "bench NEEDs \(library.fileName)")
            let path = library.path(besideExecutable: TestPaths.benchExecutable)
            #expect(FileManager.default.fileExists(atPath: path), "SwiftPM did not build \(path)")
        }
    }

    /// The worker executable holds the workers and the parsers, and none of the tool: no store of
    /// runs (GRDB's stats store, libpq), no report, no argument parser, no feed server (SwiftNIO).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/nm"), "needs nm (binutils)"))
    func theWorkerHoldsNoneOfTheTool() throws {
        let symbols = try runProgram("/usr/bin/nm", [TestPaths.workerExecutable])
        #expect(symbols.status == 0, "\(symbols.standardError)")
        // A Swift symbol names its module by length and name ("10StatsStore").
        for module in [
            "StatsStore", "BenchReports", "BenchCLI", "BenchEngine", "ArgumentParser", "NIOCore", "FeedServing",
        ] {
            let mangled = "\(module.utf8.count)\(module)"
            let found = symbols.standardOutput.split(separator: "\n").first { $0.contains(mangled) }
            #expect(found == nil, "bench-worker holds \(module): \(found ?? "")")
        }
        #expect(symbols.standardOutput.contains("11BenchWorker"), "the worker module is in it")
        #expect(symbols.standardOutput.contains("11FeedParsers"), "the parsers are in it")
        let dynamic = try runProgram("/usr/bin/readelf", ["-d", TestPaths.workerExecutable])
        #expect(!dynamic.standardOutput.contains("libpq"), "bench-worker links libpq")
    }

    /// A copy alone starts, and times a run: its allocation counts are said to be unavailable, with the
    /// file, where it was looked for and how to get it, and the run is stored without them.
    @Test func aCopyAloneTimesARunAndSaysItCountsNoAllocations() throws {
        let directory = try TemporaryDirectory()
        let bench = try Self.copy(in: directory)
        let version = try runProgram(bench, ["--version"], in: directory.url)
        #expect(version.status == 0, "\(version.standardError)")
        #expect(!version.standardOutput.isEmpty)

        let output = directory.path("results")
        let run = try runProgram(bench, Self.shortRun(output: output), in: directory.url)
        #expect(run.status == 0, "\(run.standardError)")
        let said = words(run.standardError)
        #expect(said.contains("WARNING: no allocation counts in this run"), "\(run.standardError)")
        #expect(said.contains("looked for \(directory.url.path)/bin/libMallocInterposerSwift.so"), "\(said)")
        #expect(said.contains("swift build -c release"), "\(said)")
        let rows = try Self.parseRows(in: output)
        #expect(rows["libxml2"]?["n"] == "1", "\(rows)")
        #expect(rows["libxml2"]?["allocations"] == "", "\(rows)")

        // Asked not to count, it says nothing of them.
        let uncounted = try runProgram(
            bench, Self.shortRun(["--no-allocation-counts"], output: output), in: directory.url)
        #expect(uncounted.status == 0, "\(uncounted.standardError)")
        #expect(!uncounted.standardError.contains("allocation counts"), "\(uncounted.standardError)")
    }

    /// Without `bench-worker` beside it, a run fails before timing anything and names the file.
    @Test func aCopyWithoutItsWorkerNamesIt() throws {
        let directory = try TemporaryDirectory()
        let bench = try Self.copy(worker: false, in: directory)
        let output = directory.path("results")
        let run = try runProgram(bench, Self.shortRun(output: output), in: directory.url)
        #expect(run.status == 1, "\(run.standardError)")
        let said = words(run.standardError)
        #expect(said.contains("cannot start \(directory.url.path)/bin/bench-worker"), "\(said)")
        #expect(said.contains("the worker executable, built beside the tool"), "\(said)")
        #expect(!FileManager.default.fileExists(atPath: output + "/latest-summary.csv"), "nothing is written")
    }

    /// With the interposer copied beside it, the copy counts allocations, exactly as the build does.
    @Test func aCopyWithTheInterposerBesideItCountsAllocations() throws {
        let directory = try TemporaryDirectory()
        let bench = try Self.copy(with: [.allocationInterposer], in: directory)
        let output = directory.path("results")
        let run = try runProgram(bench, Self.shortRun(output: output), in: directory.url)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(!run.standardError.contains("allocation counts"), "\(run.standardError)")
        let rows = try Self.parseRows(in: output)
        #expect((Int(rows["libxml2"]?["allocations"] ?? "") ?? 0) > 300, "\(rows)")
        #expect(rows["null"]?["allocations"] == "0", "\(rows)")
    }

    /// A copy asked for instruction counts, without the frozen clock beside it, fails with the file,
    /// where it was looked for and how to get it.
    @Test(
        .enabled(
            if: ["valgrind", "objcopy", "nm"].allSatisfy { InstructionCounter.findExecutable($0) != nil },
            "needs valgrind and binutils (apt-get install valgrind binutils)"))
    func aCountedRunFromACopyNamesTheMissingFrozenClock() throws {
        let directory = try TemporaryDirectory()
        let bench = try Self.copy(with: [.allocationInterposer], in: directory)
        let output = directory.path("results")
        let run = try runProgram(
            bench, Self.shortRun(["--counter", "instructions"], output: output), in: directory.url)
        #expect(run.status == 1, "\(run.standardError)")
        let said = words(run.standardError)
        #expect(said.contains("instruction counts need libFrozenClock.so"), "\(said)")
        #expect(said.contains("looked for \(directory.url.path)/bin/libFrozenClock.so"), "\(said)")
        #expect(said.contains("swift build -c release"), "\(said)")
        #expect(!FileManager.default.fileExists(atPath: output + "/latest-summary.csv"), "nothing is written")
    }
}
