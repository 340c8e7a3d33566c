import BenchResults
import GRDB

/// One row of a query's answer, its columns read by position as they come from the database
/// (SQLite's statement, PostgreSQL's result), with no row object, dictionary or name between: a
/// report reads hundreds of thousands of rows.
protocol ResultColumns {
    func isNull(_ column: Int32) -> Bool
    /// A column's text as the database holds it (empty for NULL): valid until the next row.
    func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8>
    func integer(_ column: Int32) -> Int
    func real(_ column: Int32) -> Double
    func boolean(_ column: Int32) -> Bool
}

extension ResultColumns {
    /// A column's text (an empty text for NULL).
    func text(_ column: Int32) -> String { String(decoding: bytes(column), as: UTF8.self) }
    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
    func optionalInteger(_ column: Int32) -> Int? { isNull(column) ? nil : integer(column) }
    func optionalBoolean(_ column: Int32) -> Bool? { isNull(column) ? nil : boolean(column) }
}

/// The queries behind ``StatsStoring/forEachRunFigures(matching:metrics:workerMedians:_:)``, in the SQL that
/// SQLite and PostgreSQL share: the runs a filter chooses, each read once from `runs`, then their
/// rows of `metric_summaries` a page of runs at a time (as ``MetricSummaryQuery`` reads them), of
/// each row only the columns a report uses, a cell's columns read once a cell.
struct RunFigureQuery {
    /// The runs' columns, in the order ``run(_:)`` reads them.
    static let runColumns = """
        r.run_id, r.started_at, r.noisy, r.complete, r.git_commit, r.retry_preempted, r.host, r.cpu_model,
            r.cores, r.swift_version, r.libxml2_version, r.expat_version
        """

    /// The summaries' columns, in the order ``Reader`` reads them: the run and position first (a
    /// new cell when either changes), then the figure, then the cell.
    static let figureColumns = """
        s.run_id, s.position, s.metric, s.n, s.median, s.worker_medians, s.parser, s.scenario, s.feed_path,
            s.feed_sha256, s.feed_bytes, s.chunk_size, s.network, c.failed
        """

    /// The runs `filter` chooses (by its run conditions), oldest first, with their facts.
    static func runs(_ filter: SampleFilter, placeholder: @escaping (Int) -> String) -> SummaryRows.Statement {
        MetricSummaryQuery.runs(filter, columns: runColumns, placeholder: placeholder)
    }

    /// The figures of `runs` (one page, not empty) of `metrics` in the cells `filter` chooses, oldest
    /// run first, a run's rows by their cell's position.
    static func figures(
        _ filter: SampleFilter, metrics: [Metric], runs: [String], placeholder: @escaping (Int) -> String
    ) -> SummaryRows.Statement {
        let query = MetricSummaryQuery(
            filter, metrics: metrics, runs: runs, columns: figureColumns, placeholder: placeholder)
        return SummaryRows.Statement(sql: query.sql, arguments: query.arguments)
    }

    /// A run and its facts, from a row of ``runs(_:placeholder:)``.
    static func run(_ row: some ResultColumns) -> RunFigures {
        RunFigures(
            runID: row.text(0), startedAt: row.text(1), noisy: row.optionalBoolean(2), complete: row.optionalBoolean(3),
            gitCommit: row.optionalText(4), retriesPreempted: row.optionalBoolean(5),
            machine: Machine(
                host: row.text(6), cpuModel: row.text(7), cores: row.integer(8), swiftVersion: row.text(9),
                libxml2Version: row.text(10), expatVersion: row.text(11)))
    }

    /// Folds the rows of ``figures(_:metrics:runs:placeholder:)`` into runs, keeping each run when
    /// its rows end.
    struct Reader {
        /// The runs whose rows ended, in their order.
        private(set) var done: [RunFigures] = []
        /// The page's runs by ID, with no cells yet.
        private let runs: [String: RunFigures]
        /// The metrics asked for, by their column's bytes (a few: found by a look along them), and
        /// whether their workers' medians are read.
        private let metrics: [(column: [UInt8], metric: Metric, workers: Bool)]
        private var current: RunFigures?
        /// The bytes of the current run's ID: a row of the same run is known without a string.
        private var currentID: [UInt8] = []
        private var position = -1

        init(runs: [RunFigures], metrics: [Metric], workerMedians: Set<Metric>) {
            var byID: [String: RunFigures] = [:]
            for run in runs { byID[run.runID] = run }
            self.runs = byID
            self.metrics = metrics.map { (Array($0.column.utf8), $0, workerMedians.contains($0)) }
        }

        /// Reads a row.
        mutating func read(_ row: some ResultColumns) throws {
            let position = row.integer(1)
            let id = row.bytes(0)
            if current == nil || !id.elementsEqual(currentID) {
                finish()
                let runID = String(decoding: id, as: UTF8.self)
                guard let run = runs[runID] else {
                    throw StatsStoreError(description: "a summary of run \(runID), which the store's runs do not hold")
                }
                current = run
                currentID = Array(id)
                self.position = -1
            }
            // A metric this bench does not know (a newer bench's) is left out, as it always was.
            let column = row.bytes(2)
            guard let metric = metrics.first(where: { $0.column.elementsEqual(column) }) else { return }
            let figure = RunFigures.Figure(
                metric: metric.metric, count: row.integer(3), median: row.real(4),
                workerMedians: metric.workers ? try SummaryRows.workerValues(row.bytes(5)) : [])
            if position != self.position {
                self.position = position
                let cell = CellKey(
                    parser: row.text(6), scenario: CellScenario(name: row.text(7)), feedPath: row.text(8),
                    feedSHA256: row.text(9), feedBytes: row.integer(10), chunkSize: row.integer(11),
                    network: row.text(12))
                current?.cells.append(RunFigures.Cell(cell: cell, failed: row.optionalInteger(13), figures: []))
            }
            if let last = current?.cells.indices.last { current?.cells[last].figures.append(figure) }
        }

        /// Keeps the run being read, if any: the rows have ended.
        mutating func finish() {
            if let current { done.append(current) }
            current = nil
        }
    }

    /// Reads the figures `page` runs at a time: `fetchRuns` reads the runs' rows of a statement,
    /// `fetchFigures` hands each row of a statement to its closure.
    static func forEach<Columns: ResultColumns>(
        _ filter: SampleFilter, metrics: [Metric], workerMedians: Set<Metric>, placeholder: @escaping (Int) -> String,
        page: Int = MetricSummaryQuery.page,
        fetchRuns: (SummaryRows.Statement) throws -> [RunFigures],
        fetchFigures: (SummaryRows.Statement, (Columns) throws -> Void) throws -> Void,
        _ body: (RunFigures) throws -> Void
    ) throws {
        let page = max(1, page)
        let runs = try fetchRuns(Self.runs(filter, placeholder: placeholder))
        for start in stride(from: 0, to: runs.count, by: page) {
            let slice = Array(runs[start..<min(start + page, runs.count)])
            var reader = Reader(runs: slice, metrics: metrics, workerMedians: workerMedians)
            try fetchFigures(
                figures(filter, metrics: metrics, runs: slice.map(\.runID), placeholder: placeholder)
            ) { try reader.read($0) }
            reader.finish()
            // A page's runs, handed on once the query's rows are read: what is held is a page.
            for run in reader.done { try body(run) }
        }
    }
}
