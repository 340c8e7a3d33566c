@testable import BenchEngine
@testable import BenchWorker
import BenchReports
import BenchResults
import BenchTestSupport
import Foundation
import SongFeed
import StatsStore
import Testing

/// `bench run` and `bench report`, end to end with a temporary store and output directory.
@Suite("bench run, end to end")
struct RunCommandTests {
    /// `cold`: each worker times one parse, its first, with no warm-up, and the table shows its
    /// minor page faults (a figure kept by metric) as the parse table does.
    @Test func aColdCellTimesEachWorkersFirstParseAlone() throws {
        let directory = try TemporaryDirectory()
        let output = directory.path("out")
        let result = try runBench([
            "run", "--scenario", "cold", "--parsers", "libxml2", "--rounds", "3", "--no-store", "--output-dir",
            output, "--count-preempted",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("cold: Data/top300.rss.xml"), "\(result.standardOutput)")
        #expect(words(result.standardOutput).contains("minor faults"), "\(result.standardOutput)")
        let json = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: output + "/latest.json")))
        let samples = ((json as? [String: Any])?["samples"] as? [[String: Any]]) ?? []
        let cold = samples.filter { ($0["cell"] as? [String: Any])?["scenario"] as? String == "cold" }
        let libxml2 = cold.filter { ($0["cell"] as? [String: Any])?["parser"] as? String == "libxml2" }
        // One sample a worker: the first parse of each of the three.
        #expect(libxml2.compactMap { $0["round"] as? Int }.sorted() == [1, 2, 3], "\(libxml2)")
        #expect(libxml2.allSatisfy { $0["minorPageFaults"] as? NSNumber != nil }, "\(libxml2)")
        // Ranked in its own table: the only parser of it is its fastest, against its own workers.
        let cells = ((json as? [String: Any])?["cells"] as? [[String: Any]]) ?? []
        let cell = cells.first {
            let key = $0["cell"] as? [String: Any]
            return key?["scenario"] as? String == "cold" && key?["parser"] as? String == "libxml2"
        }
        let relative = cell?["relative"] as? [String: Any]
        #expect(relative?["reference"] as? String == "libxml2", "\(cell ?? [:])")
        #expect(relative?["rounds"] as? Int == 3, "\(cell ?? [:])")
    }

    @Test func shortRunWritesCSVStoreAndFiles() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("stats.sqlite")
        let output = directory.path("out")
        let result = try runBench([
            "run", "--iterations", "2", "--warmup", "0", "--format", "csv", "--store", store, "--output-dir", output,
            "--scenario", "parse", "--scenario", "download", "--network", "loopback", "--rounds", "1",
            "--parsers", "foundation,libxml2,expat,c-libxml2,memchr",
            // Parses that lose the CPU count (a busy machine would leave a cell with no figure: exit 1).
            "--count-preempted",
        ])
        #expect(result.status == 0, "\(result.standardError)")

        // stdout is exactly the summary CSV: the header and one row per parser, the baseline first.
        let lines = result.standardOutput.split(separator: "\r\n").map(String.init)
        let header = lines[0].split(separator: ",").map(String.init)
        #expect(header.prefix(3) == ["parser", "scenario", "feed"])
        let rows = lines.dropFirst().map { line in
            Dictionary(
                uniqueKeysWithValues: zip(
                    header, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
        }
        let parsers = ["null", "foundation", "libxml2", "expat", "c-libxml2", "memchr"]
        #expect(rows.map { $0["parser"] } == parsers + parsers)
        #expect(
            rows.map { $0["scenario"] } == Array(repeating: "parse", count: 6) + Array(repeating: "download", count: 6))
        // Kinds, the binding tax (libxml2 over c-libxml2) and the distance to the floor, in the parse rows.
        let parse = Dictionary(uniqueKeysWithValues: rows.prefix(6).map { ($0["parser"] ?? "", $0) })
        #expect(
            parse.mapValues { $0["kind"] ?? "" } == [
                "null": "baseline", "foundation": "push/event", "libxml2": "push/event", "expat": "push/event",
                "c-libxml2": "reference", "memchr": "floor",
            ])
        #expect(parse["expat"]?["c_reference"] == "", "c-expat did not run")
        // A ratio needs parses that kept the CPU on both sides: on a machine running other tests a
        // cell can have none (all its attempts lost the CPU, n = 0), and then no figure, rightly,
        // and the cell says why.
        func kept(_ name: String) -> Int { Int(parse[name]?["n"] ?? "") ?? 0 }
        for name in parse.keys where kept(name) == 0 {
            #expect(parse[name]?["outcome"]?.contains("lost the CPU to other work") == true, "\(parse[name] ?? [:])")
        }
        if kept("libxml2") > 0 && kept("c-libxml2") > 0 {
            #expect(parse["libxml2"]?["c_reference"] == "c-libxml2")
            #expect((Double(parse["libxml2"]?["c_tax"] ?? "") ?? 0) > 0)
        }
        for name in ["foundation", "libxml2", "expat", "c-libxml2"] where kept(name) > 0 && kept("memchr") > 0 {
            #expect(parse[name]?["floor"] == "memchr", "\(parse[name] ?? [:])")
            // A ratio of two medians, whatever it is: in a debug build on a machine running other
            // tests, a C parser can beat the (unoptimised) memchr pass; how far each parser is from
            // the floor is a figure of the release build's output, never a test's.
            let multiple = Double(parse[name]?["floor_multiple"] ?? "") ?? 0
            #expect(multiple > 0 && multiple.isFinite, "\(name)'s distance to the floor: \(parse[name] ?? [:])")
        }
        #expect(parse["memchr"]?["floor_multiple"] == "" && parse["memchr"]?["relative"] == "")
        var samplesInRows = 0
        for row in rows {
            // Parses that lost the CPU (this machine runs other tests meanwhile) are measured again
            // until 2 kept it, or 4 × 2 were made; they are left out of n.
            let n = Int(row["n"] ?? "") ?? -1
            let preempted = Int(row["preempted"] ?? "") ?? -1
            #expect(n == 2 || n + preempted == 2 * MeasureWorker.attemptsPerIteration, "\(row)")
            samplesInRows += n + preempted
            if row["scenario"] == "parse" {
                // One more worker per parse cell counts the allocations of two parses: exactly.
                samplesInRows += ParseScenario.allocationIterations
                let allocations = Int(row["allocations"] ?? "") ?? -1
                #expect(row["allocations_min"] == row["allocations_max"], "\(row)")
                if row["parser"] == "null" {
                    #expect(allocations == 0, "a struct: nothing of its own, and nothing of the harness")
                } else if row["parser"] == "memchr" {
                    #expect(allocations == 1, "the parser's own object, and nothing of the harness")
                } else {
                    #expect(allocations > 300, "\(row)")
                    let kept: Double = Double(row["kept_bytes"] ?? "") ?? 0
                    #expect(kept > 300 * 100, "the songs")
                }
            } else {
                #expect(row["allocations"] == "")
            }
            #expect(row["failed"] == "0")
            #expect((Double(row["peak_rss_mb"] ?? "") ?? 0) > 1)
            if n > 0 {
                #expect(row["workers"] == "1")
                #expect((Double(row["median_ms"] ?? "") ?? 0) > 0)
                if row["parser"] != "null" && row["parser"] != "memchr" {
                    #expect((Double(row["first_song_ms"] ?? "") ?? 0) > 0)
                }
            }
            if row["parser"] != "null" && row["parser"] != "memchr" {
                #expect(row["songs"] == "300")
                #expect(row["peak_over_baseline_mb"]?.isEmpty == false)
            }
            if row["scenario"] == "download" {
                #expect(row["network"] == "loopback")
                #expect((Double(row["download_ms"] ?? "") ?? 0) > 0)
                #expect((Double(row["total_ms"] ?? "") ?? 0) >= (Double(row["download_ms"] ?? "") ?? 0))
                #expect(row["bytes"] == "901440" && row["http_status"] == "200")
                #expect(row["overlap"]?.isEmpty == false)
            }
        }

        // The files and the store.
        let files = try FileManager.default.contentsOfDirectory(atPath: output)
        #expect(files.contains("latest-summary.csv") && files.contains("latest.json") && files.contains("latest.html"))
        #expect(files.filter { $0.hasSuffix(".html") }.count == 2)
        #expect(files.filter { $0.hasSuffix("-summary.csv") }.count == 2)
        #expect(files.filter { $0.hasSuffix("-samples.csv") }.count == 1)
        let json = try JSONDecoder().decode(
            RunResult.self, from: Data(contentsOf: URL(fileURLWithPath: output + "/latest.json")))
        #expect(json.samples.count == samplesInRows)
        #expect(json.environment.complete)
        #expect(json.environment.libxml2Version.hasPrefix("2."))
        let database = try StatsDatabase(path: store)
        let runs = try database.runs()
        #expect(runs.count == 1 && runs[0].complete && runs[0].runID == json.environment.runID)
        #expect(try database.samples(matching: SampleFilter(includeDebug: true)).count == samplesInRows)
        #expect(
            try database.samples(matching: SampleFilter(scenarios: ["download"], includeDebug: true)).allSatisfy {
                $0.sample.bytes == 901_440 && $0.sample.httpStatus == 200
            })
        #expect(words(result.standardError).contains("Recorded in \(store)"))
        #expect(
            !words(result.standardError).contains("\u{1B}") && !result.standardOutput.contains("\u{1B}"),
            "no progress or colour off a terminal")
        #if DEBUG
            let warnings = result.standardError.components(separatedBy: "WARNING: this is a debug build").count - 1
            #expect(warnings == 2, "a debug build warns at the start and at the end")
            #expect(json.samples.allSatisfy(\.debug) && json.environment.buildConfiguration == "debug")
        #endif

        // bench report reads it back.
        let report = try runBench(["report", "--store", store, "--include-debug", "--format", "csv"])
        #expect(report.status == 0, "\(report.standardError)")
        #expect(
            report.standardOutput.split(separator: "\r\n").count == 1 + 12, "a header, and six parsers × two scenarios")
        #expect(report.standardOutput.contains(",memchr,") && report.standardOutput.contains(",floor,"))
    }

    /// Run from a directory of its own, where the default store (Results/stats.sqlite) would go.
    @Test func noStoreWritesNoStore() throws {
        let directory = try TemporaryDirectory()
        let result = try runBench(
            [
                "run", "--parsers", "expat", "--scenario", "parse", "--iterations", "1", "--warmup", "0", "--rounds",
                "2", "--no-store", "--feed", TestPaths.top300, "--output-dir", directory.path("out"), "--format",
                "json",
                "--count-preempted",
            ], in: URL(fileURLWithPath: directory.path("")))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("Results/stats.sqlite")))
        let run = try JSONDecoder().decode(RunResult.self, from: Data(result.standardOutput.utf8))
        #expect(run.cells.map(\.cell.parser) == ["null", "expat"])
    }

    // The time limits of the tests below stop a hang; a loaded machine (two CPU hogs beside the
    // suite) takes about twice its quiet time.
    @Test(.endToEnd)
    func aRunStopsWhenPreciseEnoughOrOutOfTime() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("s.sqlite")
        func run(_ extra: [String]) throws -> RunResult {
            let result = try runBench(
                [
                    "run", "--parsers", "c-libxml2,libxml2", "--scenario", "parse", "--iterations", "2", "--warmup",
                    "0", "--no-allocation-counts", "--store", store, "--output-dir", directory.path("out"), "--format",
                    "json", "--count-preempted",
                ] + extra)
            #expect(result.status == 0, "\(result.standardError)")
            return try JSONDecoder().decode(RunResult.self, from: Data(result.standardOutput.utf8))
        }
        // A loose precision: from the sixth round on, or at the eighth, whichever the noise allows;
        // either way the rounds run are what the result, the samples and the store say.
        let loose = try run(["--precision", "50%", "--rounds", "8"])
        let stopped = try #require(loose.stopped)
        #expect((StoppingRule.minimumRounds...8).contains(stopped.rounds))
        #expect(stopped.reason == .precise ? stopped.wider.isEmpty : stopped.reason == .roundsDone)
        #expect(loose.settings.rounds == stopped.rounds)
        #expect(loose.settings.stopping == StoppingRule(precision: 0.5, maxSeconds: 300, maxRounds: 8))
        let rounds = Set(loose.samples.filter { $0.cell.parser == "libxml2" }.map(\.round))
        #expect(rounds == Set(1...stopped.rounds))
        let recorded = try StatsDatabase(path: store).storedRun(loose.environment.runID)
        #expect(recorded?.settings?.rounds == stopped.rounds, "the store has the rounds run, not the most")
        // A time no round fits in: one round, and the run says the time ended it.
        let rushed = try run(["--max-time", "0.001", "--rounds", "5"])
        #expect(rushed.stopped?.reason == .timeSpent)
        #expect(rushed.stopped?.rounds == 1)
        #expect(rushed.stopped?.message.contains("--max-time 0.0 s was spent") == true)
        // Neither option: fixed rounds, nothing said.
        let fixed = try run(["--rounds", "2"])
        #expect(fixed.stopped == nil && fixed.settings.stopping == nil && fixed.settings.rounds == 2)
        // Their bad values.
        let bare = try runBench(["run", "--precision", "2"])
        #expect(bare.status != 0 && words(bare.standardError).contains("'2' is invalid for '--precision <half-width>'"))
        let never = try runBench(["run", "--max-time", "0"])
        #expect(
            never.status != 0 && words(never.standardError).contains("--max-time must be a positive number of seconds"))
    }

    /// The terminal's table: the answer first, the default columns within the width, the others on asking.
    ///
    /// It checks what the table does with figures, so parses that lose the CPU (a busy machine running
    /// the tests) count in them (`--count-preempted`): else such a machine leaves no figure to show.
    @Test func theTableFitsTheTerminalAndOpensWithTheAnswer() throws {
        let directory = try TemporaryDirectory()
        func table(_ extra: [String]) throws -> String {
            let result = try runBench(
                [
                    "run", "--parsers", "libxml2,expat", "--scenario", "parse", "--iterations", "1", "--warmup", "0",
                    "--rounds", "2", "--no-allocation-counts", "--no-store", "--output-dir", directory.path("out"),
                    "--count-preempted",
                ] + extra, environment: ["COLUMNS": "100"])
            #expect(result.status == 0, "\(result.standardError)")
            return result.standardOutput
        }
        let narrow = try table([])
        #expect(narrow.hasPrefix("On this machine, for top300.rss.xml: "), "\(narrow.prefix(200))")
        // "is the fastest" where the shown intervals tell the two apart, "has the lowest time" where not.
        #expect(
            narrow.contains(" is the fastest of the Swift choices")
                || narrow.contains(" has the lowest time of the Swift choices"))
        for line in narrow.split(separator: "\n") where !line.hasPrefix("  /") {
            #expect(line.count <= 100, "\(line)")
        }
        // The key's lines are wrapped at the width, anywhere.
        let key = narrow.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(key.contains("More columns: --columns all"), "\(narrow)")
        // A figure kept by metric (minor faults) is a column or named as one not shown.
        #expect(key.contains("minor faults"), "\(narrow)")
        #expect(!narrow.contains("worker MiB  "))
        let all = try table(["--columns", "all"])
        #expect(all.contains("worker MiB  ") && all.contains("lost CPU") && !all.contains("Not shown:"))
        let some = try table(["--columns", "lost-cpu,time"])
        #expect(some.contains("  parser ") && some.contains("time") && some.contains("lost CPU"))
        #expect(!some.contains("× fastest  "))
    }

    @Test func aWrongParserIsReportedAndNotTimed() throws {
        let directory = try TemporaryDirectory()
        // Foundation drops internal entity text (pinned): it disagrees, so it is not timed.
        let feed = try directory.write(
            "entities.xml",
            Samples.feed([Samples.item(title: "&e; Records")], prolog: "\n<!DOCTYPE rss [<!ENTITY e \"Reprise\">]>"))
        let store = directory.path("s.sqlite")
        let result = try runBench([
            "run", "--feed", feed, "--iterations", "1", "--warmup", "0", "--rounds", "2", "--store", store,
            "--output-dir", directory.path("out"),
            "--scenario", "parse",
        ])
        #if os(Linux)
            #expect(result.status == 1)
            #expect(result.standardOutput.contains("foundation on \(feed): not timed: DISAGREE"))
            #expect(words(result.standardError).contains("foundation on \(feed): not timed"))
            // The store keeps the cell and why: the run read back from it has it as its file has it.
            let file = try RunFiles.read(directory.path("out/latest.json"))
            let notTimed = file.cells.filter { $0.cell.scenario == .notTimed }
            #expect(notTimed.map(\.cell.parser) == ["foundation"])
            let stored = try #require(try StatsDatabase(path: store).storedRun(file.environment.runID))
            #expect(stored.notTimed == notTimed)
            let readBack = RunResult.summarising(
                stored.samples, environment: stored.environment, settings: stored.settings, noise: stored.noise,
                notTimed: stored.notTimed)
            #expect(readBack.cells.filter { $0.cell.scenario == .notTimed } == notTimed)
        #endif
    }

    @Test func badValuesGetClearMessages() throws {
        let help = try runBench(["run", "--help"])
        #expect(help.status == 0 && help.standardOutput.contains("--chunk-size"))
        let unknown = try runBench(["run", "--parsers", "sax9000"])
        #expect(
            unknown.status == 1 && words(unknown.standardError).contains("known parsers: libxml2, expat, c-libxml2"))
        // Lists take commas as well as repeated options, everywhere.
        let listed = try runBench(["run", "--parsers", "expat,sax9000"])
        #expect(listed.status == 1 && words(listed.standardError).contains("unknown parser 'sax9000'"))
        let scenario = try runBench(["run", "--scenario", "parse,upload"])
        #expect(scenario.status == 1 && words(scenario.standardError).contains("unknown scenario 'upload'"))
        let reference = try runBench(["run", "--reference", "null"])
        #expect(reference.status == 1 && words(reference.standardError).contains("--reference: unknown parser 'null'"))
        let missing = try runBench(["run", "--feed", "no/such.xml", "--no-store"])
        #expect(missing.status == 1 && words(missing.standardError).contains("feed not found: no/such.xml"))
        let zero = try runBench(["run", "--iterations", "0"])
        #expect(zero.status == 1 && words(zero.standardError).contains("--iterations must be at least 1"))
        let custom = try runBench(["run", "--network", "custom", "--bandwidth-kbps", "800"])
        #expect(custom.status == 1 && words(custom.standardError).contains("--network custom needs --bandwidth-kbps"))
        let badURL = try runBench(["run", "--url", "ftp://example.com/feed.xml"])
        #expect(badURL.status == 1 && words(badURL.standardError).contains("--url must be an http or https URL"))
        let columns = try runBench(["run", "--columns", "time,speed"])
        #expect(columns.status == 1 && words(columns.standardError).contains("--columns: unknown column 'speed'"))
        let noStore = try runBench(["report", "--store", "/nonexistent/stats.sqlite"])
        #expect(
            noStore.status == 1 && words(noStore.standardError).contains("no stats store at /nonexistent/stats.sqlite"))
        // An empty file is no store, and reading it leaves it as it was (it was made into one).
        let directory = try TemporaryDirectory()
        let empty = try directory.write("empty.sqlite", "")
        for command in ["report", "history"] {
            let result = try runBench([command, "--store", empty])
            #expect(result.status == 1, "\(command): \(result.standardOutput)")
            #expect(words(result.standardError).contains("is an empty file, not a stats store"), "\(command)")
        }
        // A push refused for its source leaves the target as it was: not made.
        let push = try runBench(["store", "push", "--from", empty, "--to", directory.path("target.sqlite")])
        #expect(push.status == 1 && words(push.standardError).contains("is an empty file, not a stats store"))
        #expect(!FileManager.default.fileExists(atPath: directory.path("target.sqlite")))
        let size = try FileManager.default.attributesOfItem(atPath: empty)[.size] as? Int
        #expect(size == 0)
    }

    @Test(.endToEnd)
    func anInterruptedRunKeepsItsFinishedCellsAndStaysIncomplete() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("stats.sqlite")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.benchExecutable)
        // The null baseline's cell comes first; pushed a byte at a time, each parser's cell after it
        // takes 10 times as long (its 400 parses of 16 KiB took a debug build's null cell 8 CPU-s, the
        // calibration workload before each parse).
        process.arguments = [
            "run", "--scenario", "parse", "--iterations", "40", "--chunk-size", "1", "--warmup", "0", "--rounds", "3",
            "--store", store, "--output-dir", directory.path("out"),
        ]
        process.currentDirectoryURL = TestPaths.packageRoot
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until the first cell (the quick null baseline) is stored, then interrupt.
        let deadline = Date().addingTimeInterval(TestWaits.condition)
        var stored = 0
        while Date() < deadline && process.isRunning {
            if FileManager.default.fileExists(atPath: store),
                let count = try? StatsDatabase(path: store).samples(matching: SampleFilter(includeDebug: true)).count,
                count > 0
            {
                stored = count
                break
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        process.interrupt()
        let table = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(stored > 0, "no cell was stored before the deadline")
        let database = try StatsDatabase(path: store)
        let runs = try database.runs()
        #expect(runs.count == 1)
        #expect(runs.first?.complete == false)
        #expect(try database.samples(matching: SampleFilter(includeDebug: true)).count >= stored)
        // The store says what the run's own table says: its noise verdict, and the rounds it began
        // (one of the 3 asked), not the rounds asked.
        let runID = try #require(runs.first).runID
        let run = try #require(try database.storedRun(runID))
        #expect(run.noise != nil, "an interrupted run's noise verdict was not stored")
        #expect(run.settings?.rounds == 1)
        #expect(
            words(table).contains("up to 1 worker per cell (interrupted by SIGINT in round 1 of 3)"),
            "\(table)")
    }

    @Test(.endToEnd)
    func serveAndRunAgainstAURL() throws {
        // `bench serve` on its own, then `bench run --url` against it as if it were a remote feed.
        let server = try ServedFeed()
        defer { withExtendedLifetime(server) {} }  // serving until the test ends
        let url = server.url
        try #require(!url.isEmpty, "bench serve printed no URL")
        #expect(url.hasSuffix("/top300.rss.xml"))

        let directory = try TemporaryDirectory()
        let result = try runBench([
            "run", "--url", url, "--scenario", "download", "--scenario", "conditional", "--parsers", "expat",
            "--rounds", "1",
            "--iterations", "2", "--warmup", "0", "--no-store", "--output-dir", directory.path("out"), "--format",
            "json",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let run = try JSONDecoder().decode(RunResult.self, from: Data(result.standardOutput.utf8))
        let cells = Dictionary(uniqueKeysWithValues: run.cells.map { ("\($0.cell.scenario)/\($0.cell.parser)", $0) })
        #expect(cells["download/expat"]?.songs == 300)
        #expect(cells["download/expat"]?.cell.network == "remote")
        #expect(cells["conditional-200/expat"]?.httpStatus == 200)
        #expect(cells["conditional-304/expat"]?.httpStatus == 304)
        #expect(cells["conditional-304/expat"]?.bytesMedian == 0)
        #expect(cells["conditional-304/expat"]?.songs == 300, "the cached songs are reused")

        let failing = try runBench([
            "run", "--url", url + "?fault=500", "--scenario", "download", "--rounds", "1", "--no-store", "--output-dir",
            directory.path("out"),
        ])
        #expect(failing.status == 1)
        #expect(
            words(failing.standardError).contains("cannot download")
                && words(failing.standardError).contains("HTTP 500"))
    }
}

/// The sweeps check what a sweep does with its figures: parses that lose the CPU (a busy machine
/// running the tests) count in them (`--count-preempted`), else such a machine leaves none to fit.
@Suite("bench sweep")
struct SweepCommandTests {
    /// A small sweep writes every point and the slopes, and its output fits.
    ///
    /// Also the sweep's check of `TerminalWidthTests` (output that fits): its terminal output, the
    /// lines naming the files written included (not `--quiet`), within 100 columns at `COLUMNS=100`.
    /// One sweep process serves both checks.
    @Test(.endToEnd)
    func aSmallSweepWritesEveryPointAndTheSlopes() throws {
        let directory = try TemporaryDirectory()
        let output = directory.path("out")
        let result = try runBench(
            [
                "sweep", "--songs", "20,60", "--chunk-sizes", "512,0", "--chunk-songs", "20", "--rounds", "1",
                "--iterations", "1", "--instructions-up-to", "0", "--no-store", "--output-dir", output,
                "--count-preempted",
            ], environment: TerminalWidthTests.wide)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Scale sweep") && result.standardOutput.contains("Chunk-size sweep"))
        #expect(result.standardOutput.contains("Growth with the feed"))
        #expect(
            TerminalWidthTests.tooWide(result.standardOutput).isEmpty,
            "\(TerminalWidthTests.tooWide(result.standardOutput))")
        let files = try FileManager.default.contentsOfDirectory(atPath: output)
        // The generated feeds are cached under feeds/, named by songs and seed.
        let feeds = try FileManager.default.contentsOfDirectory(atPath: output + "/feeds").sorted()
        #expect(feeds == ["songs-20-seed-20120515.rss.xml", "songs-60-seed-20120515.rss.xml"])
        let csv = try #require(files.first { $0.hasSuffix("-sweep.csv") })
        let rows = try String(contentsOfFile: output + "/" + csv, encoding: .utf8).split(separator: "\r\n")
        // (2 sizes + 2 chunk sizes) × (3 parsers + null), and the header.
        #expect(rows.count == 1 + 4 * 4)
        #expect(files.contains { $0.hasSuffix("-slopes.csv") } && files.contains { $0.hasSuffix("-sweep.html") })
        #expect(files.contains { $0.hasSuffix("-sweep.json") })
        let slopes = try String(
            contentsOfFile: output + "/" + (files.first { $0.hasSuffix("-slopes.csv") } ?? ""), encoding: .utf8)
        #expect(slopes.contains("libxml2,time,byte,ns,"))
        #expect(slopes.contains("expat,allocations,song,allocations,"))
    }

    @Test(.endToEnd)
    func aShapeSweepMeasuresTheDocumentWorkloadBySize() throws {
        let directory = try TemporaryDirectory()
        let output = directory.path("out")
        let result = try runBench([
            "sweep", "--shape", "wide", "--bytes", "20000,60000", "--chunk-sizes", "512,0", "--chunk-bytes", "20000",
            "--rounds", "1", "--iterations", "1", "--instructions-up-to", "0", "--no-store", "--output-dir", output,
            "--quiet", "--count-preempted",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Scale sweep: wide documents of 20000, 60000 bytes"))
        #expect(result.standardOutput.contains("Growth with the document"))
        let feeds = try FileManager.default.contentsOfDirectory(atPath: output + "/feeds").sorted()
        #expect(feeds == ["wide-20000-seed-20261125.xml", "wide-60000-seed-20261125.xml"])
        let files = try FileManager.default.contentsOfDirectory(atPath: output)
        let csv = try #require(files.first { $0.hasSuffix("-sweep.csv") })
        let rows = try String(contentsOfFile: output + "/" + csv, encoding: .utf8).split(separator: "\r\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        let header = try #require(rows.first)
        // (2 sizes + 2 chunk sizes) × (3 parsers + null + sink), and the header.
        #expect(rows.count == 1 + 4 * 5)
        let column = { (name: String) in header.firstIndex(of: name) ?? 0 }
        let libxml2 = rows.filter { $0[column("parser")] == "libxml2" && $0[column("sweep")] == "scale" }
        #expect(libxml2.map { $0[column("size")] } == ["20000", "60000"])
        #expect(libxml2.allSatisfy { $0[column("size_unit")] == "bytes" && $0[column("songs")] == "0" })
        // The elements are the document's measured shape: the larger document has more.
        let elements = libxml2.compactMap { Int($0[column("elements")]) }
        #expect(elements.count == 2 && elements[0] > 0 && elements[1] > 2 * elements[0])
        #expect(rows.contains { $0[column("parser")] == "sink" && !$0[column("median_ms")].isEmpty })
        let slopes = try String(
            contentsOfFile: output + "/" + (files.first { $0.hasSuffix("-slopes.csv") } ?? ""), encoding: .utf8)
        #expect(slopes.contains("expat,allocations,element,allocations,"))
        #expect(!slopes.contains("songs' memory") && !slopes.contains("\nsink,"))
    }

    @Test func badListsGetClearMessages() throws {
        let songs = try runBench(["sweep", "--songs", "300,lots"])
        #expect(songs.status != 0 && words(songs.standardError).contains("'lots' is not a song count"))
        let chunks = try runBench(["sweep", "--chunk-sizes", "-5"])
        #expect(chunks.status != 0 && words(chunks.standardError).contains("--chunk-sizes"))
        let nothing = try runBench(["sweep", "--songs", "", "--chunk-sizes", "none"])
        #expect(nothing.status != 0 && words(nothing.standardError).contains("nothing to sweep"))
        let mixed = try runBench(["sweep", "--shape", "deep", "--songs", "300"])
        #expect(mixed.status != 0 && words(mixed.standardError).contains("sized by --bytes"))
        let notADocumentParser = try runBench(["sweep", "--shape", "deep", "--parsers", "xmlcoder"])
        #expect(
            notADocumentParser.status != 0
                && words(notADocumentParser.standardError).contains("cannot walk a deep document"))
        let bytes = try runBench(["sweep", "--shape", "deep", "--bytes", "0"])
        #expect(bytes.status != 0 && words(bytes.standardError).contains("'0' is not a size"))
    }
}
