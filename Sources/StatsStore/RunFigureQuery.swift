import BenchResults
import Foundation
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
/// SQLite and PostgreSQL share: the runs a filter chooses, each read once from `runs`, then a page
/// of runs at a time their cells, each read once from `cell_summaries`, and their figures from
/// `metric_summaries`, of each row only the columns a report uses.
struct RunFigureQuery {
    /// The runs' columns, in the order ``run(_:)`` reads them.
    static let runColumns = """
        r.run_id, r.started_at, r.noisy, r.complete, r.git_commit, r.retry_preempted, r.host, r.cpu_model,
            r.cores, r.swift_version, r.libxml2_version, r.expat_version
        """

    /// The cells' columns, in the order ``Reader/readCell(_:)`` reads them: the run and position,
    /// the cell's key, its failed parses, its feed's songs.
    static let cellColumns = """
        s.run_id, s.position, s.parser, s.scenario, s.feed_path, s.feed_sha256, s.feed_bytes, s.chunk_size,
            s.network, s.failed, s.songs
        """

    /// The figures' columns, in the order ``Reader/read(_:)`` reads them: the run and position (a
    /// new cell when either changes), then the figure.
    static let figureColumns = "s.run_id, s.position, s.metric, s.n, s.median, s.maximum, s.worker_medians"

    /// The runs `filter` chooses (by its run conditions), oldest first, with their facts.
    static func runs(_ filter: SampleFilter, placeholder: @escaping (Int) -> String) -> SummaryRows.Statement {
        MetricSummaryQuery.runs(filter, columns: runColumns, placeholder: placeholder)
    }

    /// The cells of `runs` (one page, not empty) that `filter` chooses, through the index on
    /// `cell_summaries.run_id`: a run's together (runs in the order of their IDs), by position.
    static func cells(
        _ filter: SampleFilter, runs: [String], placeholder: @escaping (Int) -> String
    ) -> SummaryRows.Statement {
        // The cell's own columns are named as the summaries' are (`s.`): the filter's conditions read either.
        var selection = SampleQuery.Conditions(placeholder: placeholder)
        selection.addIn("s.run_id", runs)
        selection.addSampleConditions(filter)
        return SummaryRows.Statement(
            sql: """
                SELECT \(cellColumns) FROM cell_summaries s
                WHERE \(selection.conditions.joined(separator: " AND "))
                ORDER BY s.run_id, s.position
                """,
            arguments: selection.arguments)
    }

    /// The figures of `runs` (one page, not empty) of `metrics` in the cells `filter` chooses, a
    /// run's rows together (runs in the order of their IDs: ``forEach`` hands them on oldest
    /// first), by their cell's position (``Reader`` orders a cell's by metric).
    ///
    /// From each cell to its figures: the page's cells through the index on `cell_summaries.run_id`
    /// (the index alone), then each cell's rows of `metric_summaries` through the index on its run
    /// and position, a lookup a cell. Joined the other way, from each figure to its cell,
    /// `cell_summaries` was looked up once a figure, eight times as often: 28,750 lookups a page of
    /// 250 runs, half of PostgreSQL's time for `bench report` at 10,000 runs. Every summary has its
    /// cell's row: both are written, and removed, together. A `CROSS JOIN`, which SQLite never
    /// reorders (it might otherwise go through every run's rows of a metric by the index on
    /// metrics); the runs' facts and the cells' columns are read once, by ``runs(_:placeholder:)``
    /// and ``cells(_:runs:placeholder:)``, not with every figure.
    static func figures(
        _ filter: SampleFilter, metrics: [Metric], runs: [String], placeholder: @escaping (Int) -> String
    ) -> SummaryRows.Statement {
        var selection = SampleQuery.Conditions(placeholder: placeholder)
        selection.addIn("c.run_id", runs)
        selection.addIn("s.metric", metrics.map(\.column))
        selection.addSampleConditions(filter)
        let conditions = ["s.run_id = c.run_id", "s.position = c.position"] + selection.conditions
        return SummaryRows.Statement(
            sql: """
                SELECT \(figureColumns)
                FROM cell_summaries c CROSS JOIN metric_summaries s
                WHERE \(conditions.joined(separator: " AND "))
                ORDER BY c.run_id, c.position
                """,
            arguments: selection.arguments)
    }

    /// The planner's settings for a report's reads on PostgreSQL, for the transaction only (`SET
    /// LOCAL`): a page's queries are small, index lookups a cell.
    ///
    /// No parallel workers: starting them, and gathering their rows in order, cost more than the
    /// page's work (at 10,000 runs, the server's CPU time for `bench report` 3.9–4.7 s with them,
    /// 2.1–2.7 s without). No memoizing each cell's figures (PostgreSQL 14 on): no cell is looked
    /// up twice, every lookup missed its cache (1.5–1.8 s without).
    static func postgresSettings(serverVersion: Int) -> [String] {
        ["SET LOCAL max_parallel_workers_per_gather = 0"]
            + (serverVersion >= 140_000 ? ["SET LOCAL enable_memoize = off"] : [])
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

    /// Folds the rows of ``cells(_:runs:placeholder:)`` (first) and of
    /// ``figures(_:metrics:runs:placeholder:)`` into runs, keeping each run when its rows end; a
    /// cell's figures by metric, as ``MetricSummaryQuery`` orders them (the column's text, byte by
    /// byte), whatever order the database gives them in.
    struct Reader {
        /// The runs whose rows ended, by ID.
        private(set) var done: [String: RunFigures] = [:]
        /// The page's runs by ID, with no cells yet.
        private let runs: [String: RunFigures]
        /// The metrics asked for, by their column's bytes (a few: found by a look along them),
        /// whether their workers' medians are read, and their place in a cell's figures.
        private let metrics: [(column: [UInt8], metric: Metric, workers: Bool, rank: Int)]
        private var current: RunFigures?
        /// The bytes of the current run's ID: a row of the same run is known without a string.
        private var currentID: [UInt8] = []
        private var position = -1
        /// The page's cells (``readCell(_:)``), by run and position, and the current run's.
        private var cells: [String: [Int: RunFigures.Cell]] = [:]
        private var currentCells: [Int: RunFigures.Cell] = [:]
        /// The run whose cells are being read, its ID's bytes.
        private var cellRun: (id: String, bytes: [UInt8])?
        /// The places (``metrics``' ranks) of the current cell's figures, in their order.
        private var ranks: [Int] = []
        /// The cells read so far, by position: the runs of a store repeat the same cells at the
        /// same positions, each known again by its columns' bytes, with no string made.
        private var known: [Int: KnownCell]

        /// A cell as read: its key and the columns it was read from.
        struct KnownCell {
            var key: CellKey
            /// The text columns' bytes one after another, and where each ends.
            var texts: [UInt8]
            var ends: [Int]
            var numbers: (feedBytes: Int, chunkSize: Int)
        }

        /// The text columns of a cell's key, by position in ``cellColumns``: parser, scenario,
        /// feed path, feed SHA-256, network.
        static let cellTexts: [Int32] = [2, 3, 4, 5, 8]

        init(
            runs: [RunFigures], metrics: [Metric], workerMedians: Set<Metric>, known: [Int: KnownCell] = [:]
        ) {
            var byID: [String: RunFigures] = [:]
            for run in runs { byID[run.runID] = run }
            self.runs = byID
            let columns = metrics.map { Array($0.column.utf8) }
            let order = columns.indices.sorted { columns[$0].lexicographicallyPrecedes(columns[$1]) }
            var ranks = Array(repeating: 0, count: columns.count)
            for (rank, index) in order.enumerated() { ranks[index] = rank }
            self.metrics = metrics.indices.map {
                (columns[$0], metrics[$0], workerMedians.contains(metrics[$0]), ranks[$0])
            }
            self.known = known
        }

        /// The cells read so far, by position (for the next page's reader).
        var knownCells: [Int: KnownCell] { known }

        /// Reads a row of ``cells(_:runs:placeholder:)``.
        mutating func readCell(_ row: some ResultColumns) {
            let id = row.bytes(0)
            if cellRun == nil || !Self.same(id, cellRun?.bytes ?? []) {
                cellRun = (String(decoding: id, as: UTF8.self), Array(id))
            }
            guard let run = cellRun?.id else { return }
            let position = row.integer(1)
            let cell = RunFigures.Cell(
                cell: cell(row, position), failed: row.optionalInteger(9), songs: row.integer(10), figures: [])
            cells[run, default: [:]][position] = cell
        }

        /// Reads a row of ``figures(_:metrics:runs:placeholder:)``.
        mutating func read(_ row: some ResultColumns) throws {
            let position = row.integer(1)
            let id = row.bytes(0)
            if current == nil || !Self.same(id, currentID) {
                finish()
                let runID = String(decoding: id, as: UTF8.self)
                guard let run = runs[runID] else {
                    throw StatsStoreError(description: "a summary of run \(runID), which the store's runs do not hold")
                }
                current = run
                currentID = Array(id)
                currentCells = cells[runID] ?? [:]
                self.position = -1
            }
            // A metric this bench does not know (a newer bench's) is left out, as it always was.
            let column = row.bytes(2)
            guard let metric = metrics.first(where: { Self.same(column, $0.column) }) else { return }
            let figure = RunFigures.Figure(
                metric: metric.metric, count: row.integer(3), median: row.real(4), maximum: row.real(5),
                workerMedians: metric.workers ? try SummaryRows.workerValues(row.bytes(6)) : [])
            if position != self.position {
                guard let cell = currentCells[position] else {
                    let run = current?.runID ?? ""
                    throw StatsStoreError(
                        description: "a summary of cell \(position) of run \(run), which the store's cells do not hold")
                }
                self.position = position
                ranks.removeAll(keepingCapacity: true)
                current?.cells.append(cell)
            }
            guard let last = current?.cells.indices.last else { return }
            let place = ranks.firstIndex { $0 > metric.rank } ?? ranks.endIndex
            ranks.insert(metric.rank, at: place)
            current?.cells[last].figures.insert(figure, at: place)
        }

        /// The key of the row's cell: the one read before at `position` when every column is the same.
        private mutating func cell(_ row: some ResultColumns, _ position: Int) -> CellKey {
            let numbers = (feedBytes: row.integer(6), chunkSize: row.integer(7))
            if let cell = known[position], cell.numbers == numbers {
                var start = 0
                var same = true
                for (index, column) in Self.cellTexts.enumerated() {
                    let end = cell.ends[index]
                    if !Self.same(row.bytes(column), cell.texts[start..<end]) {
                        same = false
                        break
                    }
                    start = end
                }
                if same { return cell.key }
            }
            let key = CellKey(
                parser: row.text(2), scenario: CellScenario(name: row.text(3)), feedPath: row.text(4),
                feedSHA256: row.text(5), feedBytes: numbers.feedBytes, chunkSize: numbers.chunkSize,
                network: row.text(8))
            var texts: [UInt8] = []
            var ends: [Int] = []
            for column in Self.cellTexts {
                texts.append(contentsOf: row.bytes(column))
                ends.append(texts.count)
            }
            known[position] = KnownCell(key: key, texts: texts, ends: ends, numbers: numbers)
            return key
        }

        /// Whether a column's bytes are `bytes`.
        static func same(_ column: UnsafeBufferPointer<UInt8>, _ bytes: some RandomAccessCollection<UInt8>) -> Bool {
            guard column.count == bytes.count else { return false }
            return bytes.withContiguousStorageIfAvailable { stored in
                guard let left = column.baseAddress, let right = stored.baseAddress else { return true }
                return memcmp(left, right, column.count) == 0
            } ?? column.elementsEqual(bytes)
        }

        /// Keeps the run being read, if any: the rows have ended.
        mutating func finish() {
            if let current { done[current.runID] = current }
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
        var known: [Int: Reader.KnownCell] = [:]
        for start in stride(from: 0, to: runs.count, by: page) {
            let slice = Array(runs[start..<min(start + page, runs.count)])
            let ids = slice.map(\.runID)
            var reader = Reader(runs: slice, metrics: metrics, workerMedians: workerMedians, known: known)
            try fetchFigures(cells(filter, runs: ids, placeholder: placeholder)) { reader.readCell($0) }
            try fetchFigures(figures(filter, metrics: metrics, runs: ids, placeholder: placeholder)) {
                try reader.read($0)
            }
            reader.finish()
            known = reader.knownCells
            // A page's runs, handed on once the query's rows are read, oldest first: what is held is a page.
            for run in slice { if let done = reader.done[run.runID] { try body(done) } }
        }
    }
}
