import Foundation

/// A query the server cannot honour: answered `400 Bad Request` with this message.
public struct FeedQueryError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
