import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// The server could not start.
public struct FeedServerError: Error, CustomStringConvertible, Sendable {
    public var description: String
}
