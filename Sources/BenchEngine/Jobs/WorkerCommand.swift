import Foundation

/// A worker to start: its program, arguments, standard input and environment.
///
/// A `bench` worker is `bench worker` with its ``WorkerJob`` as JSON on standard input
/// (``init(executable:job:environment:)``); other programs (a tool under test, valgrind wrapping a
/// worker) take arguments.
public struct WorkerCommand: Sendable {
    public var executable: String
    public var arguments: [String]
    /// What the worker reads on its standard input (then end of file); `nil` is `/dev/null`.
    public var input: [UInt8]?
    /// Variables set on top of the caller's, or the only ones when `inheritsEnvironment` is `false`.
    public var environment: [String: String]
    public var inheritsEnvironment: Bool

    /// The one argument that makes `bench` a worker.
    public static let workerArgument = "worker"

    public init(
        executable: String, arguments: [String], input: [UInt8]? = nil, environment: [String: String] = [:],
        inheritsEnvironment: Bool = true
    ) {
        self.executable = executable
        self.arguments = arguments
        self.input = input
        self.environment = environment
        self.inheritsEnvironment = inheritsEnvironment
    }

    /// The `bench` at `executable` as a worker running `job`.
    public init(executable: String, job: WorkerJob, environment: [String: String] = [:]) {
        self.init(
            executable: executable, arguments: [Self.workerArgument], input: job.encoded(), environment: environment)
    }
}
