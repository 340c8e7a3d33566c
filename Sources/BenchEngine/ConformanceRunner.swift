import BenchWorker
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
/// one document, whose outcome is then settled by running it alone (unless it was the worker's
/// only document), and the next worker starts after it. A hang is a worker that reports nothing
/// for ``Options/caseTimeout`` seconds.
package enum ConformanceRunner {
    /// The file of the suite that lists every test with its entities included (`xml:base` on
    /// each group).
    package static let catalogName = "xmlconf-flattened.xml"

    /// The rules that choose the documents, as the output states them.
    package static let rules = [
        "XML 1.0, 5th edition: RECOMMENDATION absent or XML1.0 (with its errata 2e, 3e, 4e), not XML1.1 nor the namespace tests (NS1.0, NS1.1); VERSION absent or 1.0; EDITION absent or listing 5",
        "no external entity to read: ENTITIES absent or \"none\"",
        "TYPE \"not-wf\" (a parser must report an error) or \"valid\" (a parser must accept it; \"invalid\" and \"error\" tests are left out: validity is not well-formedness)",
    ]

    /// What may be changed about a run.
    package struct Options: Sendable {
        /// The `bench` executable that runs the workers.
        package var executable: String
        /// The chunk size the documents are pushed in; 0 is the whole document at once.
        package var chunkSize: Int
        /// Seconds a worker may go without finishing a document before it is killed.
        package var caseTimeout: Double
        /// A worker's data limit (`RLIMIT_DATA`), MiB.
        package var memoryLimitMiB: Int
        /// Documents per worker at most.
        package var batchSize: Int
        /// Whether the workers report the songs of each document they accept (the tests' hostile
        /// corpus checks them).
        package var reportSongs = false
        /// `document`: the workers walk each document into the canonical event sink and report its
        /// canonical form (``CanonicalOracle``).
        package var workload = Workload.songs
        /// The document workload: the workers report each accepted document's events too
        /// (`ConformanceWorker/Line/events`), as `bench verify --contract` compares them.
        package var reportEvents = false

        package init(
            executable: String = WorkerProcess.workerExecutable(), chunkSize: Int = 16_384, caseTimeout: Double = 10,
            memoryLimitMiB: Int = 1_024, batchSize: Int = 500
        ) {
            self.executable = executable
            self.chunkSize = chunkSize
            self.caseTimeout = caseTimeout
            self.memoryLimitMiB = memoryLimitMiB
            self.batchSize = batchSize
        }

        /// How the documents were given to the parsers, in words.
        package var method: [String] {
            [
                "each document pushed in chunks of \(chunkSize == 0 ? "the whole document" : "\(chunkSize) bytes") through the parser's adapter (the same path as `bench verify`): an error from the parser is \"rejected\", an end without one is \"accepted\" (so is a decoder's \"not a feed\" error after the XML was read: the XML was accepted)",
                "workers run up to \(batchSize) documents each; a worker that crashes, or finishes no document within \(formatSeconds(caseTimeout)), is killed and that document, if it was not the worker's only one, is run again alone: its outcome alone is the one counted",
                "each worker's data is limited to \(memoryLimitMiB) MiB (RLIMIT_DATA)",
            ]
        }
    }

    /// What could not be done at all.
    package struct Failure: Error, CustomStringConvertible, Sendable {
        package var description: String
    }

    /// Reads the catalog of the suite in `directory` (in a worker) and keeps the documents that
    /// ``rules`` choose, in catalog order.
    ///
    /// - Throws: ``Failure`` when the catalog is missing or unreadable.
    package static func selectedCases(suite directory: String, executable: String = WorkerProcess.workerExecutable())
        throws
        -> [ConformanceCase]
    {
        try catalog(suite: directory, executable: executable).compactMap(\.selected)
    }

    /// Reads every test of the catalog of the suite in `directory`, in a worker.
    ///
    /// - Throws: ``Failure`` when the catalog is missing or unreadable.
    package static func catalog(suite directory: String, executable: String = WorkerProcess.workerExecutable())
        throws -> [CatalogEntry]
    {
        let catalog = (directory as NSString).appendingPathComponent(catalogName)
        guard FileManager.default.fileExists(atPath: catalog) else {
            throw Failure(
                description:
                    "no \(catalogName) in \(directory): give the directory of the W3C XML Conformance Test Suite (xmlconf)"
            )
        }
        let inside = CatalogEntry.insidePrefix(directory)
        if CatalogEntry.leadsOut(catalog, inside: inside) {
            throw Failure(
                description: "the catalog \(catalog) is a symbolic link out of the suite's directory: refused")
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
        // A catalog names its documents; none is read from outside the suite.
        for entry in entries {
            if let outside = entry.pathOutsideSuite(directory, inside: inside) {
                let how = CatalogEntry.climbsOut(outside) ? "" : " through a symbolic link"
                throw Failure(
                    description: "the catalog \(catalog) names \(outside) (test \(entry.id)), outside the suite's "
                        + "directory\(how): refused")
            }
        }
        return entries
    }

    /// Runs `parsers` over `cases`, one parser after the other; `progress` gets the parser and the
    /// number of documents settled so far.
    package static func run(
        suite directory: String, cases: [ConformanceCase], parsers: [String], options: Options = Options(),
        progress: ((String, Int) -> Void)? = nil
    ) -> [ConformanceTable.ParserResults] {
        parsers.map { parser in
            run(parser: parser, suite: directory, cases: cases, options: options) { progress?(parser, $0) }.table
        }
    }

    /// One parser over `cases`: its results, and the songs of each document it accepted when
    /// ``Options/reportSongs`` is on.
    package static func run(
        parser: String, suite directory: String, cases: [ConformanceCase], options: Options,
        progress: ((Int) -> Void)? = nil
    ) -> (table: ConformanceTable.ParserResults, songs: [[Song]?]) {
        let (table, lines) = runLines(
            parser: parser, suite: directory, cases: cases, options: options, progress: progress)
        return (table, lines.map { $0?.songs })
    }

    /// One parser over `cases`: its results, and what its worker reported of each document.
    package static func runLines(
        parser: String, suite directory: String, cases: [ConformanceCase], options: Options,
        progress: ((Int) -> Void)? = nil
    ) -> (table: ConformanceTable.ParserResults, lines: [ConformanceWorker.Line?]) {
        let kind = ParserRegistry.kind(of: parser)?.rawValue ?? "unknown"
        var results: [ConformanceResult?] = Array(repeating: nil, count: cases.count)
        var reported: [ConformanceWorker.Line?] = Array(repeating: nil, count: cases.count)
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
                reported[batch[line.index]] = line
            }
            // The documents done in order from the start of the batch.
            var done = 0
            while done < batch.count && results[batch[done]] != nil { done += 1 }
            if done == batch.count {
                next = batch[batch.count - 1] + 1
            } else {
                let culprit = batch[done]
                let batchOutcome = result(
                    of: termination, caseID: cases[culprit].id, errorLine: errorLine, limit: options.caseTimeout)
                if batch.count == 1 {
                    // It ran alone already: running it again would repeat that run (a hang twice
                    // its time limit), so its outcome is this one.
                    results[culprit] = batchOutcome
                } else {
                    let (alone, aloneTermination, aloneError) = runWorker(
                        parser: parser, suite: directory, cases: [cases[culprit]], options: options)
                    var settled =
                        alone.first?.result
                        ?? result(
                            of: aloneTermination, caseID: cases[culprit].id, errorLine: aloneError,
                            limit: options.caseTimeout)
                    settled.caseID = cases[culprit].id
                    if settled.outcome != batchOutcome.outcome { notReproduced.append(cases[culprit].id) }
                    results[culprit] = settled
                    reported[culprit] = alone.first
                }
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
        return (table, reported)
    }

    /// How the detail of a document whose worker passed the memory limit begins.
    static let exceededMemoryPrefix = "exceeded the "

    /// Whether `result` is that of a document whose worker passed the memory limit (a failure of
    /// the parser, not of the run).
    package static func exceededMemory(_ result: ConformanceResult) -> Bool {
        result.outcome == .failed && result.detail?.hasPrefix(exceededMemoryPrefix) == true
    }

    /// Seconds a worker is given beyond a document's time limit before it is stopped.
    ///
    /// The worker says when it has started (`ConformanceWorker` writes a byte before its first
    /// document), and the limit runs from there: a spawn slowed by a busy machine has the limit
    /// and this grace, and a hang is stopped a second after its limit. (Counted from the spawn, the
    /// grace was 5 s: each hang cost 10 s of a spinning core against a 5 s limit.)
    static let startGrace = 1.0

    /// The outcome of a document that ended its worker; `limit` is the document's time limit (its
    /// worker is stopped ``startGrace`` after it: both are said).
    static func result(
        of termination: WorkerProcess.Termination?, caseID: String, errorLine: String?, limit: Double? = nil
    ) -> ConformanceResult {
        switch termination {
        case .signaled(let signal)?:
            return ConformanceResult(caseID: caseID, outcome: .crashed, detail: signalName(signal), signal: signal)
        case .stalled(let seconds)?, .timedOut(let seconds)?:
            let stopped = formatSeconds(seconds)
            let detail =
                limit.map { "no result within \(formatSeconds($0)) (stopped at \(stopped))" }
                ?? "no result within \(stopped)"
            return ConformanceResult(caseID: caseID, outcome: .hung, detail: detail)
        case .exceededMemory(let limit)?:
            return ConformanceResult(
                caseID: caseID, outcome: .failed,
                detail: "\(exceededMemoryPrefix)\(WorkerProcess.formatBytes(limit)) memory limit")
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
        var job = ConformanceJob(
            parser: parser, suite: suite, paths: cases.map(\.path), chunkSize: options.chunkSize,
            memoryLimitMiB: options.memoryLimitMiB, reportSongs: options.reportSongs,
            workload: options.workload == .songs ? nil : options.workload)
        if options.reportEvents { job.reportEvents = true }
        let outcome: WorkerProcess.Outcome
        do {
            outcome = try WorkerProcess.run(
                WorkerCommand(executable: options.executable, job: .conformance(job)),
                idleTimeout: options.caseTimeout + startGrace)
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
