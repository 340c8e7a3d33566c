// The embedded feed server's tests: in a build with the suite's trait FeedServer.
#if FeedServer
    import BenchEngine
    import BenchWorker
    import BenchResults
    import BenchTestSupport
    import FeedParsers
    import FeedServing
    import FeedTransport
    import Foundation
    import Testing

    @Suite("The download scenario in the runner")
    struct DownloadScenarioTests {
        static func plan(iterations: Int, scenarios: [ScenarioID], remote: [String: URL] = [:], timeout: Double = 30)
            -> RunPlan
        {
            RunPlan(
                parsers: ["foundation", "libxml2", "expat"], feeds: [TestPaths.top300],
                settings: RunSettings(
                    iterations: iterations, warmup: 0, rounds: 1, chunkSize: 16_384, timeoutSeconds: timeout),
                executable: TestPaths.workerExecutable, debugBuild: true, scenarios: scenarios,
                network: .custom(bandwidthKbps: 40_000, rttMs: 5), remoteURLs: remote, feedHost: FeedServer.starter)
        }

        @Test func downloadCellsMeasureTheTransfer() throws {
            let runner = BenchRunner(plan: Self.plan(iterations: 2, scenarios: [.download, .conditional]))
            let checks = try runner.checkAgreement()
            let cells = runner.cells(for: checks)
            let downloads: [CellKey] = cells.filter { $0.scenario == CellScenario.download }
            #expect(downloads.count == 4)
            #expect(cells.allSatisfy { $0.network == "custom-40000kbps-5ms" && $0.chunkSize == 0 })
            let runs = try runner.measure(
                cells, referenceDigests: [TestPaths.top300: checks[0].verification.referenceDigest ?? ""],
                progress: { _ in },
                cellFinished: { _ in })
            let summaries = BenchSession.summarise(runs, cells: cells, samples: runs.flatMap(\.samples), reference: nil)
            #expect(summaries.count == 12)
            for summary in summaries {
                #expect(
                    summary.failed == 0, "\(summary.cell.scenario)/\(summary.cell.parser): \(summary.outcome ?? "")")
                #expect(summary.wall?.count == 2)
                #expect((summary.downloadMedianNs ?? 0) > 0)
                switch summary.cell.scenario {
                case .conditional304:
                    #expect(summary.httpStatus == 304 && summary.bytesMedian == 0)
                default:
                    #expect(summary.httpStatus == 200 && summary.bytesMedian == 901_440)
                    // 901,440 bytes at 40 Mbit/s take 180 ms; the server sends a slice every 10 ms, so the
                    // last byte (stamped when it arrives, before its parse) may land up to one slice early.
                    #expect((summary.downloadMedianNs ?? 0) >= 170e6)
                }
                if summary.cell.scenario == .download, summary.cell.parser != "null" {
                    #expect(summary.songs == 300)
                    #expect((summary.totalMedianNs ?? 0) >= (summary.downloadMedianNs ?? 0))
                }
            }
            // The push parsers' first song arrives long before their last byte; Foundation's after it.
            for summary in summaries where summary.cell.scenario == .download && summary.cell.parser != "null" {
                let firstSong = summary.firstSongMedianNs ?? 0
                let download = summary.downloadMedianNs ?? 0
                if summary.cell.parser == "foundation" {
                    #expect(firstSong >= download)
                } else {
                    #expect(firstSong < download)
                }
            }
        }

        /// A plan whose cells fetch their feed from the embedded server, given no way to start one, stops
        /// before any worker starts, saying so: not a run of failed downloads, and nothing recorded.
        @Test func aPlanWithoutAFeedHostStopsBeforeItsFirstWorker() throws {
            var plan = Self.plan(iterations: 1, scenarios: [.parse, .download])
            plan.feedHost = nil
            #expect(plan.needsFeedHost)
            // Through a session: refused before the agreement check's workers and before the run begins.
            // (The worker executable does not exist: a worker started would fail differently.)
            plan.executable = "/nonexistent/bench"
            let log = CallLog()
            var checking = 0
            #expect(throws: BenchRunner.MissingFeedHost.self) {
                try BenchSession(plan: plan).run(
                    environment: CallLog.environment, recorder: log, checking: { checking += 1 })
            }
            #expect(checking == 0 && log.recorded.isEmpty, "\(log.recorded)")
            // A session given checks already made refuses before the run is recorded.
            #expect(throws: BenchRunner.MissingFeedHost.self) {
                try BenchSession(plan: plan).run(checks: [], environment: CallLog.environment, recorder: log)
            }
            #expect(log.recorded.isEmpty, "\(log.recorded)")
            // A plan whose every feed is a --url's needs no server.
            var remote = plan
            remote.remoteURLs = [TestPaths.top300: URL(fileURLWithPath: "/")]
            #expect(!remote.needsFeedHost)
            // The runner itself, handed download cells.
            let feed = try FeedFile(path: TestPaths.top300)
            let cell = CellKey(
                parser: "expat", scenario: .download, feedPath: feed.path, feedSHA256: feed.sha256,
                feedBytes: feed.bytes.count, chunkSize: 0, network: plan.network.name)
            var started = 0
            let error = #expect(throws: BenchRunner.MissingFeedHost.self) {
                try BenchRunner(plan: plan).measure(
                    [cell], referenceDigests: [:], progress: { _ in started += 1 }, cellFinished: { _ in })
            }
            #expect(error?.description.contains("embedded server") == true)
            #expect(started == 0)
        }

        @Test func aFailingDownloadFailsItsIterationsAndTheRunGoesOn() throws {
            let server = try FeedServer.start(feeds: [TestPaths.top300], profile: .loopback)
            defer { try? server.stop() }
            let broken = try #require(
                URL(string: server.url(for: "top300.rss.xml").absoluteString + "?fault=reset&at=100000"))
            let runner = BenchRunner(
                plan: Self.plan(iterations: 2, scenarios: [.download], remote: [TestPaths.top300: broken]))
            let feed = try FeedFile(path: TestPaths.top300)
            let cells = ["expat", "libxml2"].map {
                CellKey(
                    parser: $0, scenario: .download, feedPath: feed.path, feedSHA256: feed.sha256,
                    feedBytes: feed.bytes.count, chunkSize: 0, network: "remote")
            }
            var finished = 0
            let runs = try runner.measure(
                cells, referenceDigests: [:], progress: { _ in }, cellFinished: { _ in finished += 1 })
            #expect(finished == 2)
            for run in runs {
                #expect(run.samples.count == 2)
                #expect(
                    run.samples.allSatisfy { $0.error?.contains("connection lost in the middle of the body") == true })
                #expect(run.samples.allSatisfy { $0.error?.contains("body bytes") == true }, "says at which byte")
            }
            #expect(
                BenchSession.summarise(runs, cells: cells, samples: runs.flatMap(\.samples), reference: nil).allSatisfy
                {
                    $0.failed == 2 && $0.wall == nil
                })
        }
    }
#endif
