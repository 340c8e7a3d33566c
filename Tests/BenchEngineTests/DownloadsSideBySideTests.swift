// The embedded feed server's tests: in a build with the suite's trait FeedServer.
#if FeedServer
    import BenchResults
    import BenchTestSupport
    import FeedServing
    import FeedTransport
    import Foundation
    import Testing

    @testable import BenchEngine
    @testable import BenchWorker

    /// Download workers side by side (`--downloads-at-once`): which workers of a round run at once, and
    /// that each, on a link of its own, is still shaped at the profile's bandwidth and complete.
    @Suite("Download workers side by side")
    struct DownloadsSideBySideTests {
        static func plan(
            width: Int, scenarios: [ScenarioID], network: NetworkProfile = .custom(bandwidthKbps: 40_000, rttMs: 5),
            remote: [String: URL] = [:]
        ) -> RunPlan {
            var settings = RunSettings(iterations: 1, warmup: 0, rounds: 1, chunkSize: 16_384, timeoutSeconds: 30)
            settings.downloadsAtOnce = width
            return RunPlan(
                parsers: ["foundation", "libxml2", "expat"], feeds: [TestPaths.top300], settings: settings,
                executable: TestPaths.workerExecutable, debugBuild: true, scenarios: scenarios, network: network,
                remoteURLs: remote, feedHost: FeedServer.starter)
        }

        /// The cells of `plan` for the committed feed that start a worker (a 304 is measured by its 200's
        /// worker), every parser agreeing (nothing is run).
        static func cells(_ plan: RunPlan) throws -> [CellKey] {
            let feed = try FeedFile(path: TestPaths.top300)
            let verification = FeedVerification(
                path: feed.path, bytes: feed.bytes.count, sha256: feed.sha256, chunkSizes: [0], verdicts: [])
            let check = BenchRunner.FeedCheck(feed: feed, verification: verification, agreeing: plan.parsers)
            return BenchRunner(plan: plan).cells(for: [check]).filter {
                $0.engineScenario?.startsWorker($0.scenario) ?? true
            }
        }

        /// The groups of a round's cells, by scenario and size.
        static func groups(_ plan: RunPlan) throws -> [[CellKey]] {
            BenchRunner(plan: plan).groupsAtOnce(BenchRunner.order(try cells(plan), round: 2))
        }

        @Test func aTablesDownloadWorkersRunAtOnceUpToTheWidthAndEveryOtherWorkerAlone() throws {
            let groups = try Self.groups(Self.plan(width: 3, scenarios: [.parse, .download, .conditional, .paged]))
            // Four download cells (the baseline and three parsers): three at once, then one; the same for
            // the conditional table, never mixed with it.
            let shared = groups.filter { $0.count > 1 }
            #expect(shared.map(\.count) == [3, 3])
            #expect(shared.map { Set($0.compactMap(\.scenario.kind)) } == [[.download], [.conditional]])
            for scenario in [ScenarioID.download, .conditional] {
                #expect(groups.filter { $0.first?.scenario.kind == scenario }.map(\.count) == [3, 1])
            }
            // Parses and the paging practice (its requests share one link on purpose): one at a time.
            for group in groups where group.first?.scenario.traits?.workersSideBySide != true {
                #expect(group.count == 1)
            }
            // Every due worker once, in the round's order.
            let plan = Self.plan(width: 3, scenarios: [.parse, .download, .conditional, .paged])
            #expect(groups.flatMap { $0 } == BenchRunner.order(try Self.cells(plan), round: 2))
        }

        @Test func withoutAShapedLinkOfTheirOwnDownloadsRunOneAtATime() throws {
            let feed = try #require(URL(string: "http://127.0.0.1:9/top300.rss.xml"))
            for plan in [
                Self.plan(width: 1, scenarios: [.download]),
                Self.plan(width: 4, scenarios: [.download], network: .loopback),
                Self.plan(width: 4, scenarios: [.download], remote: [TestPaths.top300: feed]),
            ] {
                #expect(try Self.groups(plan).allSatisfy { $0.count == 1 }, "\(plan.network) \(plan.settings)")
            }
        }

        /// Four download workers and four revalidating ones, four at a time: each completes, and each
        /// download, on its own link, takes at least what the profile's bandwidth allows (a link left
        /// unshaped would be done in milliseconds).
        @Test func sideBySideWorkersAreEachShapedAndComplete() throws {
            let plan = Self.plan(width: 4, scenarios: [.download, .conditional])
            let runner = BenchRunner(plan: plan)
            let checks = try runner.checkAgreement()
            let cells = runner.cells(for: checks)
            var steps: [RunProgress] = []
            var finished = 0
            let runs = try runner.measure(
                cells, referenceDigests: [TestPaths.top300: checks[0].verification.referenceDigest ?? ""],
                progress: { steps.append($0) }, cellFinished: { _ in finished += 1 })
            // One progress line a group, naming its four parsers; every worker finished and recorded.
            #expect(steps.count == 2)
            #expect(steps.allSatisfy { $0.parser.split(separator: ",").count == 4 })
            #expect(finished == 12)
            let summaries = BenchSession.summarise(runs, cells: cells, samples: runs.flatMap(\.samples), reference: nil)
            #expect(summaries.count == 12)
            for summary in summaries {
                #expect(
                    summary.failed == 0, "\(summary.cell.scenario)/\(summary.cell.parser): \(summary.outcome ?? "")")
                #expect(summary.wall?.count == 1)
                if summary.cell.scenario == .conditional304 {
                    #expect(summary.httpStatus == 304)
                } else {
                    #expect(summary.httpStatus == 200 && summary.bytesMedian == 901_440)
                    #expect((summary.downloadMedianNs ?? 0) >= 170e6)
                }
            }
        }
    }

    /// The machine's CPU pressure leaves out the windows where download workers run side by side.
    @Suite("CPU pressure outside the side-by-side windows")
    struct ExcludedPressureTests {
        @Test func theExcludedWindowsLeaveTheShareAndTheTime() {
            // 10 s measured, 5 of them side by side with 2.9 s of pressure; 0.1 s of pressure outside.
            #expect(
                MachineLoadProbe.share(
                    pressure: 3_000_000, elapsed: 10_000_000, excludedPressure: 2_900_000, excludedElapsed: 5_000_000)
                    == 0.02)
            #expect(
                MachineLoadProbe.share(
                    pressure: 3_000_000, elapsed: 10_000_000, excludedPressure: 0, excludedElapsed: 0)
                    == 0.3)
            // Every moment excluded: no share to give.
            #expect(
                MachineLoadProbe.share(pressure: 5, elapsed: 1_000, excludedPressure: 5, excludedElapsed: 1_000) == nil)
            #expect(
                MachineLoadProbe.share(pressure: 9_000, elapsed: 1_000, excludedPressure: 0, excludedElapsed: 0) == 1)
        }

        @Test func aWindowThatIsLeftOutIsCountedOnceItEnds() {
            let probe = MachineLoadProbe.start()
            let value = probe.excluding { 42 }
            #expect(value == 42)
            // What is left is the time outside the window: a share between 0 and 1, or nil off Linux.
            if let pressure = probe.finish().cpuPressure { #expect((0...1).contains(pressure)) }
        }
    }
#endif
