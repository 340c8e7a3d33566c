import BenchResults
import GRDB

/// A row of `runs`.
struct RunRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "runs"

    var runID: String
    var startedAt: String
    var endedAt: String?
    var commandLine: String
    var buildConfiguration: String
    var gitCommit: String?
    var host: String
    var os: String
    var cpuModel: String
    var cores: Int
    var swiftVersion: String
    var libxml2Version: String
    var expatVersion: String
    var complete: Bool
    // The settings (migration v4; `nil` in runs stored before it).
    var iterations: Int?
    var warmup: Int?
    var rounds: Int?
    var chunkSize: Int?
    var timeoutSeconds: Double?
    var counter: String?
    var slowdownPercent: Int?
    var reference: String?
    var retryPreempted: Bool?
    var downloadIterations: Int?
    var downloadRounds: Int?
    /// Whether the harness found the run's figures unreliable; `nil` until the run ends.
    var noisy: Bool?
    /// The run's ``NoiseReport`` as JSON.
    var noise: String?

    enum CodingKeys: String, CodingKey {
        case runID = "run_id", startedAt = "started_at", endedAt = "ended_at", commandLine = "command_line"
        case buildConfiguration = "build_configuration", gitCommit = "git_commit", host, os, cpuModel = "cpu_model"
        case cores, swiftVersion = "swift_version", libxml2Version = "libxml2_version"
        case expatVersion = "expat_version", complete
        case iterations, warmup, rounds, chunkSize = "chunk_size", timeoutSeconds = "timeout_seconds", counter
        case slowdownPercent = "slowdown_percent", reference, retryPreempted = "retry_preempted", noisy, noise
        case downloadIterations = "download_iterations", downloadRounds = "download_rounds"
    }

    enum Columns {
        static let startedAt = Column(CodingKeys.startedAt)
    }

    init(_ environment: RunEnvironment, settings: RunSettings?) {
        iterations = settings?.iterations
        warmup = settings?.warmup
        rounds = settings?.rounds
        chunkSize = settings?.chunkSize
        timeoutSeconds = settings?.timeoutSeconds
        counter = settings?.counter
        slowdownPercent = settings?.slowdownPercent
        reference = settings?.reference
        retryPreempted = settings?.retryPreempted
        downloadIterations = settings?.downloadIterations
        downloadRounds = settings?.downloadRounds
        runID = environment.runID
        startedAt = environment.startedAt
        endedAt = environment.endedAt
        commandLine = environment.commandLine
        buildConfiguration = environment.buildConfiguration
        gitCommit = environment.gitCommit
        host = environment.host
        os = environment.os
        cpuModel = environment.cpuModel
        cores = environment.cores
        swiftVersion = environment.swiftVersion
        libxml2Version = environment.libxml2Version
        expatVersion = environment.expatVersion
        complete = environment.complete
    }

    var environment: RunEnvironment {
        RunEnvironment(
            runID: runID, startedAt: startedAt, endedAt: endedAt, commandLine: commandLine,
            buildConfiguration: buildConfiguration, gitCommit: gitCommit, host: host, os: os, cpuModel: cpuModel,
            cores: cores, swiftVersion: swiftVersion, libxml2Version: libxml2Version, expatVersion: expatVersion,
            complete: complete)
    }

    /// The run's settings, when it was stored with them.
    var settings: RunSettings? {
        guard let iterations, let warmup, let rounds, let chunkSize, let timeoutSeconds else { return nil }
        return RunSettings(
            iterations: iterations, warmup: warmup, rounds: rounds, chunkSize: chunkSize,
            timeoutSeconds: timeoutSeconds,
            counter: counter, slowdownPercent: slowdownPercent, reference: reference, retryPreempted: retryPreempted,
            downloadIterations: downloadIterations, downloadRounds: downloadRounds)
    }
}

/// A row of `samples`.
struct SampleRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "samples"

    var id: Int64?
    var runID: String
    var parser: String
    var scenario: String
    var feedPath: String
    var feedSHA256: String
    var feedBytes: Int
    var songs: Int
    var chunkSize: Int
    var network: String
    var round: Int
    var iteration: Int
    var wallNs: Int?
    var cpuNs: Int?
    var firstSongNs: Int?
    var downloadNs: Int?
    var totalNs: Int?
    var peakResidentBytes: Int?
    var bytes: Int?
    var httpStatus: Int?
    var error: String?
    var debug: Bool
    var instructions: Int?
    var preempted: Bool?
    var parsePeakBytes: Int?
    var calibrationNs: Int?
    var allocations: Int?
    var allocatedBytes: Int?
    var keptBytes: Int?
    var requests: Int?
    var wireBytes: Int?
    var storeNs: Int?
    var afterCancelBytes: Int?
    var afterCancelParseNs: Int?
    var startedAfterCancel: Int?

    enum CodingKeys: String, CodingKey {
        case id, runID = "run_id", parser, scenario, feedPath = "feed_path", feedSHA256 = "feed_sha256"
        case feedBytes = "feed_bytes", songs, chunkSize = "chunk_size", network, round, iteration
        case wallNs = "wall_ns", cpuNs = "cpu_ns", firstSongNs = "first_song_ns", downloadNs = "download_ns"
        case totalNs = "total_ns", peakResidentBytes = "peak_resident_bytes", bytes, httpStatus = "http_status"
        case error, debug, instructions, preempted, parsePeakBytes = "parse_peak_bytes", calibrationNs =
            "calibration_ns"
        case allocations, allocatedBytes = "allocated_bytes", keptBytes = "kept_bytes"
        case requests, wireBytes = "wire_bytes", storeNs = "store_ns", afterCancelBytes = "after_cancel_bytes"
        case afterCancelParseNs = "after_cancel_parse_ns", startedAfterCancel = "started_after_cancel"
    }

    init(_ sample: Sample, runID: String) {
        id = nil
        self.runID = runID
        parser = sample.cell.parser
        scenario = sample.cell.scenario.name
        feedPath = sample.cell.feedPath
        feedSHA256 = sample.cell.feedSHA256
        feedBytes = sample.cell.feedBytes
        songs = sample.songs
        chunkSize = sample.cell.chunkSize
        network = sample.cell.network
        round = sample.round
        iteration = sample.iteration
        wallNs = sample.wallNs
        cpuNs = sample.cpuNs
        firstSongNs = sample.firstSongNs
        downloadNs = sample.downloadNs
        totalNs = sample.totalNs
        peakResidentBytes = sample.peakResidentBytes
        bytes = sample.bytes
        httpStatus = sample.httpStatus
        error = sample.error
        debug = sample.debug
        instructions = sample.instructions
        preempted = sample.preempted
        parsePeakBytes = sample.parsePeakBytes
        calibrationNs = sample.calibrationNs
        allocations = sample.allocations
        allocatedBytes = sample.allocatedBytes
        keptBytes = sample.keptBytes
        requests = sample.requests
        wireBytes = sample.wireBytes
        storeNs = sample.storeNs
        afterCancelBytes = sample.afterCancelBytes
        afterCancelParseNs = sample.afterCancelParseNs
        startedAfterCancel = sample.startedAfterCancel
    }

    var sample: Sample {
        var sample = Sample(
            cell: CellKey(
                parser: parser, scenario: CellScenario(name: scenario), feedPath: feedPath, feedSHA256: feedSHA256,
                feedBytes: feedBytes,
                chunkSize: chunkSize, network: network),
            songs: songs, round: round, iteration: iteration, wallNs: wallNs, cpuNs: cpuNs, firstSongNs: firstSongNs,
            downloadNs: downloadNs, totalNs: totalNs, peakResidentBytes: peakResidentBytes, bytes: bytes,
            httpStatus: httpStatus, error: error, debug: debug)
        sample.instructions = instructions
        sample.preempted = preempted
        sample.parsePeakBytes = parsePeakBytes
        sample.calibrationNs = calibrationNs
        sample.allocations = allocations
        sample.allocatedBytes = allocatedBytes
        sample.keptBytes = keptBytes
        sample.requests = requests
        sample.wireBytes = wireBytes
        sample.storeNs = storeNs
        sample.afterCancelBytes = afterCancelBytes
        sample.afterCancelParseNs = afterCancelParseNs
        sample.startedAfterCancel = startedAfterCancel
        return sample
    }
}
