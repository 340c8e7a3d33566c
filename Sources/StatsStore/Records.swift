import BenchResults
import Foundation
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
    /// Migration v9; `nil`: as `warmup` (runs stored before it warmed both alike).
    var downloadWarmup: Int?
    /// Whether the harness found the run's figures unreliable; `nil` until the run ends.
    var noisy: Bool?
    /// The run's ``NoiseReport`` as JSON.
    var noise: String?
    /// The measured shapes of a document-workload run's documents, as a JSON array of
    /// `DocumentProfile` (migration v8; `nil` for other runs and runs stored before it).
    var documents: String?
    /// The summaries of the cells the agreement check kept from being timed (scenario `not timed`:
    /// the parser, the feed, and why in their `outcome`), as a JSON array of `CellSummary`
    /// (migration v10; `nil` when every parser was timed, and for runs stored before it).
    var notTimed: String?

    enum CodingKeys: String, CodingKey {
        case runID = "run_id", startedAt = "started_at", endedAt = "ended_at", commandLine = "command_line"
        case buildConfiguration = "build_configuration", gitCommit = "git_commit", host, os, cpuModel = "cpu_model"
        case cores, swiftVersion = "swift_version", libxml2Version = "libxml2_version"
        case expatVersion = "expat_version", complete
        case iterations, warmup, rounds, chunkSize = "chunk_size", timeoutSeconds = "timeout_seconds", counter
        case slowdownPercent = "slowdown_percent", reference, retryPreempted = "retry_preempted", noisy, noise
        case downloadIterations = "download_iterations", downloadRounds = "download_rounds", documents
        case downloadWarmup = "download_warmup", notTimed = "not_timed"
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
        downloadWarmup = settings?.downloadWarmup
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

    /// Document shapes as the `documents` column holds them: JSON, keys sorted (a run's content digest
    /// covers them).
    static func documentsText(_ documents: [DocumentProfile]?) throws -> String? {
        guard let documents, !documents.isEmpty else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(documents), as: UTF8.self)
    }

    /// The run's document shapes (`nil`: none stored, or unreadable).
    var documentProfiles: [DocumentProfile]? { documents.flatMap(Self.documentProfiles) }

    /// Document shapes read back from the `documents` column (`nil`: unreadable).
    static func documentProfiles(_ text: String) -> [DocumentProfile]? {
        try? JSONDecoder().decode([DocumentProfile].self, from: Data(text.utf8))
    }

    /// The `documents` column of every run that has one, newest first (both stores' SQL).
    static let documentsNewestFirst =
        "SELECT documents FROM runs WHERE documents IS NOT NULL ORDER BY started_at DESC, run_id DESC"

    /// The shapes in the `documents` columns of runs given newest first, the newest per document.
    static func newestShapes(_ columns: [String]) -> [String: DocumentProfile] {
        var shapes: [String: DocumentProfile] = [:]
        for column in columns {
            for profile in documentProfiles(column) ?? [] {
                guard let sha256 = profile.sha256, shapes[sha256] == nil else { continue }
                shapes[sha256] = profile
            }
        }
        return shapes
    }

    /// Not-timed cells as the `not_timed` column holds them: the summaries of scenario `not timed`
    /// among `cells`, as JSON, keys sorted (a run's content digest covers them); `nil` for none.
    static func notTimedText(_ cells: [CellSummary]) throws -> String? {
        let notTimed = cells.filter { $0.cell.scenario == CellKey.notTimedScenario }
        guard !notTimed.isEmpty else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(notTimed), as: UTF8.self)
    }

    /// The run's not-timed cells, as its own summaries have them (`[]`: none stored, or unreadable).
    var notTimedCells: [CellSummary] {
        guard let notTimed else { return [] }
        return (try? JSONDecoder().decode([CellSummary].self, from: Data(notTimed.utf8))) ?? []
    }

    /// The run's settings, when it was stored with them.
    var settings: RunSettings? {
        guard let iterations, let warmup, let rounds, let chunkSize, let timeoutSeconds else { return nil }
        return RunSettings(
            iterations: iterations, warmup: warmup, rounds: rounds, chunkSize: chunkSize,
            timeoutSeconds: timeoutSeconds,
            counter: counter, slowdownPercent: slowdownPercent, reference: reference, retryPreempted: retryPreempted,
            downloadIterations: downloadIterations, downloadRounds: downloadRounds, downloadWarmup: downloadWarmup)
    }
}

/// A row of `samples`: the cell and the iteration, then a column per stored ``Metric`` (its
/// ``Metric/column``).
struct SampleRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "samples"

    var id: Int64?
    var runID: String
    var sample: Sample

    init(_ sample: Sample, runID: String) {
        id = nil
        self.runID = runID
        self.sample = sample
    }

    init(row: Row) throws {
        try self.init(named: NamedRow(row))
    }

    init(named row: NamedRow) throws {
        id = row["id"]
        runID = row["run_id"]
        sample = Sample(
            cell: CellKey(
                parser: row["parser"], scenario: CellScenario(name: row["scenario"]), feedPath: row["feed_path"],
                feedSHA256: row["feed_sha256"], feedBytes: row["feed_bytes"], chunkSize: row["chunk_size"],
                network: row["network"]),
            songs: row["songs"], round: row["round"], iteration: row["iteration"], wallNs: nil, cpuNs: nil,
            firstSongNs: nil, peakResidentBytes: nil, error: row["error"], debug: row["debug"])
        sample.preempted = row["preempted"]
        for metric in Metric.stored { sample[metric] = row[metric.column] }
    }

    func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["run_id"] = runID
        container["parser"] = sample.cell.parser
        container["scenario"] = sample.cell.scenario.name
        container["feed_path"] = sample.cell.feedPath
        container["feed_sha256"] = sample.cell.feedSHA256
        container["feed_bytes"] = sample.cell.feedBytes
        container["songs"] = sample.songs
        container["chunk_size"] = sample.cell.chunkSize
        container["network"] = sample.cell.network
        container["round"] = sample.round
        container["iteration"] = sample.iteration
        container["error"] = sample.error
        container["debug"] = sample.debug
        container["preempted"] = sample.preempted
        for metric in Metric.stored { container[metric.column] = sample[metric] }
    }
}
