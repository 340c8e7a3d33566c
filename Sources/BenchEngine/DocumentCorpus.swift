import FeedParsers
import Foundation

/// The documents of the document workload: files named, a directory's `.xml` files, or the
/// default corpus (the real documents and feeds beside the package).
package struct DocumentCorpus: Sendable {
    /// Documents named one by one.
    package var documents: [String]
    /// A directory whose `.xml` files are documents.
    package var directory: String?

    package init(documents: [String] = [], directory: String? = nil) {
        self.documents = documents
        self.directory = directory
    }

    /// Where the default corpus is looked for: the real documents and feeds beside the package.
    package static let defaultDirectories = [
        "../shared/data/documents", "../shared/data/feeds", "../shared/data/itunes",
    ]

    /// The documents: ``documents``, then ``directory``'s `.xml` files (sorted); with neither, and
    /// `defaultCorpus`, the well-formed documents of ``defaultDirectories`` that are present.
    ///
    /// - Parameters:
    ///   - defaultCorpus: whether to fall back on the default corpus.
    ///   - warn: told which of the default corpus's files are left out, and why.
    /// - Returns: the documents' paths, in that order.
    /// - Throws: ``FeedResolutionError`` for a file or directory that does not exist, or a corpus with no XML.
    package func paths(defaultCorpus: Bool, warn: (String) -> Void = { _ in }) throws -> [String] {
        var paths: [String] = []
        for path in documents {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw FeedResolutionError.documentNotFound(path)
            }
            guard !isDirectory.boolValue else { throw FeedResolutionError.documentIsDirectory(path) }
            paths.append(path)
        }
        if let directory {
            let found = try Self.xmlFiles(in: directory)
            guard !found.isEmpty else { throw FeedResolutionError.emptyCorpus(directory) }
            paths += found
        }
        if paths.isEmpty, defaultCorpus {
            var skipped: [String] = []
            for path in Self.defaultDirectories.flatMap({ (try? Self.xmlFiles(in: $0)) ?? [] }) {
                if let problem = Self.notWellFormed(path) {
                    skipped.append("\((path as NSString).lastPathComponent) (\(problem))")
                } else {
                    paths.append(path)
                }
            }
            if !skipped.isEmpty {
                warn("The default corpus leaves out what is not well-formed XML: " + skipped.joined(separator: "; "))
            }
        }
        return paths
    }

    /// Why the document at `path` is not well-formed, as expat reads it; `nil` when it is.
    ///
    /// Read in this process, as ``BenchSession`` profiles a document's shape: the default corpus
    /// is the package's own data, and a document that crashes expat would crash its agreement
    /// check's worker too.
    static func notWellFormed(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return "cannot be read" }
        do {
            try ExpatFeedParser.walk([UInt8](data), into: try DocumentSink())
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// The `.xml` files directly in `directory`, sorted by name.
    static func xmlFiles(in directory: String) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw FeedResolutionError.corpusNotFound(directory)
        }
        guard isDirectory.boolValue else { throw FeedResolutionError.corpusIsFile(directory) }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        return names.filter { $0.lowercased().hasSuffix(".xml") }.sorted()
            .map { (directory as NSString).appendingPathComponent($0) }
    }
}
