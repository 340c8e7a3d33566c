import ArgumentParser
import BenchEngine
import BenchResults
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

    /// The documents named, for the engine (`DocumentCorpus`: with none, the default corpus).
    var documentCorpus: DocumentCorpus {
        DocumentCorpus(documents: ListArgument.split(documents), directory: corpus)
    }

    func validate() throws {
        if workload == .songs, !documents.isEmpty || corpus != nil {
            throw ValidationError("--document and --corpus are documents for --workload document, not songs")
        }
    }
}
