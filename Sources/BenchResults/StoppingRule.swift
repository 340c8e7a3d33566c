/// When a run stops measuring rounds: once every relative interval is as narrow as asked
/// (`--precision`), when its time is spent (`--max-time`), or after its rounds (`--rounds`).
///
/// Only the relative figures of the `parse` cells are watched (each parser's × fastest and its vs C
/// binding tax), on their interval from this run's rounds (the within-run interval): that is the
/// part more rounds narrow. An interval from fewer than ``minimumRounds`` pairs of workers (a busy
/// machine's lost parses) is no 95% one, however narrow, and never lets the rule stop. The noise
/// between runs, added afterwards from the store's history of the host (``RunToRun``), does not
/// shrink with rounds and is not asked of the rule.
///
/// The decision after each round is ``decide(afterRound:elapsedSeconds:cells:reference:)``; a round is only
/// started when the rounds so far, at their mean duration, say it ends within the time.
public struct StoppingRule: Codable, Sendable, Equatable {
    /// The widest relative half-width asked of every watched interval (0.02: ±2%); `nil`: none.
    public var precision: Double?
    /// The seconds of measuring rounds not to exceed; `nil`: no limit.
    public var maxSeconds: Double?
    /// The most rounds to run.
    public var maxRounds: Int
    /// The fewest rounds before precision may stop the run, when more than ``minimumRounds`` (a
    /// default run's, `RunDefaults.floorRounds`: as many workers as a next-run interval needs for its
    /// 95% coverage); `nil`: ``minimumRounds``.
    public var floorRounds: Int?

    /// The rounds before precision is looked at: a 95% signed-rank interval needs 6 pairs.
    public static let minimumRounds = 6

    public init(precision: Double?, maxSeconds: Double?, maxRounds: Int) {
        self.precision = precision
        self.maxSeconds = maxSeconds
        self.maxRounds = maxRounds
    }

    /// Whether to stop after `round` rounds that took `elapsedSeconds` in all, given the cells as
    /// summarised from those rounds (ranked, with their binding tax).
    ///
    /// - Parameters:
    ///   - round: the rounds done (1-based).
    ///   - elapsedSeconds: the time those rounds took.
    ///   - cells: the run's summaries so far.
    ///   - reference: the parser the run's ratios are against (`--reference`), as its tables name
    ///     the × column; `nil`: the fastest.
    /// - Returns: the outcome when the run should stop now; `nil` to run another round.
    public func decide(
        afterRound round: Int, elapsedSeconds: Double, cells: [CellSummary], reference: String? = nil
    ) -> StoppingOutcome? {
        let watched = Self.watched(cells)
        let wide = precision.map { Self.wider(than: $0, watched) } ?? []
        func stop(_ reason: StoppingOutcome.Reason) -> StoppingOutcome {
            // A run of several documents or chunk sizes says which an interval is of.
            StoppingOutcome(
                reason: reason, rounds: round, seconds: elapsedSeconds, rule: self,
                wider: reason == .precise ? [] : wide, nothingWatched: precision != nil && watched.isEmpty,
                reference: reference, namesDocuments: Set(watched.map(\.feed)).count > 1,
                namesChunkSizes: Set(watched.map(\.chunkSize)).count > 1)
        }
        if precision != nil, round >= max(Self.minimumRounds, floorRounds ?? 0), wide.isEmpty, !watched.isEmpty {
            return stop(.precise)
        }
        if round >= maxRounds { return stop(.roundsDone) }
        if let maxSeconds, elapsedSeconds + elapsedSeconds / Double(round) > maxSeconds {
            return stop(.timeSpent)
        }
        return nil
    }

    /// The watched intervals wider than `precision`, or from too few rounds to be 95% ones (however
    /// narrow: one pair of workers gives a 0% interval), those first, then widest first.
    public static func wider(than precision: Double, _ cells: [CellSummary]) -> [WideInterval] {
        wider(than: precision, watched(cells))
    }

    /// The intervals of `watched` wider than `precision`, in the public `wider(than:_:)`'s order.
    static func wider(than precision: Double, _ watched: [WideInterval]) -> [WideInterval] {
        func width(_ interval: WideInterval) -> Double { interval.hasLevel ? interval.halfWidth : .infinity }
        return watched.filter { width($0) > precision + 1e-12 }
            .sorted { (width($0), $0.parser) > (width($1), $1.parser) }
    }

    /// Every watched interval of `cells`: each parse cell's × fastest and vs C, where they have one.
    static func watched(_ cells: [CellSummary]) -> [WideInterval] {
        cells.filter { $0.cell.scenario.isParseFromMemory }.flatMap { summary in
            [(WideInterval.Figure.fastest, summary.relative), (.versusC, summary.bindingTax)].compactMap {
                figure, ratio -> WideInterval? in
                guard let ratio, let halfWidth = ratio.withinRunHalfWidth else { return nil }
                return WideInterval(
                    parser: summary.cell.parser, feed: summary.cell.feedPath, chunkSize: summary.cell.chunkSize,
                    figure: figure, halfWidth: halfWidth, pairs: ratio.rounds)
            }
        }
    }
}

/// A relative interval of a run, as the stopping rule sees it.
public struct WideInterval: Codable, Sendable, Equatable {
    /// Which ratio of the cell.
    public enum Figure: String, Codable, Sendable {
        /// The parser's time over the table's fastest (``CellSummary/relative``).
        case fastest = "× fastest"
        /// The parser's time over its C reference's (``CellSummary/bindingTax``).
        case versusC = "vs C"
    }

    public var parser: String
    public var feed: String
    public var chunkSize: Int
    public var figure: Figure
    /// The interval's larger distance from the ratio, relative to it (0.031: ±3.1%).
    public var halfWidth: Double
    /// The rounds it was taken from (pairs of workers); `nil` in a run stored before they were kept.
    public var pairs: Int?

    /// Whether it is a 95% interval: taken from at least ``StoppingRule/minimumRounds`` pairs (fewer
    /// give a narrower interval that holds the ratio less often, down to 0% from one pair).
    public var hasLevel: Bool { (pairs ?? StoppingRule.minimumRounds) >= StoppingRule.minimumRounds }
}

/// How a run with a ``StoppingRule`` stopped, as every report states it.
public struct StoppingOutcome: Codable, Sendable, Equatable {
    /// Why the rounds stopped.
    public enum Reason: String, Codable, Sendable {
        /// Every watched interval was as narrow as asked.
        case precise
        /// Another round would not have ended within the time.
        case timeSpent = "time spent"
        /// The most rounds were run.
        case roundsDone = "rounds done"
    }

    public var reason: Reason
    /// The rounds run.
    public var rounds: Int
    /// The seconds those rounds took.
    public var seconds: Double
    public var rule: StoppingRule
    /// The intervals still wider than asked when the run stopped, widest first (empty when precise,
    /// or when no precision was asked).
    public var wider: [WideInterval]
    /// The outcome in a sentence, for every format.
    public var message: String

    /// Whether the run had no interval for its precision to watch (one ranked parser alone).
    ///
    /// Its rounds could then end only by their number or their time. `nil`: it had some, or was
    /// stored before this was kept.
    public var nothingWatched: Bool?

    /// - Parameters:
    ///   - reason: why the rounds stopped.
    ///   - rounds: the rounds run.
    ///   - seconds: the seconds they took.
    ///   - rule: the rule that stopped them.
    ///   - wider: the intervals still wider than asked.
    ///   - nothingWatched: whether the run had no interval to watch.
    ///   - reference: the parser the ratios are against (`--reference`): the message says
    ///     "× c-libxml2" as the tables do; `nil`: "× fastest".
    ///   - namesDocuments: whether the message names each interval's document: a run of several.
    ///   - namesChunkSizes: whether it names each interval's chunk size: a run of several.
    public init(
        reason: Reason, rounds: Int, seconds: Double, rule: StoppingRule, wider: [WideInterval],
        nothingWatched: Bool = false, reference: String? = nil, namesDocuments: Bool = false,
        namesChunkSizes: Bool = false
    ) {
        self.nothingWatched = nothingWatched ? true : nil
        self.reason = reason
        self.rounds = rounds
        self.seconds = seconds
        self.rule = rule
        self.wider = wider
        self.message = ""
        self.message = sentence(reference: reference, namesDocuments: namesDocuments, namesChunkSizes: namesChunkSizes)
    }

    func sentence(reference: String?, namesDocuments: Bool, namesChunkSizes: Bool) -> String {
        let done = "Stopped after \(rounds) round\(rounds == 1 ? "" : "s") (\(Self.seconds(seconds)) of measuring)"
        let asked = rule.precision.map { "±" + Self.percent($0) }
        // The ratio to the reference as the tables head it ("× c-libxml2"), "× fastest" without one.
        func name(_ figure: WideInterval.Figure) -> String {
            figure == .fastest ? reference.map { "× \($0)" } ?? figure.rawValue : figure.rawValue
        }
        let ratios = "\(name(.fastest)) and \(name(.versusC))"
        switch reason {
        case .precise:
            return done
                + ": every \(ratios) interval from this run's rounds within \(asked ?? "the precision asked")"
                + " (the noise between runs, when added from the store, widens them again)."
        case .timeSpent, .roundsDone:
            let limit =
                reason != .timeSpent
                ? "the most rounds (\(rule.maxRounds))"
                : seconds >= (rule.maxSeconds ?? seconds)
                    // The rounds so far foretold the last one's end; it ran longer.
                    ? "--max-time \(Self.seconds(rule.maxSeconds ?? seconds)) was spent"
                    : "another round would pass --max-time \(Self.seconds(rule.maxSeconds ?? seconds))"
            guard let asked else { return done + ": \(limit)." }
            if nothingWatched == true {
                return done + ": \(limit); no \(name(.fastest)) or \(name(.versusC)) interval to watch (a ratio "
                    + "needs two parsers, or a parser beside its C reference), so \(asked) could not end the rounds."
            }
            guard !wider.isEmpty else { return done + ": \(limit); every interval within \(asked)." }
            let shown = wider.prefix(4).map {
                "\($0.parser) \(name($0.figure)) "
                    + (namesDocuments ? "on \(ComparisonKey.feedName($0.feed)) " : "")
                    + (namesChunkSizes ? "in chunks of \($0.chunkSize) " : "")
                    + ($0.hasLevel
                        ? "±\(Self.percent($0.halfWidth))"
                        : "from \($0.pairs ?? 0) pair\($0.pairs == 1 ? "" : "s") (not 95%)")
            }
            let more = wider.count > shown.count ? " and \(wider.count - shown.count) more" : ""
            return done + ": \(limit), before every interval was within \(asked). Still wider: "
                + shown.joined(separator: ", ") + more + "."
        }
    }

    static func percent(_ fraction: Double) -> String { NoiseReport.percent(fraction) }

    static func seconds(_ value: Double) -> String { NoiseReport.fixed(value, value < 100 ? 1 : 0) + " s" }
}

extension RelativeSpeed {
    /// The within-run interval's larger distance from the ratio, relative to it (0.031: ±3.1%);
    /// `nil` for the reference itself or without an interval.
    public var withinRunHalfWidth: Double? {
        guard let low = withinRunLow ?? low, let high = withinRunHigh ?? high, ratio > 0 else { return nil }
        return max(high / ratio - 1, 1 - low / ratio)
    }
}
