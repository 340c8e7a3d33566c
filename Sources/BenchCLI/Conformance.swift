import ArgumentParser
import BenchEngine
import BenchReports
import BenchResults
import BenchWorker
import FeedParsers
import Foundation

/// `bench conformance`: what each parser does with the W3C XML Conformance Test Suite.
struct Conformance: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run every parser over the W3C XML Conformance Test Suite: rejected, accepted, crashed, hung.",
        discussion: """
            Reads the suite's catalog (xmlconf-flattened.xml), keeps the XML 1.0 (5th edition) not-well-formed \
            and valid documents that need no external entity, and runs each parser over them in worker \
            processes: a crash or a hang costs only the document it happened on, which is then run alone to \
            be sure (unless its worker had no other). A parser that walks documents is judged on its \
            canonical events too: its events on each valid document with an expected canonical form (the \
            catalog's OUTPUT), written in that form, must match it byte for byte (the "canonical events" \
            columns). Prints a table per parser and the exceptions; writes conformance.json, \
            conformance-results.csv (one row per parser and document), \
            conformance-summary.csv and conformance.md under --output-dir. Exit status 0 once the table is \
            made, whatever it shows; 1 when it checked nothing (every document failed to run for every parser: \
            documents missing from the catalog's directory, say), the files still written.
            """
    )

    static let defaultSuite = "../shared/data/xmlconf"

    @Argument(
        help: "The suite's directory (default: \(Conformance.defaultSuite) when present).", completion: .directory)
    var suite: String?

    @OptionGroup var parserOptions: ParserOptions

    @Option(name: .customLong("output-dir"), help: "Where the files go.")
    var outputDirectory = "Results"

    @Option(
        name: .customLong("case-timeout"), help: "Seconds one document may take before its worker is killed as hung.")
    var caseTimeout: Double = 10

    @Option(name: .customLong("chunk-size"), help: "Bytes pushed at a time; 0 is the whole document at once.")
    var chunkSize = 16_384

    @Option(
        name: .customLong("memory-limit-mib"),
        help: "Each worker's memory limit, MiB: its data (RLIMIT_DATA), and the resident memory at which it is killed."
    )
    var memoryLimitMiB = 1_024

    @Flag(help: "No progress line.")
    var quiet = false

    func validate() throws {
        try TimeLimitArgument.check(caseTimeout, option: "--case-timeout")
        guard chunkSize >= 0 else { throw ValidationError("--chunk-size must be 0 (whole document) or more") }
        guard memoryLimitMiB >= 64 else { throw ValidationError("--memory-limit-mib must be at least 64") }
        // Only the floor (memchr accepts every document by design): nothing would be checked.
        let names = parserOptions.names
        if !names.isEmpty, names.allSatisfy({ ParserRegistry.kind(of: $0) == .floor }) {
            throw ValidationError(
                "\(names.joined(separator: ", ")) parse\(names.count == 1 ? "s" : "") nothing (the floor accepts every "
                    + "document by design), so there is nothing to check: name a parser (bench list)")
        }
    }

    func run() throws {
        WorkerProcess.killWorkerOnInterrupt()
        // The resident watch at the same figure as each worker's own data limit.
        WorkerProcess.memoryLimitBytes = memoryLimitMiB << 20
        let directory: String
        if let suite {
            directory = suite
        } else if FileManager.default.fileExists(atPath: Self.defaultSuite) {
            directory = Self.defaultSuite
        } else {
            throw CommandFailure(
                description:
                    "no suite at \(Self.defaultSuite): give the directory of the W3C XML Conformance Test Suite "
                    + "(https://www.w3.org/XML/Test/, the directory with xmlconf-flattened.xml)")
        }
        // Where the files go is checked before the run, not after its minutes.
        do {
            try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure(
                description:
                    "cannot create the output directory \(outputDirectory): "
                    + RunFiles.reason(error, creating: outputDirectory))
        }
        guard FileManager.default.isWritableFile(atPath: outputDirectory) else {
            throw CommandFailure(description: "cannot write into the output directory \(outputDirectory)")
        }
        let terminal = Terminal(quiet: quiet)
        let started = Date()
        terminal.progress("reading the catalog…")
        let cases: [ConformanceCase]
        do {
            cases = try ConformanceRunner.selectedCases(suite: directory)
        } catch {
            terminal.clearProgress()
            throw CommandFailure(description: "\(error)")
        }
        guard !cases.isEmpty else {
            throw CommandFailure(description: "the catalog in \(directory) has no test the rules choose")
        }
        let parsers = parserOptions.names(default: ParserRegistry.names)
        let options = ConformanceRunner.Options(
            chunkSize: chunkSize, caseTimeout: caseTimeout, memoryLimitMiB: memoryLimitMiB)
        var results = ConformanceRunner.run(suite: directory, cases: cases, parsers: parsers, options: options) {
            parser, done in
            terminal.progress("\(parser): \(done)/\(cases.count) documents")
        }
        var method = options.method
        // A parser that walks documents is judged on its canonical events too (CanonicalOracle).
        if results.contains(where: { CanonicalOracle.checks($0.parser) }) {
            terminal.progress("reading the expected canonical forms…")
            let canonicalCases: [CanonicalOracle.Case]
            do {
                canonicalCases = try CanonicalOracle.cases(suite: directory)
            } catch {
                terminal.clearProgress()
                throw CommandFailure(description: "\(error)")
            }
            for index in results.indices where CanonicalOracle.checks(results[index].parser) {
                let parser = results[index].parser
                let outcome = CanonicalOracle.run(
                    parser: parser, suite: directory, cases: canonicalCases, options: options
                ) { done in terminal.progress("\(parser): \(done)/\(canonicalCases.count) canonical forms") }
                results[index].canonical = CanonicalOracle.events(outcome)
            }
            method.append(CanonicalOracle.method(cases: canonicalCases.count))
        }
        terminal.clearProgress()
        let table = ConformanceTable(
            date: started, suite: directory, rules: ConformanceRunner.rules, method: method,
            libraries: [
                "libxml2": EnvironmentProbe.libraryVersions.libxml2, "expat": EnvironmentProbe.libraryVersions.expat,
            ], cases: cases,
            parsers: results, elapsedSeconds: Date().timeIntervalSince(started))
        print(ConformanceReport.text(table, width: terminal.width), terminator: "")

        let files = RunFiles(directory: outputDirectory)
        var written: [String] = []
        for (name, text) in [
            ("conformance.json", try ConformanceReport.json(table)),
            ("conformance-results.csv", ConformanceReport.resultsCSV(table)),
            ("conformance-summary.csv", ConformanceReport.summaryCSV(table)),
            ("conformance.md", ConformanceReport.markdown(table)),
        ] {
            written.append(try files.write(text, to: name))
        }
        if !quiet { print("\nWrote:\n" + written.map { "  " + $0 }.joined(separator: "\n")) }
        // A table of failures only checked nothing: no parser read a single document.
        let outcomes = table.parsers.flatMap(\.results)
        if !outcomes.isEmpty, outcomes.allSatisfy({ $0.outcome == .failed }) {
            let first = outcomes.first.map { "\($0.caseID): \($0.detail ?? "failed")" } ?? ""
            throw CommandFailure(
                description: "nothing checked: every document failed to run for every parser (first, \(first))")
        }
    }
}
