import ArgumentParser
import BenchEngine
import BenchResults
import FeedParsers
import Foundation

extension Workload: ExpressibleByArgument {}

/// `--workload`, `--document`, `--corpus`: what the parsers build, and from which documents.
struct DocumentOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "What each parser builds: songs (from an RSS or Atom feed) or document (any XML's canonical events).",
            discussion: """
                document: every parser that can walk a whole document reports its elements, attributes, text and \
                processing instructions into one shared sink (checked against the W3C suite's canonical forms); \
                the parsers must agree on every document's events before it is timed. Default: songs, or document \
                when --document or --corpus is given.
                """))
    var workload: Workload?

    @Option(
        name: .customLong("document"), parsing: .singleValue,
        help: "XML documents for the document workload, comma-separated or repeated.")
    var documents: [String] = []

    @Option(help: "A directory whose .xml files are documents for the document workload.")
    var corpus: String?

    /// The workload asked for, or implied by --document and --corpus.
    var effectiveWorkload: Workload {
        workload ?? (documents.isEmpty && corpus == nil ? .songs : .document)
    }

    /// Where the default corpus is looked for: the real documents and feeds beside the package.
    static let defaultCorpusDirectories = ["../shared/data/documents", "../shared/data/feeds", "../shared/data/itunes"]

    func validate() throws {
        if workload == .songs, !documents.isEmpty || corpus != nil {
            throw ValidationError("--document and --corpus are documents for --workload document, not songs")
        }
    }

    /// Checks that every parser named can walk a document.
    func validate(parsers: [String], workload: Workload) throws {
        guard workload == .document else { return }
        try Self.requireDocumentParsers(parsers)
    }

    /// Checks that every parser of `parsers` can walk `what` ("a document", "a deep document"),
    /// else names the first that cannot and why.
    static func requireDocumentParsers(_ parsers: [String], walking what: String = "a document") throws {
        for parser in parsers where ParserRegistry.documentParser(named: parser) == nil {
            let reason = ParserRegistry.documentNotApplicable[parser] ?? "it is not a document parser"
            throw ValidationError("\(parser) has no document workload, so it cannot walk \(what): \(reason)")
        }
    }

    /// The documents: --document files, then --corpus's .xml files (sorted); with neither, and
    /// `defaultCorpus`, the real documents and feeds in ../shared/data when present.
    ///
    /// - Throws: ``CommandFailure`` for a file or directory that does not exist, or a corpus with no XML.
    func paths(defaultCorpus: Bool) throws -> [String] {
        var paths: [String] = []
        for path in ListArgument.split(documents) {
            guard FileManager.default.fileExists(atPath: path) else {
                throw CommandFailure(description: "document not found: \(path)")
            }
            paths.append(path)
        }
        if let corpus {
            let found = try Self.xmlFiles(in: corpus)
            guard !found.isEmpty else { throw CommandFailure(description: "no .xml files in \(corpus)") }
            paths += found
        }
        if paths.isEmpty, defaultCorpus {
            var skipped: [String] = []
            for path in Self.defaultCorpusDirectories.flatMap({ (try? Self.xmlFiles(in: $0)) ?? [] }) {
                if let problem = Self.notWellFormed(path) {
                    skipped.append("\((path as NSString).lastPathComponent) (\(problem))")
                } else {
                    paths.append(path)
                }
            }
            if !skipped.isEmpty {
                printError(
                    "The default corpus leaves out what is not well-formed XML: " + skipped.joined(separator: "; "))
            }
        }
        return paths
    }

    /// Why the document at `path` is not well-formed, as expat reads it; `nil` when it is.
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
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure(description: "corpus directory not found: \(directory)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        return names.filter { $0.lowercased().hasSuffix(".xml") }.sorted()
            .map { (directory as NSString).appendingPathComponent($0) }
    }
}
