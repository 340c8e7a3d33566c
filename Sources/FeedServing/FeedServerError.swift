import Foundation

/// The server could not start.
public struct FeedServerError: Error, CustomStringConvertible, Sendable {
    public var description: String
}
