import BenchReports
@testable import BenchResults
import BenchTestSupport
import Foundation
import Testing

@Suite("Reports")
struct ReportTests {
    /// A document run names the sink its times include in every format: the terminal's header and
    /// table titles, the summary CSV's `timed_sink` (document cells only), the JSON's settings, the
    /// Markdown and the HTML; a run that did not record it says nothing of it.
    @Test func aDocumentRunSaysWhichSinkItsTimesInclude() throws {
        var run = SyntheticRuns.run(
            id: "d", started: "2026-11-26T10:00:00Z",
            rounds: ["c-libxml2": [1_000_000, 1_010_000, 990_000], "expat": [1_500_000, 1_520_000, 1_480_000]])
        run.cells = run.cells.map { summary in
            var summary = summary
            summary.cell.scenario = CellScenario(.document)
            return summary
        }
        let unrecorded = run
        run.settings.timedSink = RunSettings.checksumSink
        let phrase = "timed sink: checksum"
        #expect(RunReport.header(run).contains(phrase))
        #expect(RunReport.table(run).contains("bytes, 300 events), " + phrase))
        #expect(RunReport.markdown(run).contains(phrase))
        #expect(HTMLReport.run(run, history: []).contains(phrase))
        #expect(try RunReport.json(run).contains("\"timedSink\" : \"checksum\""))
        let rows = try Self.parseCSV(RunReport.summaryCSV(run.cells, timedSink: run.settings.timedSink))
        let column = try #require(rows.first?.firstIndex(of: "timed_sink"))
        #expect(rows.dropFirst().allSatisfy { $0[column] == "checksum" })
        for text in [
            RunReport.header(unrecorded), RunReport.table(unrecorded), RunReport.markdown(unrecorded),
            HTMLReport.run(unrecorded, history: []),
        ] {
            #expect(!text.contains("timed sink:"))
        }
        // Song cells have no sink.
        let songs = SyntheticRuns.run(id: "s", started: "2026-11-26T10:00:00Z", rounds: ["expat": [1_000_000]])
        let songRows = try Self.parseCSV(RunReport.summaryCSV(songs.cells, timedSink: RunSettings.checksumSink))
        #expect(songRows.dropFirst().allSatisfy { $0.last == "" })
    }

    /// `bench report` says what its rows pool: builds of several commits, runs stored before parses
    /// that lost the CPU were flagged.
    @Test func theStoredReportSaysWhatItPooled() throws {
        let run = SyntheticRuns.run(id: "r", started: "2026-11-22T10:00:00Z", rounds: ["expat": [3_000_000]])
        func stored(_ runID: String, commit: String?, retries: Bool?) -> [StoredSample] {
            run.samples.map {
                var item = StoredSample(runID: runID, runStartedAt: "2026-11-22T10:00:00Z", sample: $0)
                item.runGitCommit = commit
                item.runRetriesPreempted = retries
                return item
            }
        }
        let one = HistoryRow.aggregate(
            stored("a", commit: "abc", retries: true) + stored("b", commit: "abc", retries: true))
        #expect(one.first?.commits == 1 && one.first?.runsBeforePreemptionRule == 0)
        #expect(!HistoryReport.table(one).contains("Pooled"))
        let mixed = HistoryRow.aggregate(
            stored("a", commit: "abc", retries: nil) + stored("b", commit: "def", retries: true)
                + stored("c", commit: "def", retries: false))
        #expect(mixed.first?.commits == 2 && mixed.first?.runsBeforePreemptionRule == 1)
        let table = HistoryReport.table(mixed)
        #expect(table.contains("the builds of up to 2 commits") && table.contains("up to 1 run a row stored before"))
        #expect(HistoryReport.markdown(mixed).contains("> Pooled: a row holds the builds of up to 2 commits"))
        let csv = HistoryReport.csv(mixed).split(separator: "\r\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        let commits = try #require(csv[0].firstIndex(of: "commits"))
        #expect(csv[0][commits + 1] == "runs_before_preemption_rule" && csv[1][commits...].prefix(2) == ["2", "1"])
        // A parse cell has no document shape: its document columns are empty.
        let shape = try #require(csv[0].firstIndex(of: "document_elements"))
        #expect(csv[1][shape] == "")
    }

    static let cell = CellKey(
        parser: "expat", scenario: .parse, feedPath: "feeds/a, \"quoted\"\nname.xml", feedSHA256: "abc",
        feedBytes: 1_000_000,
        chunkSize: 16_384)

    static func summary(_ parser: String, median: Int?) -> CellSummary {
        var cell = cell
        cell.parser = parser
        let samples = [median].compactMap { $0 }.map {
            Sample(
                cell: cell, songs: 300, round: 1, iteration: 1, wallNs: $0, cpuNs: $0, firstSongNs: 1_000,
                peakResidentBytes: 30 << 20, error: nil, debug: false)
        }
        return CellSummary.summarise(
            cell, samples: samples, peakResidentBytes: 30 << 20, baselinePeakBytes: 28 << 20, outcome: nil)
    }

    /// A run of several documents (one table each) says what its next-run intervals cover once,
    /// under the tables, not under every table: in the terminal and on the HTML page (issue 43, item 7);
    /// the Markdown, a table at a time for a pull request, under each.
    @Test func theNextRunCoverageIsSaidOnceUnderManyTables() throws {
        func run(_ document: String) -> RunResult {
            SyntheticRuns.run(
                id: "r", started: "2026-11-26T10:00:00Z", rounds: ["expat": [3e6, 3.1e6], "libxml2": [2e6, 2.1e6]],
                feedSHA256: document, feedPath: document)
        }
        var result = run("a.xml")
        let other = run("b.xml")
        result.cells += other.cells
        result.samples += other.samples
        let sentence = "2 workers give that interval"
        let table = RunReport.table(result)
        #expect(table.contains("parse: a.xml") && table.contains("parse: b.xml"), "\(table)")
        #expect(table.components(separatedBy: sentence).count == 2, "\(table)")
        #expect(table.contains("Next run, in every table above: 2 workers give that interval"), "\(table)")
        let html = HTMLReport.run(result, history: [])
        #expect(html.components(separatedBy: sentence).count == 2)
        // One table: the note stays under it.
        #expect(RunReport.table(run("a.xml")).contains("  next run: 2 workers give that interval"))
        // The Markdown says it under each table (it said nothing, under a column headed 95%), and the
        // HTML chart of the times claims no 95% for those whiskers.
        let markdown = RunReport.markdown(result)
        #expect(markdown.components(separatedBy: "- next run: " + sentence).count == 3, "\(markdown)")
        #expect(!html.contains("with the next run's 95% interval"))
        #expect(html.contains("short of 95% with fewer than 10 workers"))
    }

    /// A document run's tables fit the terminal: the documents' block's heading is broken at its
    /// width (it was one line of 122 characters).
    @Test func theDocumentsBlockFitsTheTerminal() {
        var result = SyntheticRuns.run(
            id: "r", started: "2026-11-26T10:00:00Z", rounds: ["expat": [3e6, 3.1e6]], feedPath: "a.xml")
        result.documents = [
            DocumentProfile(
                document: "a.xml", bytes: 51_528, elements: 842, attributes: 716, textBytes: 29_000, maximumDepth: 4,
                namespaces: 0, references: 340)
        ]
        let table = RunReport.table(result, columns: ParseColumn.defaults, width: 100, key: true)
        #expect(table.contains("Documents (measured shape"), "\(table)")
        let wide = table.split(separator: "\n").filter { $0.count > 100 }
        #expect(wide.isEmpty, "\(wide)")
    }

    /// A run widened by its host's earlier runs says so in every format, and the HTML page shows
    /// where each cell's noise lies.
    @Test func theRunToRunLevelIsSaidInEveryFormat() throws {
        var result = SyntheticRuns.run(
            id: "now", started: "2026-11-25T08:00:00Z", rounds: ["expat": [2.97e6, 3e6, 3.03e6]])
        let history: [StoredSample] = [3.0, 3.3, 2.85, 3.15, 3.0, 3.6].enumerated().flatMap {
            (index: Int, ms: Double) -> [StoredSample] in
            let started = "2026-11-24T10:0\(index):00Z"
            let run = SyntheticRuns.run(
                id: "e\(index)", started: started, rounds: ["expat": [ms * 0.99e6, ms * 1e6, ms * 1.01e6]])
            return run.samples.map { StoredSample(runID: "e\(index)", runStartedAt: started, sample: $0) }
        }
        RunHistory.include(history, in: &result)
        let sentence = "Next-run intervals hold the run-to-run noise too, learnt from up to 6 earlier runs"
        #expect(RunReport.header(result).contains(sentence))
        #expect(RunReport.markdown(result).contains(sentence))
        let html = HTMLReport.run(result, history: [])
        #expect(html.contains(sentence) && html.contains("<h2>Where the noise is</h2>"))
        let estimate = try #require(result.cells.first?.estimate)
        let within = "\(Format.ms(estimate.withinRunLow))–\(Format.ms(estimate.withinRunHigh))"
        #expect(html.contains("<td>\(within)</td><td>\(Format.ms(estimate.low))–\(Format.ms(estimate.high))</td>"))
        let json = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
        #expect(json.contains("\"noiseLevels\"") && json.contains("\"runToRun\"") && json.contains("withinRunLow"))
    }

    /// The header says each kind of worker's warm-ups: a download worker's are its own (bench run's
    /// defaults: 2 before the parses, 1 before the downloads).
    @Test func theHeaderSaysTheWarmUpsOfEachKindOfWorker() {
        var result = SyntheticRuns.run(
            id: "now", started: "2026-11-25T08:00:00Z", rounds: ["expat": [2.97e6, 3e6, 3.03e6]])
        result.settings.iterations = 2
        result.settings.warmup = 2
        result.settings.downloadIterations = 3
        result.settings.downloadWarmup = 1
        var download = result.cells[0]
        download.cell.scenario = .download
        download.cell.network = "wifi"
        result.cells.append(download)
        #expect(
            RunReport.header(result).contains(
                "2 timed parses each after 2 warm-ups, 3 per download worker after 1 warm-up"),
            "\(RunReport.header(result))")
        result.settings.downloadWarmup = nil
        #expect(RunReport.header(result).contains("after 2 warm-ups, 3 per download worker;"))
    }

    /// A run that stopped on its own (--precision, --max-time) says how, in every format.
    @Test func howTheRoundsStoppedIsSaidInEveryFormat() throws {
        var result = SyntheticRuns.run(
            id: "now", started: "2026-11-25T08:00:00Z", rounds: ["expat": [2.97e6, 3e6, 3.03e6]])
        let rule = StoppingRule(precision: 0.02, maxSeconds: 60, maxRounds: 100)
        result.stopped = StoppingOutcome(
            reason: .timeSpent, rounds: 41, seconds: 58.7, rule: rule,
            wider: [
                WideInterval(
                    parser: "foundation", feed: "Data/top300.rss.xml", chunkSize: 16_384, figure: .fastest,
                    halfWidth: 0.034)
            ])
        let sentence =
            "Stopped after 41 rounds (58.7 s of measuring): another round would pass --max-time 60.0 s, "
            + "before every interval was within ±2.0%. Still wider: foundation × fastest ±3.4%."
        #expect(RunReport.header(result).contains(sentence))
        #expect(RunReport.markdown(result).contains(sentence))
        #expect(HTMLReport.run(result, history: []).contains(sentence))
        // The workers a cell got are the rounds run, not the most the rule allowed.
        #expect(result.settings.rounds != 41)
        #expect(RunReport.header(result).contains("41 workers per cell, run side by side in rounds"))
        #expect(HTMLReport.run(result, history: []).contains("41 worker processes per parser, run side by side"))
        let json = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
        #expect(json.contains("\"stopped\"") && json.contains("\"time spent\""))
        #expect(try JSONDecoder().decode(RunResult.self, from: Data(json.utf8)).stopped == result.stopped)
    }

    @Test func csvQuotingFollowsRFC4180() {
        #expect(CSV.field("plain") == "plain")
        #expect(CSV.field("a,b") == "\"a,b\"")
        #expect(CSV.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSV.field("two\nlines") == "\"two\nlines\"")
        #expect(CSV.field("cr\rhere") == "\"cr\rhere\"")
        #expect(CSV.row(["a", "b,c", ""]) == "a,\"b,c\",\r\n")
    }

    @Test func summaryCSVHasTheDocumentedColumnsAndParsesBack() throws {
        let text = RunReport.summaryCSV([Self.summary("expat", median: 2_000_000)])
        let rows = try Self.parseCSV(text)
        #expect(rows.count == 2)
        #expect(
            Array(rows[0].prefix(22)) == [
                "parser", "scenario", "feed", "feed_bytes", "songs", "chunk_size", "network", "n", "mean_ms",
                "median_ms", "sd_ms",
                "min_ms", "max_ms", "p90_ms", "ci95_low_ms", "ci95_high_ms", "mbps", "cpu_median_ms", "first_song_ms",
                "peak_rss_mb", "peak_over_baseline_mb", "failed",
            ])
        let row = Dictionary(uniqueKeysWithValues: zip(rows[0], rows[1]))
        #expect(row["feed"] == Self.cell.feedPath)  // comma, quotes and newline survive
        #expect(row["median_ms"] == "2.000")
        #expect(row["mbps"] == "500.00")
        #expect(row["peak_rss_mb"] == "30.00")
        #expect(row["peak_over_baseline_mb"] == "2.00")
        #expect(rows.allSatisfy { $0.count == rows[0].count })
    }

    @Test func samplesCSVHasOneRowPerSample() throws {
        let samples = (1...3).map {
            Sample(
                cell: Self.cell, songs: 300, round: 1, iteration: $0, wallNs: $0 * 1_000, cpuNs: nil, firstSongNs: nil,
                peakResidentBytes: nil, error: $0 == 2 ? "failed, \"badly\"" : nil, debug: true)
        }
        let rows = try Self.parseCSV(RunReport.samplesCSV(samples, runID: "run-1"))
        #expect(rows.count == 4)
        #expect(rows[2][rows[0].firstIndex(of: "error") ?? 0] == "failed, \"badly\"")
        #expect(rows[1][rows[0].firstIndex(of: "debug") ?? 0] == "1")
    }

    @Test func theSummaryCSVCarriesTheNewFiguresAndTheNoiseVerdict() throws {
        let noise = NoiseReport(
            noisy: true, warnings: ["busy"], unranked: [], preemptedShare: 0.3, largestSpread: 0.1, load: nil)
        let rows = try Self.parseCSV(RunReport.summaryCSV([Self.summary("expat", median: 2_000_000)], noise: noise))
        #expect(rows[0].count == RunReport.summaryColumns.count)
        #expect(
            Array(rows[0].suffix(30)) == [
                "workers", "worker_spread", "relative_to", "relative", "relative_ci95_low", "relative_ci95_high",
                "parse_peak_mb",
                "preempted", "noisy", "allocations", "allocations_min", "allocations_max", "allocated_bytes",
                "kept_bytes",
                "kind", "c_reference", "c_tax", "c_tax_ci95_low", "c_tax_ci95_high", "floor", "floor_multiple",
                "floor_multiple_ci95_low", "floor_multiple_ci95_high", "timed_sink", "estimated_cycles_median",
                "estimated_cycles_min", "estimated_cycles_max", "minor_page_faults_median", "minor_page_faults_min",
                "minor_page_faults_max",
            ])
        let row = Dictionary(uniqueKeysWithValues: zip(rows[0], rows[1]))
        #expect(row["noisy"] == "1")
        #expect(row["workers"] == "1" && row["preempted"] == "0")
        #expect(row["median_ms"] == "2.000")
        let unassessed = try Self.parseCSV(RunReport.summaryCSV([Self.summary("expat", median: 2_000_000)]))
        #expect(unassessed[1].last == "")
    }

    @Test func tableAndMarkdownShowEveryParser() {
        let cells = [
            Self.summary("null", median: 10_000), Self.summary("expat", median: 2_000_000),
            Self.summary("foundation", median: nil),
        ]
        let table = RunReport.table(cells)
        #expect(table.contains("expat") && table.contains("2.000") && table.contains("foundation"))
        let env = RunEnvironment(
            runID: "r", startedAt: "t", commandLine: "bench", buildConfiguration: "release", gitCommit: "abc",
            host: "h",
            os: "Linux", cpuModel: "CPU", cores: 2, swiftVersion: "6.3.1", libxml2Version: "2.9.14",
            expatVersion: "2.5.0")
        let settings = RunSettings(iterations: 5, warmup: 1, rounds: 1, chunkSize: 16_384, timeoutSeconds: 30)
        let markdown = RunReport.markdown(RunResult(environment: env, settings: settings, cells: cells, samples: []))
        let tableLines = markdown.split(separator: "\n").filter { $0.hasPrefix("|") }
        #expect(tableLines.count == 2 + cells.count)
        let columns = tableLines.map { $0.filter { $0 == "|" }.count }
        #expect(Set(columns).count == 1, "every Markdown row has the same number of cells")
    }

    /// A cell whose every parse lost the CPU has no time, and says why: a busy machine, not a
    /// failure (issue 43, item 5), in the table, the Markdown, the CSV and a sweep's point.
    @Test func aCellWhoseEveryParseLostTheCPUSaysSoNotFailed() throws {
        let cell = CellKey(
            parser: "foundation", scenario: .parse, feedPath: "Data/top300.rss.xml", feedSHA256: "feedsha",
            feedBytes: 901_440, chunkSize: 16_384)
        let samples = (1...8).map { iteration in
            var sample = Sample(
                cell: cell, songs: 300, round: 1, iteration: iteration, wallNs: 9_000_000, cpuNs: 4_000_000,
                firstSongNs: nil, peakResidentBytes: 30_000_000, error: nil, debug: false)
            sample.preempted = true
            return sample
        }
        let lost = CellSummary.summarise(
            cell, samples: samples, peakResidentBytes: nil, baselinePeakBytes: nil, outcome: nil)
        #expect(lost.time == nil && lost.failed == 0 && lost.everyParseLostTheCPU)
        let cells = [Self.summary("null", median: 10_000), Self.summary("expat", median: 2_000_000), lost]
        let note =
            "all 8 of its parses lost the CPU to other work (a busy machine, not a failure); measure again when it is quieter"
        // The same words where a report, an export or the exit status says why there is no figure.
        #expect(lost.whyNoFigure == note)
        let table = RunReport.table(cells)
        #expect(table.contains("  foundation: no time: \(note)"), "\(table)")
        let settings = RunSettings(iterations: 2, warmup: 0, rounds: 1, chunkSize: 16_384, timeoutSeconds: 30)
        let run = RunResult(
            environment: RunEnvironment(
                runID: "r", startedAt: "2026-11-26T10:00:00Z", commandLine: "bench", buildConfiguration: "release",
                gitCommit: "abc", host: "h", os: "Linux", cpuModel: "CPU", cores: 2, swiftVersion: "6.3.1",
                libxml2Version: "2.9.14", expatVersion: "2.5.0"),
            settings: settings, cells: cells, samples: samples)
        #expect(RunReport.markdown(run).contains("- `foundation`: no time: \(note)"))
        #expect(RunReport.summaryCSV(cells).contains(note))
        let point = SweepResult.analyse(
            plan: SweepPlan(sizes: [300], chunkSize: 16_384, chunkSizes: [], chunkDocumentSize: 0, instructionsUpTo: 0),
            timed: run, counted: nil, scaleFeeds: [300: "Data/top300.rss.xml"], chunkFeed: nil,
            parsers: ["foundation"]
        ).points.first
        #expect(point?.outcome == "no time: \(note)")
        #expect(point?.outcome?.contains("failed") == false)
        // A cell whose parses failed is still a failure.
        let failed = CellSummary.summarise(
            cell,
            samples: samples.map {
                var sample = $0; sample.error = "bad"; return sample
            },
            peakResidentBytes: nil, baselinePeakBytes: nil, outcome: nil)
        #expect(!failed.everyParseLostTheCPU && failed.lostTheCPUNote == nil)
    }

    @Test func jsonRoundTrips() throws {
        let env = RunEnvironment(
            runID: "r", startedAt: "t", commandLine: "bench", buildConfiguration: "release", gitCommit: nil, host: "h",
            os: "Linux", cpuModel: "CPU", cores: 2, swiftVersion: "6.3.1", libxml2Version: "2.9.14",
            expatVersion: "2.5.0")
        let result = RunResult(
            environment: env,
            settings: RunSettings(iterations: 1, warmup: 0, rounds: 1, chunkSize: 16_384, timeoutSeconds: 60),
            cells: [Self.summary("expat", median: 5)], samples: [])
        let decoded = try JSONDecoder().decode(RunResult.self, from: Data(try RunReport.json(result).utf8))
        #expect(decoded == result)
    }

    /// A small RFC 4180 reader, to check that what the writer quotes reads back.
    static func parseCSV(_ text: String) throws -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var chars = Array(text)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" { field.append("\""); chars.removeFirst() } else { quoted = false }
                } else {
                    field.append(c)
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                row.append(field); field = ""
            } else if c == "\r\n" || c == "\n" {
                row.append(field); field = ""; rows.append(row); row = []
            } else {
                field.append(c)
            }
        }
        if quoted { throw CancellationError() }
        return rows
    }
}
