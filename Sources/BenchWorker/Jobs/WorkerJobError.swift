import Foundation

/// A worker was given no job it can read.
package struct WorkerJobError: Error, CustomStringConvertible, Sendable {
    package var description: String
}
