/// The scenarios the suite measures: what one iteration of a cell does (see the engine's scenario types).
///
/// Each case says once what reports and the runner need to know of it (``traits``) and what it does
/// (``summary``, which `bench run --help` lists); nothing else tests which scenario a cell is.
public enum ScenarioID: String, CaseIterable, Codable, Sendable {
    /// The feed's bytes are in memory; a fresh parser consumes them in chunks.
    case parse
    /// The feed is fetched over HTTP; a push parser consumes each chunk as it arrives.
    case download
    /// A download, then a second request with validators that gets 304.
    case conditional
    /// The feed in pages, following next links.
    case paged
    /// The whole feed, and the same with only the song fields.
    case fields
    /// The whole feed, identity and gzip.
    case gzip
    /// Every page through a bounded queue.
    case queue
    /// Every page through a bounded queue, cancelled once the first page is in.
    case cancel
    /// The feed parsed, then its songs written to SQLite.
    case store
    /// The feed's songs stored once, then read back by an app's screens.
    case read
    /// Any XML document's bytes in memory, walked by a fresh parser (in chunks) into the canonical
    /// event sink: the document workload.
    case document
    /// N parses of the same feed from memory at once, on N threads of one worker (`concurrent-N`).
    case concurrent
    /// A fresh process's first parse of the feed from memory, the libraries' initialisation
    /// included: one parse a worker, no warm-up.
    case cold

    /// What reports and the runner know of the scenario: its table, whether it is ranked, learns
    /// from history, counts allocations or instructions, its workload.
    public var traits: ScenarioTraits {
        switch self {
        case .parse:
            return ScenarioTraits(
                table: .parse, timesParseFromMemory: true, countsAllocations: true, inDefaultRun: true)
        case .document:
            return ScenarioTraits(
                table: .parse, timesParseFromMemory: true, countsAllocations: true, workload: .document)
        case .download: return ScenarioTraits(table: .download, inDefaultRun: true, workersSideBySide: true)
        case .conditional: return ScenarioTraits(table: .download, workersSideBySide: true)
        case .paged:
            return ScenarioTraits(table: .practice, practice: .init(.paging), needsEmbeddedServer: true)
        case .fields:
            return ScenarioTraits(table: .practice, practice: .init(.fields), needsEmbeddedServer: true)
        case .gzip:
            return ScenarioTraits(table: .practice, practice: .init(.compression), needsEmbeddedServer: true)
        case .queue:
            return ScenarioTraits(table: .practice, practice: .init(.queue), needsEmbeddedServer: true)
        case .cancel:
            return ScenarioTraits(table: .practice, practice: .init(.cancel), needsEmbeddedServer: true)
        case .store: return ScenarioTraits(table: .practice, practice: .init(.store))
        case .read:
            return ScenarioTraits(
                table: .practice,
                practice: .init(
                    .read, timesVisits: true,
                    choicePairs: Dictionary(uniqueKeysWithValues: ReadPairs.pairs.map { ($0.against, $0.recommended) })),
                learnsFromHistory: true, countsAllocations: true)
        case .concurrent: return ScenarioTraits(table: .concurrent, runsEveryRound: true)
        case .cold:
            return ScenarioTraits(table: .parse, runsEveryRound: true, ranksParsers: true, firstParseOnly: true)
        }
    }

    /// What one iteration does, in a line (`bench run --help` lists them).
    public var summary: String {
        switch self {
        case .parse: return "bytes in memory"
        case .download: return "over HTTP, parsing as bytes arrive"
        case .conditional: return "a 200 then a 304"
        case .paged: return "follow next links, one cell per --page-size"
        case .fields: return "the whole feed and the same with only the song fields (?fields=)"
        case .gzip: return "identity and gzip bodies"
        case .queue:
            return "every page (--queue-page-size songs each) through a bounded queue of each --max-concurrent width, "
                + "and a cancel once the first page is in"
        case .cancel: return "the queue's cancel cells alone"
        case .store:
            return "the songs written to SQLite, one transaction per song or one per batch, in index order or shuffled"
        case .read:
            return "the songs stored once, then read by an app's screens (a shared connection with a cache or one per "
                + "screen, a screen in one query or by faults, SQLite's page cache at its default or holding the "
                + "table), for one parser"
        case .document: return "any XML document walked into the canonical event sink (the document workload)"
        case .concurrent:
            return "--threads parses of the feed from memory at once, one per thread, in one worker (default 1,2,4): "
                + "throughput and its scaling, each thread's songs checked; not in the default set"
        case .cold:
            return "a fresh worker's first parse from memory, no warm-up, the libraries' first use included "
                + "(what an app pays at launch); one parse a worker, not in the default set"
        }
    }

    /// A practice cell's choice (the cell name after the scenario's dash) in words, and its place
    /// among the practice's choices; `nil` for a scenario that is no practice or a choice this
    /// build does not know.
    public func practiceChoice(_ choice: String) -> (words: String, order: Int)? {
        switch self {
        case .paged:
            return CellScenario.count(choice).map { ("\($0) per page", $0) }
        case .fields:
            return choice == "songs" ? ("song fields only", 1) : choice == "all" ? ("every field", 0) : nil
        case .gzip:
            return choice == "on" ? ("gzip", 1) : choice == "off" ? ("identity", 0) : nil
        case .queue:
            return CellScenario.count(choice).map { ("\($0) at once", $0) }
        case .cancel:
            return CellScenario.count(choice).map { ("\($0) at once, cancel after page 1", $0) }
        case .store:
            let words = choice.split(separator: "-").map(String.init)
            guard words.count >= 2 else { return nil }
            let batch = words[0] == "batch"
            let ordered = words[1] == "ordered"
            let cache = words.count > 2 && words[2] == "cache"
            let text =
                (batch ? "one transaction" : "a transaction per song") + (ordered ? ", index order" : ", shuffled")
                + (cache ? ", cache sized" : "")
            return (text, (batch ? 2 : 0) + (ordered ? 0 : 1) + (cache ? 4 : 0))
        case .read:
            return ReadPairs.describe(choice)
        case .parse, .download, .conditional, .document, .concurrent, .cold:
            return nil
        }
    }

    /// Whether, after the timed rounds, one worker per cell of the scenario counts allocations.
    public var countsAllocations: Bool { traits.countsAllocations }

    /// What the scenario's parsers build: songs, or a document's events.
    public var workload: Workload { traits.workload }

    /// The scenario that times a parse from memory of `workload` (`parse`, `document`): a sweep's.
    public static func parseFromMemory(_ workload: Workload) -> ScenarioID {
        allCases.first { $0.traits.timesParseFromMemory && $0.workload == workload } ?? .parse
    }
}

/// What reports and the runner need to know of a scenario, said once by its ``ScenarioID``: reports
/// read it instead of testing which scenario a cell is.
public struct ScenarioTraits: Sendable, Equatable {
    /// The table a scenario's cells are shown in.
    public enum Table: Sendable, Equatable {
        /// A parse of bytes in memory: one row per parser, ranked (× fastest), with binding taxes,
        /// allocation and instruction counts.
        case parse
        /// A download (and its revalidation): download, parse and total times.
        case download
        /// A practice around the parse: one row per choice (``PracticeFigures``).
        case practice
        /// Parses at once on several threads: throughput and its scaling (``ConcurrentFigures``).
        case concurrent
    }

    /// What a practice scenario's cells are (``ScenarioTraits/practice``): the practice table's rows.
    public struct Practice: Sendable, Equatable {
        /// Which practice it is; reports order the practices as ``ScenarioID`` lists their scenarios.
        public var name: PracticeID
        /// Whether one iteration is a visit of an app's screens: the headline is the time per visit,
        /// with the next run's interval, and the pages, allocations and bytes per visit.
        public var timesVisits: Bool
        /// The choices whose times the reports divide, the workers of each round paired (``ReadPairs``):
        /// the choice advised against (the numerator) → the one recommended (the denominator).
        public var choicePairs: [String: String]

        public init(_ name: PracticeID, timesVisits: Bool = false, choicePairs: [String: String] = [:]) {
            self.name = name
            self.timesVisits = timesVisits
            self.choicePairs = choicePairs
        }

        /// Its cells' choices when they are a fixed list (every choice of its pairs), sorted; empty
        /// when they come from the run's options.
        public var choices: [String] { (Array(choicePairs.keys) + Array(choicePairs.values)).sorted() }
    }

    public var table: Table
    /// Whether its cells time a parse of bytes in memory, the same way in every run: the cells with
    /// relative speeds (× fastest), binding taxes, the noise verdict, allocation and instruction counts.
    public var timesParseFromMemory: Bool
    /// Whether its cells are ranked within their table (scenario, feed and chunk size).
    ///
    /// A ranked cell has the × fastest column, the neighbours it cannot tell apart, an export's fixed
    /// reference. Every scenario that times a parse from memory is, and so is one that times a fresh
    /// process's first parse.
    public var ranksParsers: Bool
    /// Whether its cells run in every round, `--iterations` parses a worker (the others run in the
    /// rounds ``RunSettings/runsDownloads(inRound:)`` picks, their own iterations a worker).
    public var runsEveryRound: Bool
    /// Whether the host's earlier runs of its cells widen their next-run interval (``RunHistory``).
    public var learnsFromHistory: Bool
    /// Whether, after the timed rounds, one worker per cell counts its allocations.
    public var countsAllocations: Bool
    /// Whether `--counter instructions` counts its cells.
    public var countsInstructions: Bool
    /// What its parsers build.
    public var workload: Workload
    /// Whether `bench run` measures it when no `--scenario` is given.
    public var inDefaultRun: Bool
    /// Whether its cells are measured against the embedded server, which pages and compresses (not a `--url`).
    public var needsEmbeddedServer: Bool
    /// What its cells are as a practice (its name, its choices); `nil` for a scenario that is no practice.
    public var practice: Practice?
    /// Whether a round may run its workers of one feed side by side (``RunSettings/downloadsAtOnce``).
    ///
    /// Each then fetches over a shaped link of its own, one transfer an iteration. A practice that
    /// measures requests at once shares one link on purpose, and its workers run one at a time.
    public var workersSideBySide: Bool
    /// Whether a worker times its first parse alone: no warm-up, one parse, the process fresh (the
    /// libraries' and the parser's first use in it included, which every warm-up hides).
    public var firstParseOnly: Bool

    public init(
        table: Table, practice: Practice? = nil, timesParseFromMemory: Bool = false, runsEveryRound: Bool? = nil,
        learnsFromHistory: Bool? = nil, ranksParsers: Bool? = nil,
        countsAllocations: Bool = false, countsInstructions: Bool? = nil, workload: Workload = .songs,
        inDefaultRun: Bool = false, needsEmbeddedServer: Bool = false, workersSideBySide: Bool = false,
        firstParseOnly: Bool = false
    ) {
        self.table = table
        self.timesParseFromMemory = timesParseFromMemory
        self.runsEveryRound = runsEveryRound ?? timesParseFromMemory
        self.learnsFromHistory = learnsFromHistory ?? timesParseFromMemory
        self.ranksParsers = ranksParsers ?? timesParseFromMemory
        self.countsAllocations = countsAllocations
        self.countsInstructions = countsInstructions ?? timesParseFromMemory
        self.workload = workload
        self.inDefaultRun = inDefaultRun
        self.needsEmbeddedServer = needsEmbeddedServer
        self.practice = practice
        self.workersSideBySide = workersSideBySide
        self.firstParseOnly = firstParseOnly
    }
}
