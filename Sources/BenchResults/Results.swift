/// What the benchmark measures and keeps: value types shared by the engine that produces them, the
/// store that keeps them and the reports that show them (which never query the store).

/// The machine, build and libraries a run was made with.
public struct RunEnvironment: Codable, Sendable, Equatable {
    /// The run's identifier, e.g. "20261122T033512Z-4f1c" (sortable by time).
    public var runID: String
    /// ISO 8601 UTC start time.
    public var startedAt: String
    /// ISO 8601 UTC end time; `nil` while running or when the run was interrupted.
    public var endedAt: String?
    /// The command line as typed.
    public var commandLine: String
    /// "release" or "debug".
    public var buildConfiguration: String
    /// The git commit of the working directory (with "-dirty" when it has uncommitted changes), if any.
    public var gitCommit: String?
    public var host: String
    public var os: String
    public var cpuModel: String
    public var cores: Int
    public var swiftVersion: String
    public var libxml2Version: String
    public var expatVersion: String
    /// Whether every cell of the run finished (an interrupted run keeps its finished cells).
    public var complete: Bool

    public init(
        runID: String, startedAt: String, endedAt: String? = nil, commandLine: String, buildConfiguration: String,
        gitCommit: String?, host: String, os: String, cpuModel: String, cores: Int, swiftVersion: String,
        libxml2Version: String, expatVersion: String, complete: Bool = false
    ) {
        self.runID = runID
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.commandLine = commandLine
        self.buildConfiguration = buildConfiguration
        self.gitCommit = gitCommit
        self.host = host
        self.os = os
        self.cpuModel = cpuModel
        self.cores = cores
        self.swiftVersion = swiftVersion
        self.libxml2Version = libxml2Version
        self.expatVersion = expatVersion
        self.complete = complete
    }

    /// Whether the run's figures come from a debug build (not representative).
    public var isDebug: Bool { buildConfiguration != "release" }
}

/// What identifies a cell: one parser, scenario and feed (and chunk size and network profile).
public struct CellKey: Codable, Sendable, Hashable {
    public var parser: String
    /// "parse" (bytes already in memory), later "download" and "conditional".
    public var scenario: String
    public var feedPath: String
    public var feedSHA256: String
    public var feedBytes: Int
    public var chunkSize: Int
    /// The network profile; empty for `parse`.
    public var network: String

    public init(
        parser: String, scenario: String, feedPath: String, feedSHA256: String, feedBytes: Int, chunkSize: Int,
        network: String = ""
    ) {
        self.parser = parser
        self.scenario = scenario
        self.feedPath = feedPath
        self.feedSHA256 = feedSHA256
        self.feedBytes = feedBytes
        self.chunkSize = chunkSize
        self.network = network
    }
}

/// One measured iteration (warm-up iterations are not kept).
///
/// Times are in nanoseconds on a monotonic clock. A failed iteration has an ``error`` and is left
/// out of every average.
public struct Sample: Codable, Sendable, Equatable {
    public var cell: CellKey
    /// Songs built by this iteration.
    public var songs: Int
    /// The round (1-based) of `--rounds`.
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
    /// The worker's peak resident set, bytes (one value per worker process, repeated on its samples).
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

/// The figures of one cell: statistics over its successful samples.
public struct CellSummary: Codable, Sendable, Equatable {
    public var cell: CellKey
    /// Songs built per iteration (from the successful samples).
    public var songs: Int
    /// Statistics of the wall time, ns; `nil` when no iteration succeeded.
    public var wall: Statistics?
    /// Median CPU time, ns.
    public var cpuMedianNs: Double?
    /// Median time to the first song, ns.
    public var firstSongMedianNs: Double?
    /// Median download time, ns (`download` scenario).
    public var downloadMedianNs: Double?
    /// Median total time, ns (`download` scenario).
    public var totalMedianNs: Double?
    /// The highest peak resident set of the cell's workers, bytes.
    public var peakResidentBytes: Int?
    /// ``peakResidentBytes`` minus the `null` baseline's on the same feed, bytes.
    public var peakOverBaselineBytes: Int?
    /// Iterations that failed.
    public var failed: Int
    /// What went wrong with the cell as a whole (a crash, a time-out, disagreeing songs), if anything.
    public var outcome: String?
    /// Median body bytes received (`download` scenarios).
    public var bytesMedian: Double?
    /// The HTTP status of the successful samples (`download` scenarios).
    public var httpStatus: Int?
    /// Statistics of the instructions per parse (`--counter instructions`).
    public var instructions: Statistics?

    public init(
        cell: CellKey, songs: Int, wall: Statistics?, cpuMedianNs: Double?, firstSongMedianNs: Double?,
        downloadMedianNs: Double? = nil, totalMedianNs: Double? = nil, peakResidentBytes: Int?,
        peakOverBaselineBytes: Int?, failed: Int, outcome: String?
    ) {
        self.cell = cell
        self.songs = songs
        self.wall = wall
        self.cpuMedianNs = cpuMedianNs
        self.firstSongMedianNs = firstSongMedianNs
        self.downloadMedianNs = downloadMedianNs
        self.totalMedianNs = totalMedianNs
        self.peakResidentBytes = peakResidentBytes
        self.peakOverBaselineBytes = peakOverBaselineBytes
        self.failed = failed
        self.outcome = outcome
    }

    /// How much of the parse time was hidden under the download: the median over the iterations of
    /// (download + parse − total) / parse, between 0 (parsed after the download) and 1 (all of it
    /// while the bytes arrived). Taken per iteration: medians of different iterations do not add up.
    /// `nil` outside the `download` scenarios.
    public var overlap: Double?

    /// One iteration's overlap; see ``overlap``.
    public static func overlap(_ sample: Sample) -> Double? {
        guard let download = sample.downloadNs, let total = sample.totalNs, let parse = sample.wallNs, parse > 0 else {
            return nil
        }
        return Swift.min(1, Swift.max(0, Double(download + parse - total) / Double(parse)))
    }

    /// Throughput from the median wall time, in MB/s (10⁶ bytes a second).
    public var megabytesPerSecond: Double? {
        guard let median = wall?.median, median > 0 else { return nil }
        return Double(cell.feedBytes) / (median / 1e9) / 1e6
    }

    /// Summarises samples of one cell (the failed ones count in ``failed`` only).
    public static func summarise(
        _ cell: CellKey, samples: [Sample], peakResidentBytes: Int?, baselinePeakBytes: Int?, outcome: String?
    ) -> CellSummary {
        let good = samples.filter { $0.error == nil }
        func median(_ values: [Int?]) -> Double? { Statistics(values.compactMap { $0.map(Double.init) })?.median }
        var summary = CellSummary(
            cell: cell, songs: good.first?.songs ?? 0, wall: Statistics(good.compactMap { $0.wallNs.map(Double.init) }),
            cpuMedianNs: median(good.map(\.cpuNs)), firstSongMedianNs: median(good.map(\.firstSongNs)),
            downloadMedianNs: median(good.map(\.downloadNs)), totalMedianNs: median(good.map(\.totalNs)),
            peakResidentBytes: peakResidentBytes,
            peakOverBaselineBytes: peakResidentBytes.flatMap { peak in baselinePeakBytes.map { peak - $0 } },
            failed: samples.count - good.count, outcome: outcome)
        summary.bytesMedian = median(good.map(\.bytes))
        summary.overlap = Statistics(good.compactMap(CellSummary.overlap))?.median
        summary.httpStatus = good.compactMap(\.httpStatus).first
        summary.instructions = Statistics(good.compactMap { $0.instructions.map(Double.init) })
        return summary
    }
}

/// A whole run, as written to `<run-id>.json`: the environment, one summary per cell, every sample.
public struct RunResult: Codable, Sendable, Equatable {
    public var formatVersion: Int
    public var environment: RunEnvironment
    public var settings: RunSettings
    public var cells: [CellSummary]
    public var samples: [Sample]

    public init(environment: RunEnvironment, settings: RunSettings, cells: [CellSummary], samples: [Sample]) {
        self.formatVersion = 1
        self.environment = environment
        self.settings = settings
        self.cells = cells
        self.samples = samples
    }
}

/// The measuring settings of a run.
public struct RunSettings: Codable, Sendable, Equatable {
    public var iterations: Int
    public var warmup: Int
    public var rounds: Int
    public var chunkSize: Int
    /// The time limit of one iteration: a parse, or the longest stall of a download. A worker is
    /// killed after this times its iterations.
    public var timeoutSeconds: Double
    /// What the workers count: `nil` for times (wall, CPU, first song) and peak memory;
    /// "instructions" for callgrind's instruction counts (``Counter``).
    public var counter: String?
    /// An injected slowdown, in percent of the parse work, to validate the regression gate; `nil`
    /// (the default) in every real run. A run that has one says so in its files.
    public var slowdownPercent: Int?

    public init(
        iterations: Int, warmup: Int, rounds: Int, chunkSize: Int, timeoutSeconds: Double, counter: String? = nil,
        slowdownPercent: Int? = nil
    ) {
        self.iterations = iterations
        self.warmup = warmup
        self.rounds = rounds
        self.chunkSize = chunkSize
        self.timeoutSeconds = timeoutSeconds
        self.counter = counter
        self.slowdownPercent = slowdownPercent
    }

    /// The counter value for callgrind instruction counts.
    public static let instructionCounter = "instructions"
}

/// A sample read back from the stats store, with its run.
public struct StoredSample: Codable, Sendable, Equatable {
    public var runID: String
    public var runStartedAt: String
    public var sample: Sample

    public init(runID: String, runStartedAt: String, sample: Sample) {
        self.runID = runID
        self.runStartedAt = runStartedAt
        self.sample = sample
    }
}

/// One row of `bench report`: the averages of one parser on one scenario, feed and network profile
/// across the stored runs, like the original study's statistics screen.
public struct HistoryRow: Codable, Sendable, Equatable {
    public var scenario: String
    public var feedPath: String
    public var feedSHA256: String
    public var network: String
    public var parser: String
    /// Runs with at least one sample of this cell.
    public var runs: Int
    /// Successful samples.
    public var samples: Int
    /// Failed samples (left out of every figure).
    public var failed: Int
    public var wall: Statistics?
    public var cpu: Statistics?
    public var firstSong: Statistics?
    public var download: Statistics?
    public var total: Statistics?
    /// The median of the workers' peak resident sets, bytes.
    public var peakResidentMedianBytes: Double?
    /// The feed's size, bytes.
    public var feedBytes: Int?
    /// Statistics of the instructions per parse (runs with `--counter instructions`).
    public var instructions: Statistics?

    /// Groups stored samples by scenario, feed, network profile and parser, in first-seen order.
    public static func aggregate(_ stored: [StoredSample]) -> [HistoryRow] {
        struct Key: Hashable {
            var scenario, feedSHA256, network, parser: String
        }
        var order: [Key] = []
        var groups: [Key: [StoredSample]] = [:]
        for item in stored {
            let cell = item.sample.cell
            let key = Key(scenario: cell.scenario, feedSHA256: cell.feedSHA256, network: cell.network, parser: cell.parser)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(item)
        }
        return order.map { key in
            let items = groups[key] ?? []
            let good = items.filter { $0.sample.error == nil }.map(\.sample)
            func stats(_ values: [Int?]) -> Statistics? { Statistics(values.compactMap { $0.map(Double.init) }) }
            // One peak per worker: take each run and round once.
            var peaks: [String: Int] = [:]
            for item in items {
                if let peak = item.sample.peakResidentBytes { peaks["\(item.runID)/\(item.sample.round)"] = peak }
            }
            return HistoryRow(
                scenario: key.scenario, feedPath: items.last?.sample.cell.feedPath ?? "", feedSHA256: key.feedSHA256,
                network: key.network, parser: key.parser, runs: Set(items.map(\.runID)).count, samples: good.count,
                failed: items.count - good.count, wall: stats(good.map(\.wallNs)), cpu: stats(good.map(\.cpuNs)),
                firstSong: stats(good.map(\.firstSongNs)), download: stats(good.map(\.downloadNs)),
                total: stats(good.map(\.totalNs)), peakResidentMedianBytes: Statistics(peaks.values.map(Double.init))?.median,
                feedBytes: items.last?.sample.cell.feedBytes, instructions: stats(good.map(\.instructions)))
        }
    }
}
