/// One measured iteration (warm-up iterations are not kept).
///
/// Times are in nanoseconds on a monotonic clock. A failed iteration has an ``error`` and is left
/// out of every average.
///
/// Its figures are kept by metric (``figures``, read and written as `sample[metric]`); the named
/// properties below are views of the same values for the figures the engine and the reports name.
/// A new figure is a case of ``Metric`` and needs no property here.
public struct Sample: Sendable, Equatable {
    public var cell: CellKey
    /// The iteration's figures, keyed by metric: every stored ``Metric``'s value, if it has one.
    public var figures = MetricValues()
    /// Songs built by this iteration.
    public var songs: Int
    /// The round (1-based) of `--rounds`: which worker process of its cell measured it; 0 for the
    /// cell's allocation-counting worker (``allocations``), which runs after the rounds.
    public var round: Int
    /// The iteration within its cell (1-based, counted across rounds).
    public var iteration: Int
    /// Wall time of the parse, ns; in the `download` scenarios, the time spent inside the parser's
    /// calls (the final one included).
    public var wallNs: Int? {
        get { figures[.wallNs] }
        set { figures[.wallNs] = newValue }
    }
    /// CPU time of the measuring thread during the parse, ns.
    public var cpuNs: Int? {
        get { figures[.cpuNs] }
        set { figures[.cpuNs] = newValue }
    }
    /// Time from the start of the parse to the first song, ns (`nil` when no song was built).
    public var firstSongNs: Int? {
        get { figures[.firstSongNs] }
        set { figures[.firstSongNs] = newValue }
    }
    /// Download time (request sent → last byte), ns; `download` scenario only.
    public var downloadNs: Int? {
        get { figures[.downloadNs] }
        set { figures[.downloadNs] = newValue }
    }
    /// Total time (request sent → songs ready), ns; `download` scenario only.
    public var totalNs: Int? {
        get { figures[.totalNs] }
        set { figures[.totalNs] = newValue }
    }
    /// The worker process's peak resident set over its whole life, loading the feed included, bytes
    /// (one value per worker process, repeated on its samples).
    public var peakResidentBytes: Int? {
        get { figures[.peakResidentBytes] }
        set { figures[.peakResidentBytes] = newValue }
    }
    /// Body bytes received (`download` and `conditional` scenarios).
    public var bytes: Int? {
        get { figures[.bytes] }
        set { figures[.bytes] = newValue }
    }
    /// The HTTP status (`download` and `conditional` scenarios).
    public var httpStatus: Int? {
        get { figures[.httpStatus] }
        set { figures[.httpStatus] = newValue }
    }
    /// Why this iteration failed, if it did.
    public var error: String?
    /// Whether the sample came from a debug build.
    public var debug: Bool
    /// Instructions executed by the parse, counted by callgrind (`bench run --counter instructions`;
    /// such samples have no times and no peak memory: under valgrind they mean nothing).
    public var instructions: Int? {
        get { figures[.instructions] }
        set { figures[.instructions] = newValue }
    }
    /// Whether this parse lost the CPU to other work (`parse` scenario).
    ///
    /// Its wall time exceeded the process's CPU time by more than 3%. Such a sample is kept, and left out of every figure.
    public var preempted: Bool?
    /// The peak of the worker's first parse itself, bytes above the resident set just before it
    /// (one value per worker process, repeated on its samples); ``peakResidentBytes`` is the
    /// worker's whole life, loading the feed included.
    public var parsePeakBytes: Int? {
        get { figures[.parsePeakBytes] }
        set { figures[.parsePeakBytes] = newValue }
    }

    /// The time of the calibration workload (a fixed reference, no parser code) run in the same
    /// worker just before this parse, ns: how fast the machine ran at that moment.
    public var calibrationNs: Int? {
        get { figures[.calibrationNs] }
        set { figures[.calibrationNs] = newValue }
    }

    /// `malloc`-family calls made during this parse, counted by a worker with the allocation
    /// interposer loaded (such a sample has no times: the interposer changes them).
    ///
    /// Exact: the same binary and feed count the same.
    public var allocations: Int? {
        get { figures[.allocations] }
        set { figures[.allocations] = newValue }
    }
    /// The bytes those calls asked for.
    public var allocatedBytes: Int? {
        get { figures[.allocatedBytes] }
        set { figures[.allocatedBytes] = newValue }
    }

    /// Requests one iteration made (the practice scenarios: pages, a queue).
    public var requests: Int? {
        get { figures[.requests] }
        set { figures[.requests] = newValue }
    }
    /// Body bytes on the wire (compressed, for a gzip body); ``bytes`` is what the parser was fed.
    public var wireBytes: Int? {
        get { figures[.wireBytes] }
        set { figures[.wireBytes] = newValue }
    }
    /// Writing the songs to SQLite (the `store` practice), ns; ``wallNs`` is then the parse and
    /// ``totalNs`` both.
    public var storeNs: Int? {
        get { figures[.storeNs] }
        set { figures[.storeNs] = newValue }
    }
    /// A cancelled queue (`cancel-N`): body bytes delivered after the cancel (in flight; never parsed).
    public var afterCancelBytes: Int? {
        get { figures[.afterCancelBytes] }
        set { figures[.afterCancelBytes] = newValue }
    }
    /// A cancelled queue: time inside parser calls after the cancel, ns.
    public var afterCancelParseNs: Int? {
        get { figures[.afterCancelParseNs] }
        set { figures[.afterCancelParseNs] = newValue }
    }
    /// A cancelled queue: requests started after the cancel.
    public var startedAfterCancel: Int? {
        get { figures[.startedAfterCancel] }
        set { figures[.startedAfterCancel] = newValue }
    }
    /// Screens one iteration showed (the `read` practice); ``wallNs`` is then the time per screen,
    /// and ``allocations`` and ``allocatedBytes`` are the whole iteration's.
    public var visits: Int? {
        get { figures[.visits] }
        set { figures[.visits] = newValue }
    }
    /// Pages SQLite read from the file in one iteration (the `read` practice: its page cache's misses).
    public var pagesRead: Int? {
        get { figures[.pagesRead] }
        set { figures[.pagesRead] = newValue }
    }
    /// Bytes the parse allocated and had not freed when it returned: its songs (and any cache its
    /// library keeps).
    public var keptBytes: Int? {
        get { figures[.keptBytes] }
        set { figures[.keptBytes] = newValue }
    }
    /// The parse's estimated cycles (`bench run --counter instructions`): L1 hits + 5 × last-level
    /// hits + 35 × RAM hits in callgrind's cache simulation (Itamar Turner-Trauring's model, the
    /// figure of iai-callgrind and CodSpeed; see the engine's `InstructionCounter.estimatedCycles`).
    ///
    /// Exact, as ``instructions``: the same binary and feed count the same.
    public var estimatedCycles: Int? {
        get { figures[.estimatedCycles] }
        set { figures[.estimatedCycles] = newValue }
    }

    /// The parse's time in units of the calibration workload's: wall ÷ calibration.
    ///
    /// It does not move when the whole machine runs faster or slower; `nil` without both.
    public var calibratedTime: Double? {
        guard let wall = wallNs, let calibration = calibrationNs, calibration > 0 else { return nil }
        return Double(wall) / Double(calibration)
    }

    /// Whether the sample counts in the figures: it succeeded and kept the CPU.
    public var isClean: Bool { error == nil && preempted != true }

    public init(
        cell: CellKey, songs: Int, round: Int, iteration: Int, wallNs: Int?, cpuNs: Int?, firstSongNs: Int?,
        downloadNs: Int? = nil, totalNs: Int? = nil, peakResidentBytes: Int?, bytes: Int? = nil, httpStatus: Int? = nil,
        error: String?, debug: Bool
    ) {
        self.cell = cell
        self.songs = songs
        self.round = round
        self.iteration = iteration
        self.error = error
        self.debug = debug
        self.wallNs = wallNs
        self.cpuNs = cpuNs
        self.firstSongNs = firstSongNs
        self.downloadNs = downloadNs
        self.totalNs = totalNs
        self.peakResidentBytes = peakResidentBytes
        self.bytes = bytes
        self.httpStatus = httpStatus
    }
}

/// Encoded as it always was: the cell and the iteration's facts, then each figure under its metric's
/// name (``Metric/rawValue``, the named property's), a figure without a value left out.
extension Sample: Codable {
    /// What a sample holds beside its figures, encoded as Swift would encode it.
    private struct Facts: Codable {
        var cell: CellKey
        var songs, round, iteration: Int
        var error: String?
        var debug: Bool
        var preempted: Bool?
    }

    public init(from decoder: any Decoder) throws {
        let facts = try Facts(from: decoder)
        self.init(
            cell: facts.cell, songs: facts.songs, round: facts.round, iteration: facts.iteration, wallNs: nil,
            cpuNs: nil, firstSongNs: nil, peakResidentBytes: nil, error: facts.error, debug: facts.debug)
        preempted = facts.preempted
        figures = try MetricValues(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        let facts = Facts(
            cell: cell, songs: songs, round: round, iteration: iteration, error: error, debug: debug,
            preempted: preempted)
        try facts.encode(to: encoder)
        try figures.encode(to: encoder)
    }
}
