import Foundation

/// Why the feeds or documents a run asks for cannot be had (``FeedResolver``, ``DocumentCorpus``,
/// `GeneratedFeed`).
package enum FeedResolutionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A feed named that does not exist.
    case feedNotFound(String)
    /// The default feed (`Data/top300.rss.xml`) is not there: not run from the package directory.
    case defaultFeedNotFound(String)
    /// A document named that does not exist.
    case documentNotFound(String)
    /// A document named that is a directory (a directory of documents is a corpus).
    case documentIsDirectory(String)
    /// A corpus directory that does not exist.
    case corpusNotFound(String)
    /// A corpus named that is a file, not a directory (one document is a document).
    case corpusIsFile(String)
    /// A corpus directory with no `.xml` file.
    case emptyCorpus(String)
    /// A remote feed that could not be downloaded, and why.
    case cannotDownload(URL, String)
    /// A downloaded feed that could not be written.
    case cannotWrite(String)
    /// A generated feed or document that could not be written.
    case cannotWriteGenerated(String)
    /// A directory that could not be made, and why.
    case cannotCreate(String, String)
    /// A generated file that could not be renamed into place (from, to).
    case cannotRename(String, String)

    package var description: String {
        switch self {
        case .feedNotFound(let path): "feed not found: \(path)"
        case .defaultFeedNotFound(let path):
            "feed not found: \(path), the suite's feed, in its checkout (run from the suite's directory, or pass "
                + "--feed PATH; from a package that depends on the suite: --feed .build/checkouts/xml-parser-bench/\(path) "
                + "for a URL dependency, or the path of the suite's checkout for a path dependency)"
        case .documentNotFound(let path): "document not found: \(path)"
        case .documentIsDirectory(let path):
            "document is a directory, not a file: \(path) (the .xml files of a directory: --corpus)"
        case .corpusNotFound(let directory): "corpus directory not found: \(directory)"
        case .corpusIsFile(let path): "corpus is a file, not a directory: \(path) (one document: --document)"
        case .emptyCorpus(let directory): "no .xml files in \(directory)"
        case .cannotDownload(let url, let reason): "cannot download \(url.absoluteString): \(reason)"
        case .cannotWrite(let path): "cannot write \(path)"
        case .cannotWriteGenerated(let path): "cannot write the generated document \(path)"
        case .cannotCreate(let directory, let reason): "cannot create \(directory): \(reason)"
        case .cannotRename(let from, let to): "cannot rename \(from) to \(to)"
        }
    }
}
