/// The measuring settings of a run.
public struct RunSettings: Codable, Sendable, Equatable {
    /// Timed iterations asked of each worker process (one worker per cell and round).
    public var iterations: Int
    public var warmup: Int
    /// Worker processes per cell: every round runs one worker of each cell, the order rotated.
    public var rounds: Int
    public var chunkSize: Int
    /// The time limit of one iteration: a parse, or the longest stall of a download.
    ///
    /// A worker is killed after this times its iterations.
    public var timeoutSeconds: Double
    /// What the workers count: `nil` for times (wall, CPU, first song) and peak memory;
    /// "instructions" for callgrind's instruction counts (the engine's `Counter`).
    public var counter: String?
    /// An injected slowdown, in percent of the parse work, to validate the regression gate; `nil`
    /// (the default) in every real run.
    ///
    /// A run that has one says so in its files.
    public var slowdownPercent: Int?
    /// Timed iterations of each download worker (`download` and `conditional` cells); `nil`: as
    /// ``iterations``.
    public var downloadIterations: Int?
    /// Untimed warm-ups of each download worker and practice worker; `nil`: as ``warmup``.
    public var downloadWarmup: Int?
    /// Worker processes per download cell (`download` and `conditional`), spread evenly over the
    /// rounds; `nil`: one a round, as parse cells.
    public var downloadRounds: Int?
    /// Download workers (`download` and `conditional` cells) of one round that run at once, each
    /// fetching over a shaped link of its own (``ScenarioTraits/workersSideBySide``); `nil` or 1: one
    /// at a time, as every run made before this was recorded.
    ///
    /// A download worker's transfer is the link's time (265 ms on the default profile) and its parse
    /// a few milliseconds of it: workers side by side, each on a link of its own, measure what one
    /// alone does while the machine has a core for each (`RunDefaults.downloadsAtOnce`). Not kept
    /// by the store (its run columns are the settings of migration v4).
    public var downloadsAtOnce: Int?
    /// The parser that relative speeds are given against; `nil`: the fastest of each table.
    public var reference: String?
    /// Whether a parse that lost the CPU to other work was measured again (``Sample/preempted``);
    /// `nil` in runs made before this was recorded.
    public var retryPreempted: Bool?
    /// Whether parses that lost the CPU to other work count in the figures as if they had kept it
    /// (`bench run`'s hidden `--count-preempted`: the tool's own tests, which check what it does with
    /// figures, not how quiet the machine is); `nil`: they do not, as in every measurement.
    public var countsPreempted: Bool?
    /// Whether each `parse` cell also ran a worker that counts its allocations (``Sample/allocations``),
    /// after the timed rounds; `nil` in runs made before allocations were counted.
    public var countsAllocations: Bool?
    /// When the rounds stop: `nil` after ``rounds`` rounds; else once every relative interval is as
    /// narrow as asked or the time is spent, ``rounds`` being the most (``StoppingRule``).
    ///
    /// In a finished run's result, ``rounds`` is the rounds run.
    public var stopping: StoppingRule?
    /// The document workload's event sink inside the timed region.
    ///
    /// "checksum": every event's bytes read into a running checksum, nothing kept (the canonical sink
    /// walked untimed after the timed parses); `nil`: not a document run, or one made before this was
    /// recorded, which timed the canonical sink (every event hashed, attributes sorted, text merged).
    /// Not kept by the store (its run columns are the settings of migration v4).
    public var timedSink: String?

    /// What ``timedSink`` means, in a few words, for the reports.
    public var timedSinkDescription: String? {
        guard let timedSink else { return nil }
        return timedSink == Self.checksumSink
            ? "timed sink: \(timedSink) (the parser's events read into a running checksum; the canonical sink untimed)"
            : "timed sink: \(timedSink)"
    }

    /// ``timedSink`` of a document run that times the checksum sink.
    public static let checksumSink = "checksum"

    public init(
        iterations: Int, warmup: Int, rounds: Int, chunkSize: Int, timeoutSeconds: Double, counter: String? = nil,
        slowdownPercent: Int? = nil, reference: String? = nil, retryPreempted: Bool? = nil,
        downloadIterations: Int? = nil,
        downloadRounds: Int? = nil, downloadWarmup: Int? = nil
    ) {
        self.downloadRounds = downloadRounds
        self.downloadWarmup = downloadWarmup
        self.downloadIterations = downloadIterations
        self.reference = reference
        self.retryPreempted = retryPreempted
        self.iterations = iterations
        self.warmup = warmup
        self.rounds = rounds
        self.chunkSize = chunkSize
        self.timeoutSeconds = timeoutSeconds
        self.counter = counter
        self.slowdownPercent = slowdownPercent
    }

    /// Whether download cells run in `round` (1-based): `downloadRounds` of the rounds, spread evenly.
    ///
    /// A run with a ``stopping`` rule may stop early: its download workers are spread over the rounds
    /// it runs before precision may stop it (`downloadSpan`), which every such run reaches unless
    /// its time is spent.
    public func runsDownloads(inRound round: Int) -> Bool {
        let span = downloadSpan
        guard round <= span else { return false }
        guard let wanted = downloadRounds, wanted < span else { return true }
        guard wanted > 0 else { return false }
        // Rounds 1, 1 + span/wanted, 1 + 2·span/wanted, …
        return (0..<wanted).contains { k in 1 + (k * span) / wanted == round }
    }

    /// Worker processes per download cell (at most; fewer when a ``stopping`` rule's time ran out first).
    public var downloadWorkers: Int {
        min(downloadSpan, downloadRounds ?? downloadSpan)
    }

    /// The rounds download workers are spread over: every round, or with a ``stopping`` rule the
    /// rounds before precision may end the run (its floor, at least ``StoppingRule/minimumRounds``).
    var downloadSpan: Int {
        guard let stopping else { return rounds }
        return min(rounds, max(StoppingRule.minimumRounds, stopping.floorRounds ?? 0))
    }

    /// Timed iterations of each download worker.
    public var downloadIterationsPerWorker: Int { downloadIterations ?? iterations }

    /// Untimed warm-ups of each download and practice worker.
    public var downloadWarmupPerWorker: Int { downloadWarmup ?? warmup }

    /// Download workers that run at once (at least 1).
    public var downloadWorkersAtOnce: Int { max(1, downloadsAtOnce ?? 1) }

    /// The counter value for callgrind instruction counts.
    public static let instructionCounter = "instructions"
}
