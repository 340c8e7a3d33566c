import Foundation

/// A feed could not be read.
package struct FeedFileError: Error, CustomStringConvertible, Sendable {
    package var description: String
}
