import BenchResults
import BenchWorker
import FeedParsers
import FeedTransport
import Foundation
import SongFeed

extension RunRequest {
    /// What a run may not be asked, in the words `bench run` says it (its options' names).
    package struct Problem: Error, CustomStringConvertible, Equatable, Sendable {
        package var description: String

        package init(_ description: String) { self.description = description }
    }

    /// The scenarios `--scenario` names (`names`, lists split), after checking each name and that
    /// they go with the workload: `document` is the document workload, which measures it alone.
    ///
    /// - Parameters:
    ///   - names: the scenarios named, in any order.
    ///   - workload: the workload `--workload` asked for (`nil`: not asked).
    ///   - implied: the workload with no scenario named (`--document` and `--corpus` imply documents).
    /// - Returns: the scenarios named, and the workload they and the options make.
    /// - Throws: ``Problem`` for an unknown scenario or one of another workload.
    package static func scenarios(named names: [String], workload: Workload?, implied: Workload) throws(Problem)
        -> (named: [ScenarioID], workload: Workload)
    {
        for name in names where ScenarioID(rawValue: name) == nil {
            throw Problem(
                "unknown scenario '\(name)'; known: \(ScenarioID.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let named = names.compactMap(ScenarioID.init(rawValue:))
        let chosen = Self.workload(named: named, implied: implied)
        if chosen == .document, named.contains(where: { $0.workload != .document }) {
            throw Problem(
                "the document workload measures the document scenario only (a parse from memory into the event sink), not \(named.map(\.rawValue).joined(separator: ", "))"
            )
        }
        if workload == .songs, let document = named.first(where: { $0.workload == .document }) {
            throw Problem("--scenario \(document.rawValue) is the document workload, not --workload songs")
        }
        return (named, chosen)
    }

    /// What the parsers build: a scenario of the document workload named makes it documents.
    package static func workload(named: [ScenarioID], implied: Workload) -> Workload {
        named.contains { $0.workload == .document } ? .document : implied
    }

    /// The scenarios a run measures: the document scenario for documents; those named, in the
    /// list's order; with none named, the default run's (those that count instructions when it counts).
    package static func selected(named: [ScenarioID], workload: Workload, countsInstructions: Bool) -> [ScenarioID] {
        if workload == .document { return [.parseFromMemory(.document)] }
        if named.isEmpty {
            return ScenarioID.allCases.filter {
                $0.traits.inDefaultRun && (!countsInstructions || $0.traits.countsInstructions)
            }
        }
        return ScenarioID.allCases.filter { named.contains($0) }
    }

    /// The request without the scenarios that fetch their feed from the embedded server, for a build
    /// without it (the suite's trait `FeedServer` left out): left out of a default run, refused when
    /// `named`.
    ///
    /// - Throws: `SuiteTraitMissing` naming the trait, when `named` and a scenario needs the server.
    package func leavingOutServedScenarios(named: Bool) throws -> RunRequest {
        let served = scenarios.filter { $0.fetchesFromEmbeddedServer(remote: url != nil) }
        guard let first = served.first else { return self }
        if named {
            throw SuiteTraitMissing(.feedServer, neededBy: "the \(first.rawValue) scenario (the embedded feed server)")
        }
        var request = self
        request.scenarios.removeAll { served.contains($0) }
        return request
    }

    /// A list of positive integers (`--page-size 25,100`, split), each once, or `nil` when none were
    /// given.
    ///
    /// - Throws: ``Problem`` naming `option` for a value that is not a whole number from 1 to `most`.
    package static func positiveList(_ values: [String], option: String, most: Int = 100_000) throws(Problem) -> [Int]?
    {
        guard !values.isEmpty else { return nil }
        var numbers: [Int] = []
        for text in values {
            guard let value = Int(text), value >= 1, value <= most else {
                throw Problem("\(option): '\(text)' is not a whole number from 1 to \(most)")
            }
            if !numbers.contains(value) { numbers.append(value) }
        }
        return numbers
    }

    /// The most threads the concurrent scenario parses on at once in its worker: 1,000 ran, and
    /// 100,000 (which the check let through) crashed every worker, the null baseline's too.
    package static let mostThreads = 1_000

    /// Checks that every parser of `parsers` can walk `what` ("a document", "a deep document"),
    /// else names the first that cannot and why.
    package static func requireDocumentParsers(_ parsers: [String], walking what: String = "a document")
        throws(Problem)
    {
        for parser in parsers where ParserRegistry.documentParser(named: parser) == nil {
            let reason = ParserRegistry.documentNotApplicable[parser] ?? "it is not a document parser"
            throw Problem("\(parser) has no document workload, so it cannot walk \(what): \(reason)")
        }
    }

    /// Whether `parsers` give the stopping rule a ratio to watch: two ranked parsers (× fastest, and
    /// vs C for a parser beside its C reference); a floor (memchr) or a baseline is never ranked.
    static func haveARatio(_ parsers: [String]) -> Bool {
        let ranked = Set(
            parsers.filter { name in
                guard let kind = ParserRegistry.kind(of: name) else { return false }
                return kind != .floor && kind != .baseline
            })
        return ranked.count >= 2
    }

    /// Checks what the options ask together, first problem first.
    ///
    /// - Throws: ``Problem`` for a request no run can make: parsers that cannot walk documents,
    ///   feeds of the other workload, an unknown reference, counted scenarios that cannot be counted,
    ///   a stopping rule on exact counts, the practices against a remote URL, values out of range.
    package func check() throws(Problem) {
        if workload == .document { try Self.requireDocumentParsers(parsers) }
        if workload == .document, url != nil || songs != nil {
            throw Problem("--url and --songs give feeds for the songs workload, not documents")
        }
        if let url {
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? "") else {
                throw Problem("--url must be an http or https URL, not '\(url)'")
            }
        }
        if let reference, ParserRegistry.parser(named: reference) == nil || reference == ParserRegistry.baseline.name {
            throw Problem(
                "--reference: unknown parser '\(reference)'; known parsers: \(ParserRegistry.names.joined(separator: ", "))"
            )
        }
        for name in allowUnverified.sorted() where !parsers.contains(name) {
            throw Problem(
                "--allow-unverified \(name) is not among the parsers measured (\(parsers.joined(separator: ", ")))")
        }
        // A remote feed is fetched over the real network: a profile would shape nothing.
        if url != nil, optionsGiven.contains(.network) {
            throw Problem("--network shapes the embedded server's links; a --url feed comes over the real network")
        }
        // The floor is never ranked: its column would say "× memchr" over ratios against the fastest.
        if let reference, ParserRegistry.kind(of: reference) == .floor {
            throw Problem("--reference \(reference): the floor parses nothing and is never ranked; name a parser")
        }
        // A reference the run does not measure: the tables would say "× foundation" over figures
        // taken against another parser.
        if let reference, !parsers.isEmpty, !parsers.contains(reference) {
            throw Problem(
                "--reference \(reference) is not among the parsers measured (\(parsers.joined(separator: ", "))): "
                    + "add it to --parsers")
        }
        // A reference ranks the parse tables (× fastest, vs C) only: a run of none would ignore it.
        if let reference, !scenarios.isEmpty, !scenarios.contains(where: \.traits.timesParseFromMemory) {
            throw Problem(
                "--reference \(reference) ranks the parse tables (× fastest); "
                    + "\(scenarios.map(\.rawValue).joined(separator: ", ")) \(scenarios.count == 1 ? "has" : "have") none: "
                    + "add --scenario parse or drop --reference")
        }
        guard downloadRounds >= 1 else { throw Problem("--download-rounds must be at least 1") }
        guard (1...NetworkProfile.mostLinks).contains(downloadsAtOnce) else {
            throw Problem("--downloads-at-once must be from 1 to \(NetworkProfile.mostLinks)")
        }
        if countsInstructions, let uncounted = scenarios.first(where: { !$0.traits.countsInstructions }) {
            throw Problem(
                "--counter instructions counts the parse scenario only, not \(uncounted.rawValue) (a download under "
                    + "valgrind measures valgrind)")
        }
        guard (0...1000).contains(slowdownPercent) else {
            throw Problem("--inject-slowdown must be 0 to 1000 (percent)")
        }
        if let songs, !(1...FeedGenerator.maxSongs).contains(songs) {
            throw Problem("--songs must be from 1 to \(FeedGenerator.maxSongs) (a feed of about 300 MB)")
        }
        if let maxSeconds, !(maxSeconds > 0) { throw Problem("--max-time must be a positive number of seconds") }
        if let precision, !parsers.isEmpty, !Self.haveARatio(parsers) {
            throw Problem(
                "--precision \(NoiseReport.percent(precision)) watches the ratios between parsers (× fastest, vs C), and "
                    + "\(parsers.joined(separator: ", ")) \(parsers.count == 1 ? "gives" : "give") none: name two "
                    + "parsers or more, or give --rounds or --max-time")
        }
        if stopping, countsInstructions {
            throw Problem(
                "--precision and --max-time stop timed rounds; instruction counts are exact, so --rounds is enough")
        }
        guard queuePageSize >= 1 else { throw Problem("--queue-page-size must be at least 1") }
        let practices = scenarios.filter(\.traits.needsEmbeddedServer)
        if url != nil, !practices.isEmpty {
            throw Problem(
                "--url: the practices (\(practices.map(\.rawValue).joined(separator: ", "))) are measured against the embedded server, which pages and compresses; drop --url or those scenarios"
            )
        }
        // An option for scenarios the run does not have would change nothing: refused, not ignored
        // (once its value is known to be one it could take).
        for option in ScenarioOption.allCases where optionsGiven.contains(option) {
            guard !scenarios.contains(where: { $0.options.contains(option) }) else { continue }
            let takers = ScenarioID.allCases.filter { $0.options.contains(option) }.map(\.rawValue)
            let one = takers.count == 1
            throw Problem(
                "\(option.rawValue) sets the \(takers.joined(separator: ", ")) scenario\(one ? "" : "s"), "
                    + (one ? "which this run does not have" : "none of which this run has") + " (its scenarios: "
                    + "\(scenarios.map(\.rawValue).joined(separator: ", "))): add \(one ? "it" : "one") with --scenario, "
                    + "or leave \(option.rawValue) out")
        }
    }

    /// The run's plan: its parsers, feeds (a ``url`` fetched once, ``songs`` generated under
    /// `outputDirectory`, the documents), scenarios, settings and the practices' choices.
    ///
    /// - Parameters:
    ///   - outputDirectory: where generated and downloaded feeds are kept.
    ///   - executable: the workers' executable.
    ///   - instructionCounter: the counter of a counted run (``countsInstructions``).
    ///   - feedHost: starts the embedded feed server (`FeedServing`'s `FeedServer.starter`); `nil` in a
    ///     build without it (the suite's trait `FeedServer`), whose requests have left out the
    ///     scenarios that need it (``leavingOutServedScenarios(named:)``).
    ///   - warn: told what the feeds' resolution leaves out, and why.
    /// - Returns: the plan, for ``BenchSession``; without allocation counts when the interposer is not
    ///   beside `executable` (``RunPlan/allocationCountsUnavailable`` says why).
    /// - Throws: `FeedResolutionError` for a feed that cannot be had.
    package func plan(
        outputDirectory: String, executable: String, instructionCounter: InstructionCounter?,
        feedHost: FeedHostStarter?, warn: (String) -> Void
    ) throws -> RunPlan {
        var resolver = FeedResolver(outputDirectory: outputDirectory)
        (resolver.feeds, resolver.songs, resolver.url) = (feeds, songs, url.flatMap(URL.init(string:)))
        resolver.documents = workload == .document ? documents : nil
        resolver.timeoutSeconds = settings.timeoutSeconds
        let (paths, remoteURLs) = try resolver.resolve(warn: warn)
        var plan = RunPlan(
            parsers: parsers, feeds: paths, settings: settings, executable: executable,
            debugBuild: EnvironmentProbe.isDebugBuild, scenarios: scenarios, network: network,
            remoteURLs: remoteURLs, instructionCounter: instructionCounter, feedHost: feedHost)
        if let pageSizes { plan.pageSizes = pageSizes }
        if let queueWidths { plan.queueWidths = queueWidths }
        if let threadCounts { plan.threadCounts = threadCounts }
        plan.queuePageSize = queuePageSize
        plan.allowUnverified = allowUnverified
        plan.leaveOutUnavailableAllocationCounts()
        return plan
    }
}
