/// The machine, build and libraries a run was made with.
public struct RunEnvironment: Codable, Sendable, Equatable {
    /// The run's identifier, such as "20261122T033512Z-4f1c" (sortable by time).
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

    /// "2 cores", or "1 core" (a CI container's).
    public var coresText: String { "\(cores) core\(cores == 1 ? "" : "s")" }
}
