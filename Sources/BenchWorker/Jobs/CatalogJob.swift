import Foundation

/// ``WorkerJob/catalog(_:)``: read the W3C suite's flattened catalog.
package struct CatalogJob: Codable, Sendable, Equatable {
    package var catalog: String

    package init(catalog: String) {
        self.catalog = catalog
    }
}
