import BenchResults
import FeedParsers
import FeedTransport

/// What a run is asked to measure, as its options give it (`nil`: not given), and the settings
/// that makes with ``RunDefaults``.
///
/// ```swift
/// var request = RunRequest(parsers: ["libxml2", "expat"], scenarios: [.parse])
/// request.precision = 0.02
/// let settings = request.settings  // stops at ±2%, after at most 100 rounds or 300 s
/// ```
package struct RunRequest: Sendable {
    package var parsers: [String]
    package var scenarios: [ScenarioID]
    /// What the parsers build.
    package var workload: Workload
    package var rounds: Int?
    package var warmup: Int?
    package var iterations: Int?
    package var chunkSize: Int?
    package var timeoutSeconds: Double?
    /// Stop the rounds once every relative interval is this narrow (a half-width, 0.02 for ±2%).
    package var precision: Double?
    /// Seconds of measuring rounds not to pass.
    package var maxSeconds: Double?
    /// Count instructions (callgrind) instead of timing.
    package var countsInstructions = false
    /// The parser the others' speed is given against; `nil`: ``documentReference``, else the
    /// fastest of each table.
    package var reference: String?
    package var downloadRounds = RunDefaults.downloadRounds
    /// Download workers of a round that run at once, each on a link of its own (1: one at a time).
    package var downloadsAtOnce = RunDefaults.downloadsAtOnce
    /// Do not measure again a parse that lost the CPU (it is still flagged and left out).
    package var keepPreempted = false
    /// Count parses that lost the CPU in the figures (the tool's own tests; never for measuring).
    package var countPreempted = false
    /// Run the worker per parse cell that counts allocations.
    package var countsAllocations = true
    /// Extra parse work per timed parse, in percent (the regression gate's test); 0 for none.
    package var slowdownPercent = 0
    /// The feeds named (none: ``FeedResolver/defaultFeed``).
    package var feeds: [String] = []
    /// Also a generated feed of this many songs.
    package var songs: Int?
    /// A remote feed to download instead of the embedded server's (an http or https URL).
    package var url: String?
    /// The documents of the document workload (`nil` or empty: the default corpus).
    package var documents: DocumentCorpus?
    /// The paged scenario's page sizes, the queue's widths, the concurrent scenario's thread
    /// counts (`nil`: ``RunPlan``'s defaults).
    package var pageSizes: [Int]?
    package var queueWidths: [Int]?
    package var threadCounts: [Int]?
    /// Songs per page in the queue scenario.
    package var queuePageSize = RunDefaults.queuePageSize
    /// Parsers to time even when no other parser confirms their answer.
    package var allowUnverified: Set<String> = []
    /// The embedded server's network profile.
    package var network: NetworkProfile = .wifi
    /// The options that set some scenarios only that were given (the defaults of those not given
    /// apply): ``check()`` refuses one for scenarios the run does not have.
    package var optionsGiven: Set<ScenarioOption> = []

    package init(parsers: [String], scenarios: [ScenarioID], workload: Workload = .songs) {
        self.parsers = parsers
        self.scenarios = scenarios
        self.workload = workload
    }

    /// Whether this is a timed run of a parse-from-memory scenario (`parse`, `document`) given none of
    /// rounds, precision and time limit: it stops at ``RunDefaults/precision``, after
    /// ``RunDefaults/floorRounds`` to ``RunDefaults/rounds`` rounds (``RunDefaults/documentRounds``
    /// for the document workload).
    package var precisionByDefault: Bool {
        rounds == nil && precision == nil && maxSeconds == nil && !countsInstructions
            && scenarios.contains(where: \.traits.timesParseFromMemory)
    }

    /// Whether the rounds stop on a precision or a time limit (or the default precision) rather than
    /// after a number of rounds.
    package var stopping: Bool { precision != nil || maxSeconds != nil || precisionByDefault }

    /// The document workload's default reference: c-libxml2 when it runs, so that every document's
    /// ratios are against the same parser and compare across documents.
    package var documentReference: String? {
        workload == .document && parsers.contains(CLibXML2ReferenceParser.name) ? CLibXML2ReferenceParser.name : nil
    }

    /// The measuring settings the request makes.
    package var settings: RunSettings {
        let stoppingRounds = stopping && !precisionByDefault
        let defaultRounds =
            precisionByDefault && workload == .document ? RunDefaults.documentRounds : RunDefaults.rounds
        let rounds = self.rounds ?? (stoppingRounds ? RunDefaults.stoppingMaxRounds : defaultRounds)
        var settings = RunSettings(
            iterations: iterations ?? RunDefaults.iterations.parse, warmup: warmup ?? RunDefaults.warmup,
            rounds: rounds, chunkSize: chunkSize ?? RunDefaults.chunkSize,
            timeoutSeconds: timeoutSeconds ?? RunDefaults.timeoutSeconds,
            counter: countsInstructions ? RunSettings.instructionCounter : nil,
            slowdownPercent: slowdownPercent > 0 ? slowdownPercent : nil, reference: reference ?? documentReference,
            retryPreempted: !countsInstructions && !keepPreempted && !countPreempted,
            downloadIterations: iterations
                ?? (scenarios.contains { $0.traits.table == .practice }
                    ? RunDefaults.iterations.practice : RunDefaults.iterations.download),
            downloadRounds: downloadRounds, downloadWarmup: warmup ?? RunDefaults.downloadWarmup)
        if countPreempted { settings.countsPreempted = true }
        if downloadsAtOnce > 1 { settings.downloadsAtOnce = downloadsAtOnce }
        settings.countsAllocations =
            !countsInstructions && countsAllocations && scenarios.contains(where: \.countsAllocations)
        if stopping {
            settings.stopping = StoppingRule(
                precision: precision ?? (precisionByDefault ? RunDefaults.precision : nil),
                maxSeconds: maxSeconds ?? (precision == nil ? nil : RunDefaults.stoppingMaxSeconds),
                maxRounds: rounds)
            if precisionByDefault { settings.stopping?.floorRounds = RunDefaults.floorRounds }
        }
        return settings
    }
}
