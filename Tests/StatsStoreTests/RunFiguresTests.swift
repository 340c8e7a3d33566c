import BenchResults
import BenchTestSupport
import Foundation
import GRDB
@testable import StatsStore
import Testing

/// `bench report` and `bench history` read a run's figures (``RunFigures``: its facts once, each
/// cell's count, median and workers' medians), not every summary with its run: the same runs,
/// cells and figures as the summaries read whole, so the same report rows and history series.
enum RunFiguresContract {
    /// Two hosts, runs of two timed parsers over two rounds, one run that also counted
    /// instructions, one run still recording, one debug build.
    static func fill(_ store: any StatsStoring) throws {
        for minute in 0..<7 {
            let host = minute % 3 == 2 ? "beta" : "alpha"
            var environment = StoreContract.environment(
                String(format: "20261122T10%02d00Z-r%03d", minute, minute), host: host, minute: minute)
            if minute == 6 { environment.buildConfiguration = "debug" }
            var samples: [Sample] = []
            for (number, parser) in ["expat", "libxml2"].enumerated() {
                for round in 1...2 {
                    samples += StoreContract.samples(
                        parser, walls: [3, 1, 2].map { $0 * (minute + 1) * (number + 2) + round }, round: round)
                }
            }
            // Every worker timed its calibration (calibrated time's divisor).
            samples = samples.map { sample in
                var calibrated = sample
                calibrated.calibrationNs = 900 + 10 * sample.round + sample.iteration + minute
                return calibrated
            }
            if minute == 3 {
                samples = samples.map { sample in
                    var counted = sample
                    counted.instructions = 61_000_000 + sample.iteration
                    counted.wallNs = nil
                    counted.cpuNs = nil
                    return counted
                }
            }
            try RetentionContract.record(environment, samples: samples, in: store, finish: minute != 4)
        }
    }

    /// `run` with no cell's songs named.
    static func withoutSongs(_ run: RunFigures) -> RunFigures {
        var run = run
        for index in run.cells.indices { run.cells[index].songs = nil }
        return run
    }

    static func figures(
        _ store: any StatsStoring, _ filter: SampleFilter, _ metrics: [Metric], workerMedians: Set<Metric>? = nil
    ) throws -> [RunFigures] {
        var runs: [RunFigures] = []
        try store.forEachRunFigures(matching: filter, metrics: metrics, workerMedians: workerMedians ?? Set(metrics)) {
            runs.append($0)
        }
        return runs
    }

    /// The figures are the summaries' (read whole), run by run; the report's rows and the
    /// history's series made from them (their workers' medians read of the metrics they use
    /// only) are those made from the summaries.
    static func readsTheSummariesFigures(_ store: any StatsStoring) throws {
        try fill(store)
        let filters = [
            SampleFilter(), SampleFilter(parsers: ["libxml2"]), SampleFilter(lastRuns: 2),
            SampleFilter(includeDebug: true, hosts: ["beta"]), SampleFilter(parsers: ["none"]),
        ]
        for filter in filters {
            for metrics in [HistoryRow.summarisedMetrics, [.wallNs], [.wallNs, .calibrationNs]] {
                let whole = try store.metricSummaries(matching: filter, metrics: metrics)
                // The summaries alone do not name a cell's songs (its row of cell_summaries does).
                let read = try figures(store, filter, metrics)
                #expect(read.flatMap(\.cells).allSatisfy { $0.songs != nil })
                #expect(read.map(Self.withoutSongs) == RunFigures.runs(whole), "\(filter) \(metrics)")
                var aggregator = HistoryRow.Aggregator()
                try figures(store, filter, metrics, workerMedians: HistoryRow.workerMetrics).forEach {
                    aggregator.add($0)
                }
                #expect(aggregator.rows() == HistoryRow.aggregate(summaries: whole), "\(filter) \(metrics)")
                for metric in [Metric.wallNs, .calibratedTime] {
                    let runs = try figures(store, filter, metrics, workerMedians: RunSeries.workerMetrics(metric))
                    #expect(
                        RunSeries.series(runs: runs, metric: metric)
                            == RunSeries.series(summaries: whole, metric: metric))
                }
            }
        }
        #expect(
            !RunSeries.series(
                runs: try figures(store, SampleFilter(), [.wallNs, .calibrationNs]), metric: .calibratedTime
            ).isEmpty)
        // Workers' medians of the metrics asked for only.
        let peaks = try figures(store, SampleFilter(), HistoryRow.summarisedMetrics, workerMedians: [.wallNs])
        #expect(
            peaks.allSatisfy {
                $0.cells.allSatisfy { $0.figures.allSatisfy { ($0.metric == .wallNs) == !$0.workerMedians.isEmpty } }
            })
        let runs = try figures(store, SampleFilter(), HistoryRow.summarisedMetrics)
        // Six release runs (the debug build left out), oldest first, each with its facts once.
        #expect(runs.map(\.runID) == (0..<6).map { String(format: "20261122T10%02d00Z-r%03d", $0, $0) })
        #expect(runs.map { $0.machine?.host } == ["alpha", "alpha", "beta", "alpha", "alpha", "beta"])
        #expect(runs.map(\.complete) == [true, true, true, true, false, true])
        #expect(runs.allSatisfy { $0.gitCommit == "abc" && $0.cells.map(\.cell.parser) == ["expat", "libxml2"] })
        // Worker medians in the order of their rounds; the counted run has instructions, no time.
        let wall = runs[0].cells[0].figures.first { $0.metric == .wallNs }
        #expect(wall?.workerMedians == [5, 6] && wall?.count == 6 && wall?.median == 5.5)
        #expect(runs[3].cells[0].figures.contains { $0.metric == .instructions })
        #expect(!runs[3].cells[0].figures.contains { $0.metric == .wallNs })
        let rows = try { () throws -> [HistoryRow] in
            var aggregator = HistoryRow.Aggregator()
            runs.forEach { aggregator.add($0) }
            return aggregator.rows()
        }()
        let expat = rows.first { $0.parser == "expat" && $0.machine?.host == "alpha" && $0.wall != nil }
        #expect(expat?.runs == 3 && expat?.incompleteRuns == 1 && expat?.samples == 18)
        #expect(rows.contains { $0.parser == "expat" && $0.instructions != nil && $0.runs == 1 })
    }

    /// A run's page reads the stored figures of the store's newest runs (``StatsStoring/recentFigures(parsers:scenarios:lastRuns:)``):
    /// its parsers and scenarios, the page's metrics, calibration's workers' medians only, each
    /// run's median the median of its cell's clean samples.
    static func readsThePageHistory(_ store: any StatsStoring) throws {
        try fill(store)
        // The newest three runs of the store are minutes 4 (still recording), 5 and 6 (a debug build, left out).
        let page = try store.recentFigures(parsers: ["expat", "libxml2"], scenarios: ["parse"], lastRuns: 3)
        #expect(page.map(\.runID) == ["20261122T100400Z-r004", "20261122T100500Z-r005"])
        #expect(page.map { $0.machine?.host } == ["alpha", "beta"])
        func figure(_ run: Int, _ parser: String, _ metric: Metric) -> RunFigures.Figure? {
            page[run].cells.first { $0.cell.parser == parser }?.figures.first { $0.metric == metric }
        }
        // Walls (3, 1, 2) × (minute + 1) × (2 for expat, 3 for libxml2) + round, in two rounds.
        #expect(figure(0, "expat", .wallNs)?.median == 21.5 && figure(0, "libxml2", .wallNs)?.median == 31.5)
        #expect(figure(1, "expat", .wallNs)?.median == 25.5 && figure(1, "libxml2", .wallNs)?.median == 37.5)
        // Time's workers' medians are read (a run's time is theirs); the first song's are not.
        #expect(figure(1, "expat", .wallNs)?.count == 6 && figure(1, "expat", .wallNs)?.workerMedians.count == 2)
        #expect(figure(1, "expat", .firstSongNs)?.median == 10)
        #expect(figure(1, "expat", .firstSongNs)?.workerMedians == [])
        #expect(figure(1, "expat", .calibrationNs)?.workerMedians == [917, 927])
        #expect(
            page.allSatisfy { $0.cells.allSatisfy { Set($0.figures.map(\.metric)) == Set(RunFigures.pageMetrics) } })
        // Every figure is the run's median of the cell's counted (clean) samples.
        let samples = try store.samples(matching: SampleFilter(lastRuns: 3))
        for run in page {
            for cell in run.cells {
                let own = samples.filter { $0.runID == run.runID && $0.sample.cell == cell.cell }.map(\.sample)
                for item in cell.figures {
                    let statistics = try #require(Statistics(item.metric.counted(own)))
                    #expect(item.median == statistics.median && item.count == statistics.count, "\(run.runID) \(item)")
                }
            }
        }
        #expect(try store.recentFigures(parsers: ["none"], scenarios: ["parse"], lastRuns: 3).isEmpty)
        #expect(try store.recentFigures(parsers: ["expat"], scenarios: ["parse"], lastRuns: 30).count == 6)
    }
}

@Suite("Stats store: a run's figures as a report reads them (SQLite)")
struct RunFiguresTests {
    @Test func readsTheSummariesFigures() throws {
        try RunFiguresContract.readsTheSummariesFigures(try StatsDatabase(writer: DatabaseQueue()))
    }

    @Test func readsThePageHistory() throws {
        try RunFiguresContract.readsThePageHistory(try StatsDatabase(writer: DatabaseQueue()))
    }

    /// Pages of any size give the same runs.
    @Test func pagesOfAnySizeGiveTheSameRuns() throws {
        let store = try StatsDatabase(writer: DatabaseQueue())
        try RunFiguresContract.fill(store)
        func read(page: Int) throws -> [RunFigures] {
            var runs: [RunFigures] = []
            try store.read { db in
                try RunFigureQuery.forEach(
                    SampleFilter(), metrics: [.wallNs, .cpuNs], workerMedians: [.wallNs], placeholder: { _ in "?" },
                    page: page,
                    fetchRuns: { statement in
                        var runs: [RunFigures] = []
                        try SQLiteColumns.forEachRow(statement, db) { runs.append(RunFigureQuery.run($0)) }
                        return runs
                    },
                    fetchFigures: { try SQLiteColumns.forEachRow($0, db, $1) }, { runs.append($0) })
            }
            return runs
        }
        let whole = try read(page: 250)
        #expect(whole.count == 5)
        for page in [1, 2, 4] { #expect(try read(page: page) == whole) }
    }

    @Test func workerValuesAreTheMediansInTheirRoundsOrder() throws {
        #expect(try SummaryRows.workerValues("1=3951.5,2=1498.5,10=1936.0") == [3_951.5, 1_498.5, 1_936])
        #expect(try SummaryRows.workerValues(#"{"1":3951.5,"10":1936,"2":1498.5}"#) == [3_951.5, 1_498.5, 1_936])
        #expect(try SummaryRows.workerValues("") == [])
        for unreadable in ["1=x", "x=1", #"{"one":1}"#, "1:2"] {
            #expect(throws: StatsStoreError.self) { try SummaryRows.workerValues(unreadable) }
        }
    }

    /// Whole numbers are read without a string, as `Double(String)` reads them; anything else is
    /// left to `Double(String)`.
    @Test func wholeNumbersReadAsTextReadsThem() throws {
        func whole(_ text: String) -> Double? {
            var copy = text
            return copy.withUTF8 { SummaryRows.wholeNumber($0) }
        }
        for text in ["0", "7", "41324544", "41324544.0", "41324544.000", "999999999999999", "123456789012345.0"] {
            #expect(whole(text) == Double(text), "\(text)")
        }
        for text in ["", ".0", "1.", "1.5", "1.05", "-3", "1e3", "1000000000000000", "nan", "12a", "1.0x"] {
            #expect(whole(text) == nil, "\(text)")
        }
        #expect(
            try SummaryRows.workerValues("1=1e3,2=-3.0,3=1.,4=1234567890123456789") == [
                1_000, -3, 1, 1.234_567_890_123_456_8e18,
            ])
    }
}

// The PostgreSQL store: in a build with the suite's trait SharedStore.
#if SharedStore
    @Suite(
        "Stats store: a run's figures as a report reads them (PostgreSQL)", .serialized,
        .enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.missing)))
    struct PostgresRunFiguresTests {
        @Test func readsTheSummariesFigures() throws {
            let database = try PostgresTestServer.Database()
            try RunFiguresContract.readsTheSummariesFigures(try StatsStores.open(database.url))
        }

        @Test func readsThePageHistory() throws {
            let database = try PostgresTestServer.Database()
            try RunFiguresContract.readsThePageHistory(try StatsStores.open(database.url))
        }

        /// The planner's settings of a report's reads are the server's own (PostgreSQL 14 has memoize,
        /// 13 has not) and last the transaction only: the connection's next statements plan as before.
        @Test func theReadsPlannerSettingsLastTheirTransaction() throws {
            #expect(RunFigureQuery.postgresSettings(serverVersion: 130_000).count == 1)
            #expect(RunFigureQuery.postgresSettings(serverVersion: 150_004).count == 2)
            let database = try PostgresTestServer.Database()
            let connection = try PostgresConnection(url: database.url, location: database.url)
            defer { connection.close() }
            func current() throws -> [String] {
                try ["max_parallel_workers_per_gather", "enable_memoize"].map { name in
                    try connection.execute("SELECT current_setting($1, true) AS value", [name.databaseValue]).first?[
                        "value"]
                        ?? ""
                }
            }
            let before = try current()
            try connection.transaction {
                for setting in RunFigureQuery.postgresSettings(serverVersion: connection.serverVersion) {
                    try connection.execute(setting)
                }
                #expect(try current().first == "0")
            }
            #expect(try current() == before)
            // The store reads with them (five release runs timed: the sixth counted instructions).
            let store = try StatsStores.open(database.url)
            try RunFiguresContract.fill(store)
            #expect(try RunFiguresContract.figures(store, SampleFilter(), [.wallNs]).count == 5)
        }
    }
#endif

/// The reader of a page's rows (``RunFigureQuery/Reader``): whatever order the database gives a
/// cell's figures in, they come by metric; a figure of a cell the store's cells do not hold is an error.
@Suite("Stats store: a page's figures as read")
struct RunFigureReaderTests {
    /// A row of a query's answer, its columns as text (`nil`: NULL), as both stores give them,
    /// each column's bytes held while the row lives.
    final class TextRow: ResultColumns {
        let columns: [String?]
        let storage: [UnsafeMutableBufferPointer<UInt8>]

        init(_ columns: [String?]) {
            self.columns = columns
            storage = columns.map { column in
                let bytes = Array((column ?? "").utf8)
                let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, bytes.count))
                _ = buffer.initialize(from: bytes)
                return buffer
            }
        }

        deinit { storage.forEach { $0.deallocate() } }

        func isNull(_ column: Int32) -> Bool { columns[Int(column)] == nil }
        func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8> {
            let count = columns[Int(column)]?.utf8.count ?? 0
            return UnsafeBufferPointer(rebasing: storage[Int(column)][..<count])
        }
        func integer(_ column: Int32) -> Int { Int(columns[Int(column)] ?? "") ?? 0 }
        func real(_ column: Int32) -> Double { Double(columns[Int(column)] ?? "") ?? .nan }
        func boolean(_ column: Int32) -> Bool { columns[Int(column)] == "t" }
    }

    static func cell(_ run: String, _ position: Int, _ parser: String, failed: Int? = 0) -> TextRow {
        TextRow([
            run, "\(position)", parser, "parse", "feeds/top300.xml", "sha", "300", "0", "", failed.map(String.init),
            "300",
        ])
    }

    static func figure(_ run: String, _ position: Int, _ metric: Metric, _ median: Double) -> TextRow {
        TextRow([run, "\(position)", metric.column, "6", "\(median)", "\(median + 1)", "1=\(median),2=\(median + 1)"])
    }

    @Test func aCellsFiguresComeByMetricWhateverTheirOrder() throws {
        let metrics: [Metric] = [.wallNs, .cpuNs, .peakResidentBytes, .instructions]
        let runs = ["r1", "r2"].map { RunFigures(runID: $0, startedAt: "2026-11-22T10:00:00Z") }
        var reader = RunFigureQuery.Reader(runs: runs, metrics: metrics, workerMedians: [.peakResidentBytes])
        for row in [Self.cell("r1", 0, "expat"), Self.cell("r1", 1, "libxml2", failed: 2), Self.cell("r2", 0, "expat")]
        {
            reader.readCell(row)
        }
        let rows = [
            Self.figure("r1", 0, .wallNs, 5), Self.figure("r1", 0, .peakResidentBytes, 7),
            Self.figure("r1", 0, .cpuNs, 4), Self.figure("r1", 1, .instructions, 9), Self.figure("r1", 1, .wallNs, 8),
            TextRow(["r1", "1", "a_newer_metric", "1", "1", "1", ""]), Self.figure("r2", 0, .cpuNs, 3),
            Self.figure("r2", 0, .wallNs, 2),
        ]
        for row in rows { try reader.read(row) }
        reader.finish()
        // By the metric's column, byte by byte: cpu_ns, instructions, peak_resident_bytes, wall_ns.
        let first = try #require(reader.done["r1"])
        #expect(first.cells.map(\.cell.parser) == ["expat", "libxml2"])
        #expect(first.cells.map(\.failed) == [0, 2])
        #expect(first.cells[0].figures.map(\.metric) == [.cpuNs, .peakResidentBytes, .wallNs])
        #expect(first.cells[0].figures.map(\.median) == [4, 7, 5])
        #expect(first.cells[0].figures.map(\.maximum) == [5, 8, 6])
        #expect(first.cells.map(\.songs) == [300, 300])
        #expect(first.cells[0].figures.map(\.workerMedians) == [[], [7, 8], []])
        #expect(first.cells[1].figures.map(\.metric) == [.instructions, .wallNs])
        #expect(reader.done["r2"]?.cells.first?.figures.map(\.metric) == [.cpuNs, .wallNs])
        // Both runs' cells are the same cell: one key, made once.
        #expect(reader.done["r2"]?.cells.first?.cell == first.cells[0].cell)
    }

    /// A cell known from an earlier run at the same position is reused only when every column is
    /// the same; another cell there is read as itself, and a cell with no figure asked for is left
    /// out, as the summaries' own query leaves it.
    @Test func aKnownPositionHoldingAnotherCellIsReadAsItself() throws {
        let runs = ["r1", "r2"].map { RunFigures(runID: $0, startedAt: "2026-11-22T10:00:00Z") }
        var reader = RunFigureQuery.Reader(runs: runs, metrics: [.wallNs], workerMedians: [])
        for row in [Self.cell("r1", 0, "expat"), Self.cell("r1", 1, "libxml2"), Self.cell("r2", 0, "expata")] {
            reader.readCell(row)
        }
        for row in [Self.figure("r1", 0, .wallNs, 5), Self.figure("r2", 0, .wallNs, 6)] { try reader.read(row) }
        reader.finish()
        #expect(reader.done["r1"]?.cells.map(\.cell.parser) == ["expat"])
        #expect(reader.done["r2"]?.cells.map(\.cell.parser) == ["expata"])
        // The next page's reader knows the newest cell at each position.
        #expect(reader.knownCells[0]?.key.parser == "expata" && reader.knownCells[1]?.key.parser == "libxml2")
    }

    @Test func aFigureOfACellTheStoreDoesNotHoldIsAnError() throws {
        let runs = [RunFigures(runID: "r1", startedAt: "2026-11-22T10:00:00Z")]
        var reader = RunFigureQuery.Reader(runs: runs, metrics: [.wallNs], workerMedians: [])
        reader.readCell(Self.cell("r1", 0, "expat"))
        try reader.read(Self.figure("r1", 0, .wallNs, 5))
        #expect(throws: StatsStoreError.self) { try reader.read(Self.figure("r1", 1, .wallNs, 5)) }
        #expect(throws: StatsStoreError.self) { try reader.read(Self.figure("r9", 0, .wallNs, 5)) }
    }
}
