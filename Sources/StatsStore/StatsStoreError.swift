import Foundation
import GRDB

/// The stats store failed.
public struct StatsStoreError: Error, CustomStringConvertible, Sendable {
    public var description: String
    /// The connection to a database server was lost: what was committed before is kept there.
    public var connectionLost: Bool

    public init(description: String, connectionLost: Bool = false) {
        self.description = description
        self.connectionLost = connectionLost
    }
}
