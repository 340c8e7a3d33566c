import enum BenchEngine.RunDefaults
import BenchTestSupport
import FeedParsers
import Foundation
import SongFeed
import Testing

@testable import BenchCLI

/// Runs the built `bench` as a user would and checks its output and exit status.
@Suite("bench, end to end")
struct BenchCommandTests {
    /// `bench verify` checks every feed in Data/, and its output fits.
    ///
    /// Also the check of `TerminalWidthTests` (output that fits) for `bench verify` off a terminal:
    /// within 100 columns at `COLUMNS=100`, and no progress. One process serves both (Data/ holds
    /// the one feed, whose check takes a debug build 7 CPU-s).
    @Test func verifyChecksTheFeedsInData() throws {
        let result = try runBench(["verify"], environment: TerminalWidthTests.wide)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            TerminalWidthTests.tooWide(result.standardOutput).isEmpty,
            "\(TerminalWidthTests.tooWide(result.standardOutput))")
        #expect(!words(result.standardError).contains("\u{1B}"), "no progress off a terminal")
        #expect(result.standardOutput.contains("Data/top300.rss.xml"))
        for parser in ["foundation", "libxml2", "expat"] {
            let line = result.standardOutput.split(separator: "\n").first { $0.hasPrefix("  \(parser) ") }
            #expect(line?.hasSuffix("agree") == true, "\(parser): \(line ?? "missing")")
            #expect(line?.contains(" 300 ") == true)
        }
        #expect(result.standardOutput.contains("All parsers agree"))
    }

    @Test func noArgumentsMeansRun() throws {
        // Parse only: running it here would write into the package's Results/.
        let command = try Bench.parseAsRoot([])
        #expect(command is Run)
        let run = try #require(command as? Run)
        let settings = try run.settings()
        #expect(
            run.measuring.iterations == nil && settings.warmup == 2 && settings.chunkSize == 16_384
                && settings.rounds == 40 && settings.downloadRounds == 5)
        // At most 40 rounds: the parse cells stop once their ratios are within ±2%, from round 10 on.
        #expect(settings.stopping?.precision == 0.02 && settings.stopping?.floorRounds == 10)
        #expect(settings.stopping?.maxSeconds == nil && settings.stopping?.maxRounds == 40)
        #expect(RunDefaults.iterations.parse == 2 && RunDefaults.iterations.download == 2)
        #expect(settings.downloadIterationsPerWorker == 2)
        // A run with a practice keeps the 3 its practices were measured with, for its downloads too.
        let practices = try #require(try Bench.parseAsRoot(["run", "--scenario", "download,paged"]) as? Run)
        #expect(try practices.settings().downloadIterationsPerWorker == RunDefaults.iterations.practice)
        #expect(RunDefaults.iterations.practice == 3)
        #expect(RunDefaults.downloadWarmup == 1)
        // Parse workers warm up twice, download and practice workers once; --warmup sets both.
        #expect(settings.warmup == 2 && settings.downloadWarmupPerWorker == 1 && settings.iterations == 2)
        let warmed = try #require(try Bench.parseAsRoot(["run", "--warmup", "3"]) as? Run).settings()
        #expect(warmed.warmup == 3 && warmed.downloadWarmupPerWorker == 3)
        #expect(run.storeOptions.store == "Results/stats.sqlite" && run.output.outputDirectory == "Results")
        #expect(try run.selectedScenarios == [.parse, .download])
        // Lists: commas and repeated options alike.
        let listed = try #require(
            try Bench.parseAsRoot(["run", "--parsers", "libxml2,expat", "--parsers", "foundation"]) as? Run)
        #expect(listed.parserOptions.names == ["libxml2", "expat", "foundation"])
        let all = try #require(try Bench.parseAsRoot(["run", "--parsers", "all"]) as? Run)
        #expect(all.parserOptions.names == ParserRegistry.names)
        #expect(run.parserOptions.names(default: ParserRegistry.defaultNames) == ParserRegistry.defaultNames)
        #expect(throws: (any Error).self) { try Bench.parseAsRoot(["run", "--parsers", "libxml2,nope"]) }
        let scenarios = try #require(try Bench.parseAsRoot(["run", "--scenario", "download,parse"]) as? Run)
        #expect(try scenarios.selectedScenarios == [.parse, .download])
        // --network takes the profiles' own names, and custom.
        #expect(NetworkOptions.Name.allValueStrings == ["loopback", "wifi", "lte", "3g", "edge", "custom"])
        let lte = try #require(try Bench.parseAsRoot(["run", "--network", "3g"]) as? Run)
        #expect(try lte.request().network == .threeG)
    }

    @Test func dumpWritesTheAgreedSongsAsJSON() throws {
        let directory = try TemporaryDirectory()
        let dump = directory.path("songs.json")
        let result = try runBench(["verify", "--chunk-sizes", "512,whole", "--dump", dump, "Data/top300.rss.xml"])
        #expect(result.status == 0, "\(result.standardError)")
        let data = try Data(contentsOf: URL(fileURLWithPath: dump))
        let objects = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(objects.count == 300)
        #expect(objects.allSatisfy { Set($0.keys) == ["title", "category", "artist", "album", "releaseDate"] })
        #expect(objects.contains { $0["releaseDate"] is NSNull })
        #expect(
            objects.allSatisfy {
                ($0["releaseDate"] as? String)?.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil
                    || $0["releaseDate"] is NSNull
            })
        #expect(try JSONDecoder().decode([Song].self, from: data) == FeedGenerator(songs: 300).generate().songs)
    }

    @Test func aMalformedFeedExitsOneAndNamesTheParser() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("bad.xml", "<rss><channel><item><title>x</title></item></channel>")
        let result = try runBench(["verify", path])
        #expect(result.status == 1)
        #expect(words(result.standardError).contains("libxml2 FAILED"), "\(result.standardError)")
        #expect(result.standardOutput.contains("foundation") && result.standardOutput.contains("memchr"))
        #expect(result.standardOutput.contains("libxml2") && result.standardOutput.contains("FAILED"))
    }

    @Test func aCrashingParserIsReportedAndTheOthersStillRun() throws {
        #if os(Linux)
            let directory = try TemporaryDirectory()
            let path = try directory.write(
                "attlist.xml",
                Samples.feed([Samples.item()], prolog: "\n<!DOCTYPE rss [<!ATTLIST item id CDATA #IMPLIED>]>"))
            let result = try runBench(["verify", "--chunk-sizes", "whole", path])
            #expect(result.status == 1)
            #expect(result.standardOutput.contains("CRASHED: worker crashed with signal 11 (SIGSEGV)"))
            // Every parser over Foundation's XMLParser crashes; the other six agree, and the floor is not compared.
            #expect(result.standardOutput.split(separator: "\n").filter { $0.hasSuffix("agree") }.count == 6)
            #expect(result.standardOutput.components(separatedBy: "CRASHED").count - 1 == 4)
        #endif
    }

    @Test func aMissingFeedIsNamed() throws {
        let result = try runBench(["verify", "no/such/feed.xml"])
        #expect(result.status == 1)
        #expect(words(result.standardError).contains("Error: not checked: no such file: no/such/feed.xml"))
    }

    /// Only the floor named: nothing to compare, an error before any worker (it ran the others beside
    /// it, printed "agree" for them, then "no parser succeeded").
    @Test func onlyTheFloorIsNothingToVerify() throws {
        for workload in ["songs", "document"] {
            let result = try runBench(["verify", "--parsers", "memchr", "--workload", workload, TestPaths.top300])
            #expect(result.status != 0)
            let noun = workload == "songs" ? "songs" : "events"
            let said = "memchr builds no \(noun) to compare, so there is nothing to check"
            #expect(words(result.standardError).contains(said), "\(result.standardError)")
            #expect(!result.standardOutput.contains("agree"), "\(result.standardOutput)")
        }
    }

    /// Where `bench verify --dump` and `bench conformance` write is checked before any parse: both
    /// ran their whole check, then said they could not write.
    @Test func whereTheFilesGoIsCheckedFirst() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("a-file", "not a directory")
        let dump = try runBench(["verify", "--dump", file + "/songs.json", TestPaths.top300])
        #expect(dump.status != 0 && words(dump.standardError).contains("--dump: cannot write into \(file)"))
        #expect(!dump.standardOutput.contains("agree"), "\(dump.standardOutput)")
        let conformance = try runBench(["conformance", directory.url.path, "--output-dir", file + "/out"])
        #expect(conformance.status == 1)
        #expect(words(conformance.standardError).contains("cannot create the output directory \(file)/out"))
    }

    @Test func anUnknownParserListsTheKnownOnes() throws {
        let result = try runBench(["verify", "--parsers", "sax9000"])
        #expect(result.status == 1)
        #expect(
            words(result.standardError).contains(
                "unknown parser 'sax9000'; known parsers: \(ParserRegistry.names.joined(separator: ", "))"))
    }

    @Test func generateReproducesTheCommittedFeed() throws {
        let directory = try TemporaryDirectory()
        let output = directory.path("feed.xml")
        let result = try runBench([
            "generate", "--songs", "300", "--seed", "\(FeedGenerator.defaultSeed)", "--output", output,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: output))
                == Data(contentsOf: URL(fileURLWithPath: TestPaths.top300)))
    }

    /// `--output -` is standard output, as with no `--output` (it wrote a file named "-").
    @Test func generateWritesADashToStandardOutput() throws {
        let directory = try TemporaryDirectory()
        let result = try runBench(["generate", "--songs", "3", "--output", "-"], in: directory.url)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("<?xml"), "\(result.standardOutput.prefix(200))")
        #expect(result.standardOutput.components(separatedBy: "<item>").count == 4)
        #expect(!FileManager.default.fileExists(atPath: directory.path("-")))
    }

    @Test func listNamesEveryParser() throws {
        let result = try runBench(["list"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("libxml2 2."))
        #expect(result.standardOutput.contains("expat 2."))
        #expect(result.standardOutput.contains("foundation"))
    }

    @Test func helpDescribesTheTool() throws {
        let result = try runBench(["--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("verify"))
        let subcommands = result.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(subcommands.contains { $0.hasPrefix("run (default)") })
        #expect(subcommands.contains { $0.hasPrefix("verify ") } && subcommands.contains { $0.hasPrefix("report ") })
        #expect(!subcommands.contains { $0.hasPrefix("worker") }, "the worker subcommand is hidden")
    }

    // Parse-only checks of the command line.

    @Test func chunkSizesParse() throws {
        #expect(try ChunkSizeList.parse("1,7, 512,whole") == [1, 7, 512, 0])
        #expect(throws: (any Error).self) { try ChunkSizeList.parse("1,x") }
        #expect(throws: (any Error).self) { try ChunkSizeList.parse("-3") }
    }

    /// A value named twice in a list is read once: a parser or feed named twice made two rows of it
    /// with its samples pooled, a run ID twice a comparison of a run's samples with themselves.
    @Test func aListNamesEachValueOnce() throws {
        #expect(ListArgument.split(["expat,expat", "libxml2", " expat "]) == ["expat", "libxml2"])
        #expect(try ChunkSizeList.parse("512,0,whole,512") == [512, 0])
        let run = try #require(
            try Bench.parseAsRoot(["run", "--parsers", "expat,libxml2,expat", "--feed", "a.xml,a.xml"]) as? Run)
        #expect(try run.request().parsers == ["expat", "libxml2"])
        #expect(try run.request().feeds == ["a.xml"])
        let sweep = try #require(
            try Bench.parseAsRoot(["sweep", "--songs", "30,030,300", "--chunk-sizes", "0,0,512"]) as? Sweep)
        #expect(try sweep.sizes == [30, 300])
        #expect(try sweep.chunkSizeList == [0, 512])
        // 'all' is the command's own: every song parser for bench hostile (memchr builds none).
        let hostile = try #require(try Bench.parseAsRoot(["hostile", "--parsers", "all"]) as? Hostile)
        #expect(hostile.parserOptions.names(all: Hostile.defaultParsers) == Hostile.defaultParsers)
        #expect(!Hostile.defaultParsers.contains("memchr"))
    }

    /// What would crash, take unbounded memory, check nothing or be ignored is refused up front,
    /// with the option and what it takes.
    @Test(arguments: [
        (["generate", "--songs", "100000000"], "--songs must be from 1 to 100000"),
        (["generate", "--songs", "0"], "--songs must be from 1 to 100000"),
        (["generate", "--songs", "9223372036854775807"], "--songs must be from 1 to 100000"),
        (["generate", "--shape", "deep", "--bytes", "100000000000000"], "--bytes must be from 1 to 268435456"),
        (["generate", "--shape", "deep", "--songs", "5"], "--songs and --format make a feed"),
        (["generate", "--shape", "deep", "--format", "atom"], "--songs and --format make a feed"),
        (["generate", "--songs", "5", "--bytes", "100"], "--bytes sizes a --shape document"),
        (["run", "--songs", "100001"], "--songs must be from 1 to 100000"),
        (["run", "--scenario", "concurrent", "--threads", "100000"], "--threads: '100000' is not a whole number"),
        (["run", "--scenario", "parse", "--threads", "2"], "--threads sets the concurrent scenario"),
        (["run", "--scenario", "parse", "--network", "lte"], "--network sets the download, conditional"),
        (["run", "--parsers", "libxml2,expat", "--reference", "foundation"], "--reference foundation is not among"),
        (["run", "--parsers", ""], "--parsers names no parser"),
        (["sweep", "--songs", "100000000"], "--songs: '100000000' is not a song count from 1 to 100000"),
        (["sweep", "--shape", "wide", "--bytes", "300000000"], "--bytes: '300000000' is not a size from 1 to"),
        (["conformance", "--parsers", "memchr"], "memchr parses nothing"),
        (["sweep", "--chunk-bytes", "1000"], "--chunk-bytes sizes the document of a --shape sweep"),
        (["run", "--feed", ""], "--feed names nothing"), (["run", "--scenario", ","], "--scenario names nothing"),
        (["run", "--scenario", "concurrent", "--threads", ""], "--threads names nothing"),
        (
            ["run", "--parsers", "libxml2,expat", "--allow-unverified", "bogus"],
            "--allow-unverified bogus is not among"
        ),
        (
            ["run", "--url", "http://127.0.0.1:1/feed.xml", "--scenario", "download", "--network", "lte"],
            "a --url feed comes over the real network"
        ),
        (["run", "--parsers", "libxml2,memchr", "--reference", "memchr"], "the floor parses nothing"),
        (["sweep", "--shape", "wide", "--chunk-songs", "5"], "--chunk-songs sizes a feed"),
        (["sweep", "--chunk-sizes", "none", "--chunk-songs", "5"], "which --chunk-sizes none skips"),
        (["run", "--format", "csv", "--columns", "all"], "--columns chooses the terminal table's columns"),
        (["run", "--no-store", "--store", "x.sqlite"], "--store x.sqlite names a store that --no-store does not use"),
        (["sweep", "--store", "x.sqlite", "--no-store"], "--store x.sqlite names a store that --no-store does not"),
    ])
    func anUnusableOptionIsRefused(_ arguments: [String], _ message: String) {
        do {
            _ = try Bench.parseAsRoot(arguments)
            Issue.record("\(arguments) was accepted")
        } catch {
            let text = Bench.fullMessage(for: error)
            #expect(text.contains(message), "\(arguments): \(text)")
        }
    }

    @Test func validationRejectsBadOptions() {
        #expect(throws: (any Error).self) { try Bench.parseAsRoot(["verify", "--parsers", "nope"]) }
        #expect(throws: (any Error).self) { try Bench.parseAsRoot(["verify", "--timeout", "0"]) }
        #expect(throws: (any Error).self) { try Bench.parseAsRoot(["verify", "--dump", "x.json", "a.xml", "b.xml"]) }
        #expect(throws: (any Error).self) { try Bench.parseAsRoot(["generate", "--songs", "-1"]) }
    }
}
