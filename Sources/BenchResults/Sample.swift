/// One measured iteration (warm-up iterations are not kept).
///
/// Times are in nanoseconds on a monotonic clock. A failed iteration has an ``error`` and is left
/// out of every average.
public struct Sample: Codable, Sendable, Equatable {
    public var cell: CellKey
    /// Songs built by this iteration.
    public var songs: Int
    /// The round (1-based) of `--rounds`: which worker process of its cell measured it; 0 for the
    /// cell's allocation-counting worker (``allocations``), which runs after the rounds.
    public var round: Int
    /// The iteration within its cell (1-based, counted across rounds).
    public var iteration: Int
    /// Wall time of the parse, ns; in the `download` scenarios, the time spent inside the parser's
    /// calls (the final one included).
    public var wallNs: Int?
    /// CPU time of the measuring thread during the parse, ns.
    public var cpuNs: Int?
    /// Time from the start of the parse to the first song, ns (`nil` when no song was built).
    public var firstSongNs: Int?
    /// Download time (request sent → last byte), ns; `download` scenario only.
    public var downloadNs: Int?
    /// Total time (request sent → songs ready), ns; `download` scenario only.
    public var totalNs: Int?
    /// The worker process's peak resident set over its whole life, loading the feed included, bytes
    /// (one value per worker process, repeated on its samples).
    public var peakResidentBytes: Int?
    /// Body bytes received (`download` and `conditional` scenarios).
    public var bytes: Int?
    /// The HTTP status (`download` and `conditional` scenarios).
    public var httpStatus: Int?
    /// Why this iteration failed, if it did.
    public var error: String?
    /// Whether the sample came from a debug build.
    public var debug: Bool
    /// Instructions executed by the parse, counted by callgrind (`bench run --counter instructions`;
    /// such samples have no times and no peak memory: under valgrind they mean nothing).
    public var instructions: Int?
    /// Whether this parse lost the CPU to other work (`parse` scenario).
    ///
    /// Its wall time exceeded the process's CPU time by more than 3%. Such a sample is kept, and left out of every figure.
    public var preempted: Bool?
    /// The peak of the worker's first parse itself, bytes above the resident set just before it
    /// (one value per worker process, repeated on its samples); ``peakResidentBytes`` is the
    /// worker's whole life, loading the feed included.
    public var parsePeakBytes: Int?

    /// The time of the calibration workload (a fixed reference, no parser code) run in the same
    /// worker just before this parse, ns: how fast the machine ran at that moment.
    public var calibrationNs: Int?

    /// `malloc`-family calls made during this parse, counted by a worker with the allocation
    /// interposer loaded (such a sample has no times: the interposer changes them).
    ///
    /// Exact: the same binary and feed count the same.
    public var allocations: Int?
    /// The bytes those calls asked for.
    public var allocatedBytes: Int?

    /// Requests one iteration made (the practice scenarios: pages, a queue).
    public var requests: Int?
    /// Body bytes on the wire (compressed, for a gzip body); ``bytes`` is what the parser was fed.
    public var wireBytes: Int?
    /// Writing the songs to SQLite (the `store` practice), ns; ``wallNs`` is then the parse and
    /// ``totalNs`` both.
    public var storeNs: Int?
    /// A cancelled queue (`cancel-N`): body bytes delivered after the cancel (in flight; never parsed).
    public var afterCancelBytes: Int?
    /// A cancelled queue: time inside parser calls after the cancel, ns.
    public var afterCancelParseNs: Int?
    /// A cancelled queue: requests started after the cancel.
    public var startedAfterCancel: Int?
    /// Screens one iteration showed (the `read` practice); ``wallNs`` is then the time per screen,
    /// and ``allocations`` and ``allocatedBytes`` are the whole iteration's.
    public var visits: Int?
    /// Pages SQLite read from the file in one iteration (the `read` practice: its page cache's misses).
    public var pagesRead: Int?
    /// Bytes the parse allocated and had not freed when it returned: its songs (and any cache its
    /// library keeps).
    public var keptBytes: Int?
    /// The parse's estimated cycles (`bench run --counter instructions`): L1 hits + 5 × last-level
    /// hits + 35 × RAM hits in callgrind's cache simulation (Itamar Turner-Trauring's model, the
    /// figure of iai-callgrind and CodSpeed; see the engine's `InstructionCounter.estimatedCycles`).
    ///
    /// Exact, as ``instructions``: the same binary and feed count the same.
    public var estimatedCycles: Int?

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
        self.wallNs = wallNs
        self.cpuNs = cpuNs
        self.firstSongNs = firstSongNs
        self.downloadNs = downloadNs
        self.totalNs = totalNs
        self.peakResidentBytes = peakResidentBytes
        self.bytes = bytes
        self.httpStatus = httpStatus
        self.error = error
        self.debug = debug
    }
}
