import BenchResults
import FeedParsers
import Foundation
import SongFeed

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Runs every parser over the W3C XML Conformance Test Suite (`bench conformance`).
///
/// The catalog is read in a worker too (it is input like any other, and Foundation's `XMLParser`
/// reads it). Each parser then runs in worker processes that take many documents each, one after
/// the other, and report one line per document as they go: a crash or a hang ends the worker on
/// one document, whose outcome is then settled by running it alone, and the next worker starts
/// after it. A hang is a worker that reports nothing for ``Options/caseTimeout`` seconds.
public enum ConformanceRunner {
    /// The file of the suite that lists every test with its entities included (`xml:base` on
    /// each group).
    public static let catalogName = "xmlconf-flattened.xml"

    /// The rules that choose the documents, as the output states them.
    public static let rules = [
        "XML 1.0, 5th edition: RECOMMENDATION absent or XML1.0 (with its errata 2e, 3e, 4e), not XML1.1 nor the namespace tests (NS1.0, NS1.1); VERSION absent or 1.0; EDITION absent or listing 5",
        "no external entity to read: ENTITIES absent or \"none\"",
        "TYPE \"not-wf\" (a parser must report an error) or \"valid\" (a parser must accept it; \"invalid\" and \"error\" tests are left out: validity is not well-formedness)",
    ]

    /// What may be changed about a run.
    public struct Options: Sendable {
        /// The `bench` executable that runs the workers.
        public var executable: String
        /// The chunk size the documents are pushed in; 0 is the whole document at once.
        public var chunkSize: Int
        /// Seconds a worker may go without finishing a document before it is killed.
        public var caseTimeout: Double
        /// A worker's data limit (`RLIMIT_DATA`), MiB.
        public var memoryLimitMiB: Int
        /// Documents per worker at most.
        public var batchSize: Int
        /// Whether the workers report the songs of each document they accept (the tests' hostile
        /// corpus checks them).
        public var reportSongs = false

        public init(
            executable: String = WorkerProcess.currentExecutable(), chunkSize: Int = 16_384, caseTimeout: Double = 10,
            memoryLimitMiB: Int = 1_024, batchSize: Int = 500
        ) {
            self.executable = executable
            self.chunkSize = chunkSize
            self.caseTimeout = caseTimeout
            self.memoryLimitMiB = memoryLimitMiB
            self.batchSize = batchSize
        }

        /// How the documents were given to the parsers, in words.
        public var method: [String] {
            [
                "each document pushed in chunks of \(chunkSize == 0 ? "the whole document" : "\(chunkSize) bytes") through the parser's adapter (the same path as `bench verify`): an error from the parser is \"rejected\", an end without one is \"accepted\" (so is a decoder's \"not a feed\" error after the XML was read: the XML was accepted)",
                "workers run up to \(batchSize) documents each; a worker that crashes, or finishes no document within \(formatSeconds(caseTimeout)), is killed and that document is run again alone: its outcome alone is the one counted",
                "each worker's data is limited to \(memoryLimitMiB) MiB (RLIMIT_DATA)",
            ]
        }
    }

    /// What could not be done at all.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Reads the catalog of the suite in `directory` (in a worker) and keeps the documents that
    /// ``rules`` choose, in catalog order.
    ///
    /// - Throws: ``Failure`` when the catalog is missing or unreadable.
    public static func selectedCases(suite directory: String, executable: String = WorkerProcess.currentExecutable())
        throws
        -> [ConformanceCase]
    {
        let catalog = (directory as NSString).appendingPathComponent(catalogName)
        guard FileManager.default.fileExists(atPath: catalog) else {
            throw Failure(
                description:
                    "no \(catalogName) in \(directory): give the directory of the W3C XML Conformance Test Suite (xmlconf)"
            )
        }
        let outcome: WorkerProcess.Outcome
        do {
            outcome = try WorkerProcess.run(
                WorkerCommand(executable: executable, job: .catalog(CatalogJob(catalog: catalog))), timeout: 120)
        } catch {
            throw Failure(description: "cannot read the catalog: \(error)")
        }
        guard outcome.termination == .exited(0) else {
            let line = outcome.standardError.split(separator: "\n").last.map { ": \($0)" } ?? ""
            throw Failure(description: "cannot read the catalog \(catalog): worker \(outcome.termination)\(line)")
        }
        let entries: [CatalogEntry]
        do {
            entries = try JSONDecoder().decode([CatalogEntry].self, from: Data(outcome.result))
        } catch {
            throw Failure(description: "cannot read the catalog \(catalog): \(error)")
        }
        return entries.compactMap(\.selected)
    }

    /// Runs `parsers` over `cases`, one parser after the other; `progress` gets the parser and the
    /// number of documents settled so far.
    public static func run(
        suite directory: String, cases: [ConformanceCase], parsers: [String], options: Options = Options(),
        progress: ((String, Int) -> Void)? = nil
    ) -> [ConformanceTable.ParserResults] {
        parsers.map { parser in
            run(parser: parser, suite: directory, cases: cases, options: options) { progress?(parser, $0) }.table
        }
    }

    /// One parser over `cases`: its results, and the songs of each document it accepted when
    /// ``Options/reportSongs`` is on.
    public static func run(
        parser: String, suite directory: String, cases: [ConformanceCase], options: Options,
        progress: ((Int) -> Void)? = nil
    ) -> (table: ConformanceTable.ParserResults, songs: [[Song]?]) {
        let kind = ParserRegistry.kind(of: parser)?.rawValue ?? "unknown"
        var results: [ConformanceResult?] = Array(repeating: nil, count: cases.count)
        var songs: [[Song]?] = Array(repeating: nil, count: cases.count)
        var notReproduced: [String] = []
        var next = 0
        while next < cases.count {
            let batch = Array(next..<min(cases.count, next + max(1, options.batchSize)))
            let (lines, termination, errorLine) = runWorker(
                parser: parser, suite: directory, cases: batch.map { cases[$0] }, options: options)
            for line in lines where line.index < batch.count {
                var result = line.result
                result.caseID = cases[batch[line.index]].id
                results[batch[line.index]] = result
                songs[batch[line.index]] = line.songs
            }
            // The documents done in order from the start of the batch.
            var done = 0
            while done < batch.count && results[batch[done]] != nil { done += 1 }
            if done == batch.count {
                next = batch[batch.count - 1] + 1
            } else {
                let culprit = batch[done]
                let batchOutcome = result(of: termination, caseID: cases[culprit].id, errorLine: errorLine)
                let (alone, aloneTermination, aloneError) = runWorker(
                    parser: parser, suite: directory, cases: [cases[culprit]], options: options)
                var settled =
                    alone.first?.result
                    ?? result(of: aloneTermination, caseID: cases[culprit].id, errorLine: aloneError)
                settled.caseID = cases[culprit].id
                if settled.outcome != batchOutcome.outcome { notReproduced.append(cases[culprit].id) }
                results[culprit] = settled
                songs[culprit] = alone.first?.songs
                next = culprit + 1
            }
            progress?(next)
        }
        let table = ConformanceTable.ParserResults(
            parser: parser, kind: kind,
            results: results.enumerated().map { index, result in
                result ?? ConformanceResult(caseID: cases[index].id, outcome: .failed, detail: "no result")
            },
            notReproducedAlone: notReproduced)
        return (table, songs)
    }

    /// The outcome of a document that ended its worker.
    static func result(of termination: WorkerProcess.Termination?, caseID: String, errorLine: String?)
        -> ConformanceResult
    {
        switch termination {
        case .signaled(let signal)?:
            return ConformanceResult(caseID: caseID, outcome: .crashed, detail: signalName(signal), signal: signal)
        case .stalled(let seconds)?, .timedOut(let seconds)?:
            return ConformanceResult(
                caseID: caseID, outcome: .hung, detail: "no result within \(formatSeconds(seconds))")
        case .exited(let status)?:
            return ConformanceResult(
                caseID: caseID, outcome: .failed,
                detail: "worker exited with status \(status)" + (errorLine.map { ": \($0)" } ?? ""))
        case nil:
            return ConformanceResult(caseID: caseID, outcome: .failed, detail: errorLine ?? "worker could not start")
        }
    }

    /// Runs one worker over `cases`; returns the lines it reported, how it ended and the last line
    /// of its standard error.
    static func runWorker(parser: String, suite: String, cases: [ConformanceCase], options: Options)
        -> ([ConformanceWorker.Line], WorkerProcess.Termination?, String?)
    {
        let job = ConformanceJob(
            parser: parser, suite: suite, paths: cases.map(\.path), chunkSize: options.chunkSize,
            memoryLimitMiB: options.memoryLimitMiB, reportSongs: options.reportSongs)
        let outcome: WorkerProcess.Outcome
        do {
            outcome = try WorkerProcess.run(
                WorkerCommand(executable: options.executable, job: .conformance(job)),
                idleTimeout: options.caseTimeout + 5)
        } catch {
            return ([], nil, "\(error)")
        }
        let decoder = JSONDecoder()
        let lines = outcome.result.split(separator: UInt8(ascii: "\n")).compactMap { bytes in
            try? decoder.decode(ConformanceWorker.Line.self, from: Data(bytes))
        }
        let errorLine = outcome.standardError.split(separator: "\n").last { !$0.isEmpty }.map { String($0.prefix(300)) }
        return (lines, outcome.termination, errorLine)
    }
}

/// One `TEST` of the catalog, as the catalog worker reports it.
public struct CatalogEntry: Codable, Sendable {
    public var id: String
    public var type: String
    public var entities: String?
    public var recommendation: String?
    public var version: String?
    public var edition: String?
    public var path: String
    public var sections: String
    public var summary: String

    /// The case, when ``ConformanceRunner/rules`` choose this test.
    var selected: ConformanceCase? {
        let expectation: ConformanceCase.Expectation
        switch type {
        case "not-wf": expectation = .notWellFormed
        case "valid": expectation = .valid
        default: return nil
        }
        guard (entities ?? "none") == "none" else { return nil }
        let xml10 = ["XML1.0", "XML1.0-errata2e", "XML1.0-errata3e", "XML1.0-errata4e"]
        guard recommendation.map(xml10.contains) ?? true, (version ?? "1.0") == "1.0" else { return nil }
        if let edition, !edition.split(separator: " ").contains("5") { return nil }
        return ConformanceCase(id: id, expectation: expectation, path: path, sections: sections, summary: summary)
    }

    /// Reads every `TEST` of the flattened catalog at `path` (the worker's side).
    public static func read(catalog path: String) throws -> [CatalogEntry] {
        guard let parser = XMLParser(contentsOf: URL(fileURLWithPath: path)) else {
            throw ConformanceRunner.Failure(description: "cannot open \(path)")
        }
        let reader = CatalogReader()
        parser.delegate = reader
        parser.shouldResolveExternalEntities = false
        guard parser.parse(), reader.depth == 0 else {
            let error = parser.parserError.map { "\($0.localizedDescription)" } ?? "the catalog ended early"
            throw ConformanceRunner.Failure(
                description: "\(path), line \(parser.lineNumber), column \(parser.columnNumber): \(error)")
        }
        return reader.entries
    }
}

/// The delegate that reads the catalog: `xml:base` of each enclosing `TESTCASES`, each `TEST`'s
/// attributes and text.
private final class CatalogReader: NSObject, XMLParserDelegate {
    var entries: [CatalogEntry] = []
    var bases: [String] = [""]
    var depth = 0
    var current: CatalogEntry?

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        depth += 1
        let base = bases.last ?? ""
        switch name {
        case "TESTCASES", "TESTSUITE":
            let own = attributes["xml:base"] ?? ""
            bases.append(own.hasPrefix("/") ? own : base + own)
        case "TEST":
            bases.append(base)
            current = CatalogEntry(
                id: attributes["ID"] ?? "", type: attributes["TYPE"] ?? "", entities: attributes["ENTITIES"],
                recommendation: attributes["RECOMMENDATION"], version: attributes["VERSION"],
                edition: attributes["EDITION"],
                path: base + (attributes["URI"] ?? ""), sections: attributes["SECTIONS"] ?? "", summary: "")
        default:
            bases.append(base)
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        current?.summary += string
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        depth -= 1
        bases.removeLast()
        if name == "TEST", var entry = current {
            entry.summary = entry.summary.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            entries.append(entry)
            current = nil
        }
    }
}

/// The worker side of ``ConformanceRunner``.
public enum ConformanceWorker {
    /// What the worker reports for one document: one JSON object per line.
    public struct Line: Codable, Sendable {
        /// The document's position among the worker's arguments.
        public var index: Int
        public var result: ConformanceResult
        /// The songs, when asked for and the document was accepted.
        public var songs: [Song]?
    }

    /// Parses each of the job's documents (relative to its suite) and calls `report` with each line
    /// (then writes one byte on the progress descriptor when it is open).
    ///
    /// - Throws: ``VerifyWorkerError`` for an unknown parser.
    public static func run(_ job: ConformanceJob, report: (Data) throws -> Void) throws {
        let parser = try ParserRegistry.worker(job.parser)
        let (suite, chunkSize, reportSongs) = (job.suite, job.chunkSize, job.reportSongs)
        if let memoryLimitMiB = job.memoryLimitMiB { limitData(toMiB: memoryLimitMiB) }
        let progress = fcntl(WorkerProcess.progressDescriptor, F_GETFD) >= 0
        let encoder = JSONEncoder()
        for (index, path) in job.paths.enumerated() {
            let full = (suite as NSString).appendingPathComponent(path)
            let result: ConformanceResult
            var songs: [Song]?
            if let data = FileManager.default.contents(atPath: full) {
                do {
                    let parsed = try parser.parse([UInt8](data), chunkSize: chunkSize == 0 ? nil : chunkSize)
                    if reportSongs { songs = parsed }
                    result = ConformanceResult(caseID: path, outcome: .accepted)
                } catch let error as FeedParseError where error.notAFeed == true {
                    result = ConformanceResult(
                        caseID: path, outcome: .accepted, detail: "well-formed, not a feed: \(error.message)")
                } catch let error as FeedParseError {
                    result = ConformanceResult(
                        caseID: path, outcome: .rejected,
                        detail: "\(error.message) (line \(error.line), column \(error.column))")
                } catch {
                    result = ConformanceResult(caseID: path, outcome: .rejected, detail: "\(error)")
                }
            } else {
                result = ConformanceResult(caseID: path, outcome: .failed, detail: "cannot read \(full)")
            }
            var line = try encoder.encode(Line(index: index, result: result, songs: songs))
            line.append(UInt8(ascii: "\n"))
            try report(line)
            if progress {
                var byte: UInt8 = 0x2E
                _ = write(WorkerProcess.progressDescriptor, &byte, 1)
            }
        }
    }

    /// Limits this process's data (heap and private mappings) to `mebibytes`: a parser that asks
    /// for more gets no memory instead of the machine's.
    public static func limitData(toMiB mebibytes: Int) {
        let bytes = rlim_t(max(1, mebibytes)) * 1_048_576
        var limit = rlimit(rlim_cur: bytes, rlim_max: bytes)
        #if os(Linux)
            _ = setrlimit(__rlimit_resource_t(RLIMIT_DATA.rawValue), &limit)
        #else
            _ = setrlimit(RLIMIT_DATA, &limit)
        #endif
    }
}
