import Foundation

/// ``WorkerJob/catalog(_:)``: read the W3C suite's flattened catalog.
public struct CatalogJob: Codable, Sendable, Equatable {
    public var catalog: String

    public init(catalog: String) {
        self.catalog = catalog
    }
}
