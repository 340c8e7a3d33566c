import Foundation

/// A feed could not be read.
public struct FeedFileError: Error, CustomStringConvertible, Sendable {
    public var description: String
}
