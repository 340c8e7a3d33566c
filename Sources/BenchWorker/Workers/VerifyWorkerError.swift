import Foundation

/// A worker was asked for something it cannot do.
package struct VerifyWorkerError: Error, CustomStringConvertible, Sendable {
    package var description: String
}
