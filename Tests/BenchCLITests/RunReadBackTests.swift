import BenchEngine
import BenchReports
import BenchResults
import BenchTestSupport
import Foundation
import StatsStore
import Testing

@testable import BenchCLI

/// A real run, read back from its store by each command's path, is the run's own summary: what
/// `bench compare` reads of a stored run (its recorded summaries), what a writer's backfill would
/// make of its samples, and what `bench report` reads (the summaries kept by metric) all give the
/// figures the run's own file has, every one, not just times.
enum RunReadBackContract {
    /// Runs a short `bench run` (the debug build: figures need not mean anything, only agree) into
    /// `store`, with a parser the agreement check refuses (Linux: Foundation drops internal entity
    /// text), the binding tax (libxml2 over c-libxml2), the floor (memchr), the × fastest ranking
    /// and the `read` practice's pairs, and checks every path against the run's own summary.
    static func check(store: String) throws {
        let directory = try TemporaryDirectory()
        let feed = try directory.write(
            "entities.xml",
            Samples.feed(
                (1...20).map { Samples.item(title: "&e; Records \($0)") },
                prolog: "\n<!DOCTYPE rss [<!ENTITY e \"Reprise\">]>"))
        let output = directory.path("out")
        let result = try runBench([
            "run", "--feed", feed, "--iterations", "2", "--warmup", "0", "--rounds", "2", "--scenario", "parse,read",
            "--parsers", "libxml2,c-libxml2,expat,foundation,memchr", "--store", store, "--output-dir", output,
            "--format", "csv",
            // Parses that lose the CPU count (a busy machine would leave a cell with no figure).
            "--count-preempted",
        ])
        let own = try RunFiles.read(directory.path("out/latest.json"))
        #expect(result.status == 0 || result.status == 1, "\(result.standardError)")
        let runID = own.environment.runID
        #if os(Linux)
            #expect(own.cells.contains { $0.cell.scenario == .notTimed && $0.cell.parser == "foundation" })
        #endif
        #expect(own.cells.contains { $0.relative != nil }, "the × fastest ranking")
        #expect(own.cells.contains { $0.cell.parser == "libxml2" && $0.bindingTax != nil }, "the binding tax")
        #expect(own.cells.contains { $0.pairRatio != nil }, "the read pairs")

        // bench compare: the run by its ID in the store.
        let compared = try Compare.load(runID, side: "current", store: { try StatsStores.open(store, mustExist: true) })
            .0
        #expect(compared.count == 1)
        #expect(compared.first?.cells == own.cells)
        #expect(compared.first?.samples == own.samples)

        // A writer's backfill (a run copied in without its summaries): the same function, from the samples.
        let database = try StatsStores.open(store, mustExist: true)
        let stored = try #require(try database.storedRun(runID))
        let summarised = RunResult.summarising(
            stored.samples, environment: stored.environment, settings: stored.settings, noise: stored.noise,
            documents: stored.documents, notTimed: stored.notTimed)
        #expect(summarised.cells == own.cells)

        // bench report: the summaries kept by metric, folded into rows; one run, so each row's
        // figure is the run's.
        var aggregator = HistoryRow.Aggregator()
        try database.forEachMetricSummary(
            matching: SampleFilter(includeDebug: true), metrics: HistoryRow.summarisedMetrics
        ) { aggregator.add($0) }
        let rows = aggregator.rows()
        let timed = own.cells.filter { $0.cell.scenario != .notTimed && ($0.wall != nil || $0.instructions != nil) }
        #expect(timed.contains { $0.pairRatio != nil } && timed.contains { $0.bindingTax != nil })
        #expect(rows.count == timed.count)
        for cell in timed {
            let key = cell.cell
            let found = rows.first { row in
                row.parser == key.parser && row.scenario == key.scenario && row.feedSHA256 == key.feedSHA256
            }
            let row = try #require(found, "\(key)")
            #expect(Figures(row) == Figures(cell), "\(key)")
        }
    }

    /// The figures a report row and a run's summary both give of a cell, side by side.
    struct Figures: Equatable, CustomStringConvertible {
        var samples: Int
        var failed: Int
        var wall, cpu, firstSong, download, total, instructions, parsePeak: Double?
        var kept: [Metric: Double]
        var feedBytes: Int?

        init(_ row: HistoryRow) {
            samples = row.samples
            failed = row.failed
            (wall, cpu, firstSong) = (row.wall?.median, row.cpu?.median, row.firstSong?.median)
            (download, total, instructions) = (row.download?.median, row.total?.median, row.instructions?.median)
            parsePeak = row.parsePeakMedianBytes
            kept = row.figures.filter { Metric.keptByMetric.contains($0.key) }.mapValues(\.median)
            feedBytes = row.feedBytes
        }

        init(_ cell: CellSummary) {
            samples = cell.wall?.count ?? cell.instructions?.count ?? 0
            failed = cell.failed
            // The run's time as its table gives it (the median of its workers' medians), not the
            // median of its parses pooled over the workers.
            (wall, cpu, firstSong) = (cell.time, cell.cpuMedianNs, cell.firstSongMedianNs)
            (download, total, instructions) = (cell.downloadMedianNs, cell.totalMedianNs, cell.instructions?.median)
            parsePeak = cell.parsePeakBytes.map(Double.init)
            kept = (cell.figures ?? [:]).mapValues(\.median)
            feedBytes = cell.cell.feedBytes
        }

        var description: String {
            "n \(samples), failed \(failed), wall \(wall as Any), cpu \(cpu as Any), first song \(firstSong as Any), "
                + "download \(download as Any), total \(total as Any), instructions \(instructions as Any), "
                + "parse peak \(parsePeak as Any), kept \(kept), bytes \(feedBytes as Any)"
        }
    }
}

@Suite("A run read back: SQLite")
struct RunReadBackSQLiteTests {
    @Test func everyPathGivesTheRunsOwnSummary() throws {
        let directory = try TemporaryDirectory()
        try RunReadBackContract.check(store: directory.path("stats.sqlite"))
    }
}

@Suite(
    "A run read back: PostgreSQL", .serialized,
    .enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.missing)))
struct RunReadBackPostgresTests {
    @Test func everyPathGivesTheRunsOwnSummary() throws {
        let database = try PostgresTestServer.Database()
        try RunReadBackContract.check(store: database.url)
    }
}
