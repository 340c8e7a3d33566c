import BenchResults
import BenchTestSupport
import FeedParsers
import Foundation
import SongFeed
import Testing

@testable import BenchEngine

/// What the engine makes of a run's options before anything runs (`RunRequest`): the scenarios
/// chosen, the checks that span several options, and the plan, for `bench run` to parse and print.
@Suite("A run's request: scenarios, checks and plan")
struct RunRequestCheckTests {
    typealias Problem = RunRequest.Problem

    @Test func theScenariosAreTheNamedOnesOrTheDefaultRunsAndAnUnknownOneIsRefused() throws {
        let none = try RunRequest.scenarios(named: [], workload: nil, implied: .songs)
        #expect(none.named.isEmpty && none.workload == .songs)
        #expect(RunRequest.selected(named: [], workload: .songs, countsInstructions: false) == [.parse, .download])
        #expect(RunRequest.selected(named: [], workload: .songs, countsInstructions: true) == [.parse])
        // In the list's order, whatever the order named.
        let named = try RunRequest.scenarios(named: ["download", "parse"], workload: nil, implied: .songs)
        #expect(
            RunRequest.selected(named: named.named, workload: .songs, countsInstructions: false) == [.parse, .download])
        #expect(
            throws: Problem(
                "unknown scenario 'upload'; known: \(ScenarioID.allCases.map(\.rawValue).joined(separator: ", "))")
        ) {
            try RunRequest.scenarios(named: ["parse", "upload"], workload: nil, implied: .songs)
        }
    }

    @Test func theDocumentScenarioIsTheDocumentWorkloadAlone() throws {
        let document = try RunRequest.scenarios(named: ["document"], workload: nil, implied: .songs)
        #expect(document.workload == .document)
        #expect(
            RunRequest.selected(named: document.named, workload: .document, countsInstructions: false) == [
                .parseFromMemory(.document)
            ])
        // --document or --corpus imply documents with no scenario named.
        #expect(try RunRequest.scenarios(named: [], workload: nil, implied: .document).workload == .document)
        #expect(throws: Problem.self) {
            try RunRequest.scenarios(named: ["document", "parse"], workload: nil, implied: .songs)
        }
        #expect(throws: Problem("--scenario document is the document workload, not --workload songs")) {
            try RunRequest.scenarios(named: ["document"], workload: .songs, implied: .songs)
        }
    }

    @Test func listsTakeWholeNumbersFromOneTo100000() throws {
        #expect(try RunRequest.positiveList([], option: "--page-size") == nil)
        #expect(try RunRequest.positiveList(["25", "100"], option: "--page-size") == [25, 100])
        // Each once: "25,025" is 25 twice.
        #expect(try RunRequest.positiveList(["25", "100", "025"], option: "--page-size") == [25, 100])
        for bad in ["0", "-3", "x", "100001"] {
            #expect(throws: Problem("--page-size: '\(bad)' is not a whole number from 1 to 100000")) {
                try RunRequest.positiveList(["2", bad], option: "--page-size")
            }
        }
        // Threads up to a thousand (100,000 crashed every worker).
        #expect(try RunRequest.positiveList(["1000"], option: "--threads", most: RunRequest.mostThreads) == [1000])
        #expect(throws: Problem("--threads: '1001' is not a whole number from 1 to 1000")) {
            try RunRequest.positiveList(["1001"], option: "--threads", most: RunRequest.mostThreads)
        }
    }

    /// An option that sets scenarios the run does not have is refused, naming them, rather than
    /// left to change nothing; with one of them in the run it passes.
    @Test func anOptionForScenariosTheRunDoesNotHaveIsRefused() throws {
        func problem(_ option: ScenarioOption, scenarios: [ScenarioID]) -> String? {
            var request = RunRequest(parsers: ["libxml2", "expat"], scenarios: scenarios)
            request.optionsGiven = [option]
            do {
                try request.check()
                return nil
            } catch {
                return error.description
            }
        }
        let takers: [ScenarioOption: [ScenarioID]] = [
            .pageSize: [.paged], .maxConcurrent: [.queue, .cancel], .queuePageSize: [.queue, .cancel],
            .threads: [.concurrent], .downloadsAtOnce: [.download, .conditional],
            .network: [.download, .conditional, .paged, .fields, .gzip, .queue, .cancel],
            .downloadRounds: [.download, .conditional, .paged, .fields, .gzip, .queue, .cancel, .store, .read],
        ]
        #expect(Set(takers.keys) == Set(ScenarioOption.allCases))
        for (option, scenarios) in takers {
            #expect(ScenarioID.allCases.filter { $0.options.contains(option) } == scenarios, "\(option)")
            let refused = problem(option, scenarios: [.parse])
            #expect(
                refused?.hasPrefix("\(option.rawValue) sets the \(scenarios[0].rawValue)") == true, "\(refused ?? "")")
            #expect(refused?.hasSuffix("or leave \(option.rawValue) out") == true, "\(refused ?? "")")
            for scenario in scenarios {
                #expect(problem(option, scenarios: [.parse, scenario]) == nil, "\(option) with \(scenario)")
            }
        }
        #expect(
            problem(.threads, scenarios: [.parse, .download])
                == "--threads sets the concurrent scenario, which this run does not have (its scenarios: parse, "
                + "download): add it with --scenario, or leave --threads out")
    }

    @Test func theChecksNameWhatNoRunCanDo() throws {
        func problem(_ change: (inout RunRequest) -> Void) -> String? {
            var request = RunRequest(parsers: ["libxml2", "expat"], scenarios: [.parse, .download])
            change(&request)
            do {
                try request.check()
                return nil
            } catch {
                return error.description
            }
        }
        #expect(problem { _ in } == nil)
        #expect(
            problem { $0.url = "ftp://example.com/feed.xml" }
                == "--url must be an http or https URL, not 'ftp://example.com/feed.xml'")
        #expect(problem { $0.reference = "null" }?.hasPrefix("--reference: unknown parser 'null'") == true)
        #expect(problem { $0.downloadRounds = 0 } == "--download-rounds must be at least 1")
        for width in [0, 65] {
            #expect(problem { $0.downloadsAtOnce = width } == "--downloads-at-once must be from 1 to 64")
        }
        #expect(problem { $0.downloadsAtOnce = 64 } == nil)
        // A precision with no ratio to watch could never end the rounds.
        for alone in [["c-libxml2"], ["libxml2", "memchr"]] {
            #expect(
                problem {
                    $0.parsers = alone
                    $0.precision = 0.5
                }?.hasPrefix("--precision 50% watches the ratios between parsers") == true)
        }
        #expect(
            problem {
                $0.parsers = ["libxml2", "c-libxml2"]
                $0.precision = 0.5
            } == nil)
        #expect(
            problem { $0.countsInstructions = true }?.hasPrefix(
                "--counter instructions counts the parse scenario only, not download") == true)
        #expect(problem { $0.slowdownPercent = 1001 } == "--inject-slowdown must be 0 to 1000 (percent)")
        for songs in [0, FeedGenerator.maxSongs + 1, Int.max] {
            #expect(problem { $0.songs = songs } == "--songs must be from 1 to 100000 (a feed of about 300 MB)")
        }
        #expect(problem { $0.songs = FeedGenerator.maxSongs } == nil)
        // A reference the run does not measure would head the tables over other figures.
        #expect(
            problem { $0.reference = "foundation" }
                == "--reference foundation is not among the parsers measured (libxml2, expat): add it to --parsers")
        #expect(problem { $0.reference = "expat" } == nil)
        // A run without a parse table has nothing for a reference to head.
        #expect(
            problem {
                $0.scenarios = [.download]
                $0.reference = "expat"
            }
                == "--reference expat ranks the parse tables (× fastest); download has none: add --scenario parse or drop --reference"
        )
        #expect(
            problem {
                $0.scenarios = [.download, .store]
                $0.reference = "expat"
            }?.hasPrefix("--reference expat ranks the parse tables (× fastest); download, store have none") == true)
        #expect(
            problem {
                $0.parsers = ["libxml2", "expat", "memchr"]
                $0.reference = "memchr"
            } == "--reference memchr: the floor parses nothing and is never ranked; name a parser")
        #expect(problem { $0.maxSeconds = 0 } == "--max-time must be a positive number of seconds")
        #expect(problem { $0.queuePageSize = 0 } == "--queue-page-size must be at least 1")
        #expect(
            problem {
                $0.scenarios = [.parse]
                $0.countsInstructions = true
                $0.precision = 0.02
            }?.hasPrefix("--precision and --max-time stop timed rounds") == true)
        #expect(
            problem {
                $0.scenarios = [.paged]
                $0.url = "https://example.com/feed.xml"
            }?.hasPrefix("--url: the practices (paged) are measured against the embedded server") == true)
        #expect(
            problem {
                $0.workload = .document
                $0.scenarios = [.parseFromMemory(.document)]
                $0.songs = 3
            } == "--url and --songs give feeds for the songs workload, not documents")
        let walker = try #require(
            ParserRegistry.names.first {
                ParserRegistry.documentParser(named: $0) == nil && $0 != ParserRegistry.baseline.name
            })
        #expect(
            problem {
                $0.workload = .document
                $0.scenarios = [.parseFromMemory(.document)]
                $0.parsers = [walker]
            }?.hasPrefix("\(walker) has no document workload, so it cannot walk a document") == true)
    }

    @Test func thePlanHasTheFeedsScenariosAndChoicesAsked() throws {
        let directory = try TemporaryDirectory()
        var request = RunRequest(parsers: ["expat"], scenarios: [.parse, .queue, .concurrent])
        request.songs = 3
        (request.pageSizes, request.queueWidths, request.threadCounts) = ([10], [3], [1, 2])
        request.queuePageSize = 7
        request.allowUnverified = ["expat"]
        request.network = .lte
        let plan = try request.plan(
            outputDirectory: directory.url.path, executable: "/bin/true", instructionCounter: nil,
            feedHost: { _, _ in throw CocoaError(.featureUnsupported) }, warn: { _ in })
        #expect(plan.feeds == [directory.path("feeds/songs-3-seed-\(FeedGenerator.defaultSeed).rss.xml")])
        #expect(plan.parsers == ["expat"] && plan.scenarios == [.parse, .queue, .concurrent])
        #expect(plan.pageSizes == [10] && plan.queueWidths == [3] && plan.threadCounts == [1, 2])
        #expect(plan.queuePageSize == 7 && plan.allowUnverified == ["expat"] && plan.network == .lte)
        // /bin/true has no allocation interposer beside it: the plan leaves the counts out.
        var settings = request.settings
        settings.countsAllocations = false
        #expect(plan.settings == settings)
        // The server's starter reaches the plan (here one that fails: nothing is started).
        #expect(throws: CocoaError.self) { try plan.feedHost?(plan.feeds, plan.network) }
        // What the request leaves unsaid keeps the plan's defaults.
        let plain = try RunRequest(parsers: ["expat"], scenarios: [.parse]).plan(
            outputDirectory: directory.url.path, executable: "/bin/true", instructionCounter: nil,
            feedHost: { _, _ in throw CocoaError(.featureUnsupported) }, warn: { _ in })
        #expect(
            plain.pageSizes == [25, 100, 300] && plain.queueWidths == [1, 2, 4] && plain.threadCounts == [1, 2, 4])
    }
}
