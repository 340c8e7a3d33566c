/// What one document of the hostile corpus ended in (`bench hostile`).
package enum HostileVerdict: Sendable, Equatable {
    /// A typed error (`FeedParseError`), without the secret.
    case typedError
    /// The songs expected, this many.
    case correctSongs(Int)
    /// Songs within the field limit and without the secret (an entity expanded), this many.
    case boundedSongs(Int)
    /// The worker died by this signal (its name).
    case crashed(String)
    /// The worker finished nothing within the time limit (the detail).
    case timedOut(String)
    /// The worker passed the memory limit (the detail).
    case outOfMemory(String)
    /// A song or the error shows the secret of the local file: the parser read it.
    case readSecret
    /// Songs (this many) from a document that is not well-formed: an error was due.
    case acceptedMalformed(Int)
    /// Other songs than those allowed (what differs).
    case wrongSongs(String)
    /// The worker could not run or report (what happened).
    case failed(String)

    /// Whether the parser did what the contract asks.
    package var held: Bool {
        switch self {
        case .typedError, .correctSongs, .boundedSongs: return true
        default: return false
        }
    }

    /// The verdict in a few words, failures in capitals ("typed error", "CRASHED").
    package var label: String {
        switch self {
        case .typedError: return "typed error"
        case .correctSongs: return "correct songs"
        case .boundedSongs: return "bounded songs"
        case .crashed: return "CRASHED"
        case .timedOut: return "TIMED OUT"
        case .outOfMemory: return "OUT OF MEMORY"
        case .readSecret: return "READ THE SECRET"
        case .acceptedMalformed: return "ACCEPTED MALFORMED"
        case .wrongSongs: return "WRONG SONGS"
        case .failed: return "FAILED"
        }
    }

    /// The label with its detail ("correct songs (1)", "CRASHED (SIGILL)").
    package var description: String {
        switch self {
        case .typedError, .readSecret: return label
        case .correctSongs(let count), .boundedSongs(let count):
            return "\(label) (\(count))"
        case .acceptedMalformed(let count):
            return "\(label) (\(count) song\(count == 1 ? "" : "s"), no error)"
        case .crashed(let detail), .timedOut(let detail), .outOfMemory(let detail), .wrongSongs(let detail),
            .failed(let detail):
            return "\(label) (\(detail))"
        }
    }
}

/// One parser over the whole hostile corpus: each document and what it ended in.
package struct HostileParserResult: Sendable {
    /// A document of the corpus and its verdict.
    package struct Entry: Sendable {
        /// What the document is ("billion laughs", "truncated at 17").
        package var name: String
        /// The byte count of a truncated feed; `nil` for the others (reports show truncations as one row).
        package var truncatedAt: Int?
        package var verdict: HostileVerdict

        package init(name: String, truncatedAt: Int?, verdict: HostileVerdict) {
            self.name = name
            self.truncatedAt = truncatedAt
            self.verdict = verdict
        }
    }

    package var parser: String
    /// Its kind, as reports write it ("push/event").
    package var kind: String
    /// Every document, in the corpus's order.
    package var entries: [Entry]

    package init(parser: String, kind: String, entries: [Entry]) {
        self.parser = parser
        self.kind = kind
        self.entries = entries
    }

    /// Whether every document ended as the contract asks (and there was one).
    package var held: Bool { !entries.isEmpty && entries.allSatisfy(\.verdict.held) }

    /// The documents where it did not.
    package var problems: [Entry] { entries.filter { !$0.verdict.held } }
}
