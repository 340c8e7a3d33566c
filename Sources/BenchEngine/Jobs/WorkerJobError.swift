import Foundation

/// A worker was given no job it can read.
public struct WorkerJobError: Error, CustomStringConvertible, Sendable {
    public var description: String
}
