import Foundation

/// A worker was asked for something it cannot do.
public struct VerifyWorkerError: Error, CustomStringConvertible, Sendable {
    public var description: String
}
