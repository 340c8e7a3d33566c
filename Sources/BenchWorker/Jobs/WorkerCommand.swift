import Foundation

/// A worker to start: its program, arguments, standard input and environment.
///
/// A worker is the worker executable (`bench-worker worker`) with its ``WorkerJob`` as JSON on standard input
/// (``init(executable:job:environment:)``); other programs (a tool under test, valgrind wrapping a
/// worker) take arguments.
package struct WorkerCommand: Sendable {
    package var executable: String
    package var arguments: [String]
    /// What the worker reads on its standard input (then end of file); `nil` is `/dev/null`.
    package var input: [UInt8]?
    /// Variables set on top of the caller's, or the only ones when `inheritsEnvironment` is `false`.
    package var environment: [String: String]
    package var inheritsEnvironment: Bool

    /// The one argument a worker executable takes (``WorkerTool/main(parsers:)`` refuses any other,
    /// rather than wait for a job on a terminal).
    package static let workerArgument = "worker"

    package init(
        executable: String, arguments: [String], input: [UInt8]? = nil, environment: [String: String] = [:],
        inheritsEnvironment: Bool = true
    ) {
        self.executable = executable
        self.arguments = arguments
        self.input = input
        self.environment = environment
        self.inheritsEnvironment = inheritsEnvironment
    }

    /// The worker executable at `executable` running `job`.
    package init(executable: String, job: WorkerJob, environment: [String: String] = [:]) {
        self.init(
            executable: executable, arguments: [Self.workerArgument], input: job.encoded(), environment: environment)
    }
}
