#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A least-squares straight line `y = intercept + slope · x`, with how well it fits.
public struct LinearFit: Codable, Sendable, Equatable {
    public var slope: Double
    public var intercept: Double
    /// The coefficient of determination: 1 for points on the line, 0 for a line no better than the
    /// mean; `nil` when every y is the same (nothing to explain) or with two points (a line through
    /// two points always fits: it says nothing).
    public var rSquared: Double?
    /// Points fitted.
    public var points: Int

    /// Fits `y` against `x`; `nil` with fewer than two distinct x values.
    public init?(x: [Double], y: [Double]) {
        let pairs = zip(x, y).filter { $0.0.isFinite && $0.1.isFinite }
        guard pairs.count >= 2, Set(pairs.map(\.0)).count >= 2 else { return nil }
        let n = Double(pairs.count)
        let meanX = pairs.reduce(0) { $0 + $1.0 } / n
        let meanY = pairs.reduce(0) { $0 + $1.1 } / n
        let sxx = pairs.reduce(0) { $0 + ($1.0 - meanX) * ($1.0 - meanX) }
        let sxy = pairs.reduce(0) { $0 + ($1.0 - meanX) * ($1.1 - meanY) }
        let syy = pairs.reduce(0) { $0 + ($1.1 - meanY) * ($1.1 - meanY) }
        let b = sxy / sxx
        let a = meanY - b * meanX
        let residual = pairs.reduce(0.0) { total, pair in
            let error = pair.1 - (a + b * pair.0)
            return total + error * error
        }
        slope = b
        intercept = a
        rSquared = syy > 0 && pairs.count >= 3 ? 1 - residual / syy : nil
        points = pairs.count
    }

    /// The exponent `b` of `y ∝ x^b` (a straight line on log–log axes): 1 when the cost grows in
    /// proportion, 2 when it grows with the square.
    ///
    /// `nil` unless every x and y is positive.
    public static func exponent(x: [Double], y: [Double]) -> LinearFit? {
        guard x.allSatisfy({ $0 > 0 }), y.allSatisfy({ $0 > 0 }) else { return nil }
        return LinearFit(x: x.map { log($0) }, y: y.map { log($0) })
    }
}

/// What a sweep measures: the feed sizes of the scale sweep and the chunk sizes of the chunk sweep.
public struct SweepPlan: Codable, Sendable, Equatable {
    /// Songs of each feed of the scale sweep (each generated, deterministic).
    public var songs: [Int]
    /// The chunk size of the scale sweep.
    public var chunkSize: Int
    /// The chunk sizes of the chunk sweep (0: the whole feed in one call); empty for none.
    public var chunkSizes: [Int]
    /// Songs of the chunk sweep's feed.
    public var chunkSongs: Int
    /// Instructions are counted (callgrind) at the sizes up to this many songs; 0 for none.
    public var instructionsUpToSongs: Int

    public init(songs: [Int], chunkSize: Int, chunkSizes: [Int], chunkSongs: Int, instructionsUpToSongs: Int) {
        self.songs = songs
        self.chunkSize = chunkSize
        self.chunkSizes = chunkSizes
        self.chunkSongs = chunkSongs
        self.instructionsUpToSongs = instructionsUpToSongs
    }
}

/// One parser at one point of a sweep: a feed size (scale sweep) or a chunk size (chunk sweep).
public struct SweepPoint: Codable, Sendable, Equatable {
    /// "scale" or "chunk".
    public var sweep: String
    public var parser: String
    /// The parser's kind (``CellSummary/kind``); `nil` when the run did not record it.
    public var kind: String? = nil
    public var songs: Int
    public var feedBytes: Int
    /// 0: the whole feed in one call.
    public var chunkSize: Int
    /// The headline parse time (median of the workers' medians), ns, with the next run's interval.
    public var timeNs: Double?
    public var timeLowNs: Double?
    public var timeHighNs: Double?
    public var workers: Int?
    /// The probability that the next run's figure falls in the interval (below 0.95 with fewer
    /// than 10 workers).
    public var timeCoverage: Double?
    /// Feed bytes / time, 10⁶ bytes a second.
    public var megabytesPerSecond: Double?
    /// The parse's own peak (median over the workers), bytes.
    public var parsePeakBytes: Int?
    /// The worker's peak over its whole life, bytes.
    public var workerPeakBytes: Int?
    /// `malloc`-family calls per parse, and the bytes they asked for.
    public var allocations: Double?
    public var allocatedBytes: Double?
    /// Bytes the parse left allocated: its songs.
    public var keptBytes: Double?
    /// Instructions of one parse (callgrind), when counted at this size.
    public var instructions: Double?
    public var failed: Int
    /// Why the parser has no figure here, or what went wrong (it refused the feed, crashed, disagreed).
    public var outcome: String?

    public init(sweep: String, parser: String, songs: Int, feedBytes: Int, chunkSize: Int) {
        self.sweep = sweep
        self.parser = parser
        self.songs = songs
        self.feedBytes = feedBytes
        self.chunkSize = chunkSize
        self.failed = 0
    }

    /// The parse's peak over the songs' own memory (``keptBytes``).
    public var peakOverSongs: Double? {
        guard let peak = parsePeakBytes, let kept = keptBytes, kept > 0 else { return nil }
        return Double(peak) / kept
    }

    /// Whether the parser has figures here (it was timed and did not fail every parse).
    public var measured: Bool { timeNs != nil }
}

/// A fitted growth: one figure of one parser against the feed's size.
public struct SweepSlope: Codable, Sendable, Equatable {
    public var parser: String
    /// "time", "instructions", "parse peak", "allocations", "songs' memory".
    public var figure: String
    /// What the slope is per: "byte" of feed or "song".
    public var per: String
    /// The slope's unit ("ns", "instructions", "bytes", "allocations").
    public var unit: String
    public var fit: LinearFit
    /// The exponent on log–log axes (1: grows in proportion).
    public var exponent: Double?
    /// The range of songs fitted.
    public var fromSongs: Int
    public var toSongs: Int
}

/// A sweep's outcome: its points and fitted slopes, with the runs they come from.
public struct SweepResult: Codable, Sendable {
    public var plan: SweepPlan
    /// The timing run (times, memory, allocations).
    public var environment: RunEnvironment
    public var settings: RunSettings
    /// The instruction-counting run, if instructions were counted.
    public var instructionRunID: String?
    public var noise: NoiseReport?
    public var points: [SweepPoint]
    public var slopes: [SweepSlope]

    public init(
        plan: SweepPlan, environment: RunEnvironment, settings: RunSettings, instructionRunID: String?,
        noise: NoiseReport?,
        points: [SweepPoint], slopes: [SweepSlope]
    ) {
        self.plan = plan
        self.environment = environment
        self.settings = settings
        self.instructionRunID = instructionRunID
        self.noise = noise
        self.points = points
        self.slopes = slopes
    }

    /// Builds the sweep's points from its runs and fits the slopes.
    ///
    /// - Parameters:
    ///   - plan: the sweep's sizes and chunk sizes.
    ///   - timed: the timing run (every feed and chunk size of the plan).
    ///   - counted: the instruction-counting run, if any.
    ///   - scaleFeeds: the scale sweep's feed paths, by songs.
    ///   - chunkFeed: the chunk sweep's feed path.
    ///   - parsers: the parsers swept, in report order.
    /// - Returns: the sweep's points and the fitted slopes.
    public static func analyse(
        plan: SweepPlan, timed: RunResult, counted: RunResult?, scaleFeeds: [Int: String], chunkFeed: String?,
        parsers: [String]
    ) -> SweepResult {
        var points: [SweepPoint] = []
        for songs in plan.songs {
            guard let feed = scaleFeeds[songs] else { continue }
            for parser in parsers {
                points.append(
                    point("scale", parser: parser, feed: feed, songs: songs, chunkSize: plan.chunkSize, timed, counted))
            }
        }
        if let chunkFeed {
            for chunkSize in plan.chunkSizes {
                for parser in parsers {
                    points.append(
                        point(
                            "chunk", parser: parser, feed: chunkFeed, songs: plan.chunkSongs, chunkSize: chunkSize,
                            timed, counted))
                }
            }
        }
        return SweepResult(
            plan: plan, environment: timed.environment, settings: timed.settings,
            instructionRunID: counted?.environment.runID, noise: timed.noise, points: points, slopes: slopes(points))
    }

    static func point(
        _ sweep: String, parser: String, feed: String, songs: Int, chunkSize: Int, _ timed: RunResult,
        _ counted: RunResult?
    ) -> SweepPoint {
        func isCell(_ summary: CellSummary) -> Bool {
            summary.cell.parser == parser && summary.cell.feedPath == feed && summary.cell.scenario == .parse
                && summary.cell.chunkSize == chunkSize
        }
        let cell = timed.cells.first(where: isCell)
        let notTimed = timed.cells.first {
            $0.cell.parser == parser && $0.cell.feedPath == feed && $0.cell.scenario == CellKey.notTimedScenario
        }
        var point = SweepPoint(
            sweep: sweep, parser: parser, songs: songs,
            feedBytes: cell?.cell.feedBytes ?? notTimed?.cell.feedBytes ?? 0, chunkSize: chunkSize)
        point.kind = cell?.kind ?? notTimed?.kind
        if let cell {
            point.songs = cell.songs > 0 ? cell.songs : songs
            point.timeNs = cell.time
            point.timeLowNs = cell.estimate?.low
            point.timeHighNs = cell.estimate?.high
            point.workers = cell.estimate?.workers
            point.timeCoverage = cell.estimate?.coverage
            point.megabytesPerSecond = cell.megabytesPerSecond
            point.parsePeakBytes = cell.parsePeakBytes
            point.workerPeakBytes = cell.peakResidentBytes
            point.allocations = cell.allocations?.median
            point.allocatedBytes = cell.allocatedBytes
            point.keptBytes = cell.keptBytes
            point.failed = cell.failed
            point.outcome = cell.outcome
            if cell.time == nil && point.outcome == nil { point.outcome = "every parse failed" }
        } else {
            point.outcome = notTimed?.outcome ?? "not measured"
        }
        point.instructions = counted?.cells.first(where: isCell)?.instructions?.median
        return point
    }

    /// The fitted slopes of the scale sweep, per parser (not the `null` baseline, which parses
    /// nothing: its figures are in the points).
    public static func slopes(_ points: [SweepPoint], baseline: String = "null") -> [SweepSlope] {
        let scale = points.filter { $0.sweep == "scale" && $0.parser != baseline }
        var parsers: [String] = []
        for point in scale where !parsers.contains(point.parser) { parsers.append(point.parser) }
        var slopes: [SweepSlope] = []
        for parser in parsers {
            let mine = scale.filter { $0.parser == parser && $0.measured }.sorted { $0.songs < $1.songs }
            func add(_ figure: String, per: String, unit: String, _ value: (SweepPoint) -> Double?) {
                let used = mine.compactMap { point in value(point).map { (point, $0) } }
                let x = used.map { Double(per == "byte" ? $0.0.feedBytes : $0.0.songs) }
                let y = used.map(\.1)
                guard let fit = LinearFit(x: x, y: y), let first = used.first, let last = used.last else { return }
                slopes.append(
                    SweepSlope(
                        parser: parser, figure: figure, per: per, unit: unit, fit: fit,
                        exponent: LinearFit.exponent(x: x, y: y)?.slope, fromSongs: first.0.songs, toSongs: last.0.songs
                    ))
            }
            add("time", per: "byte", unit: "ns") { $0.timeNs }
            add("instructions", per: "byte", unit: "instructions") { $0.instructions }
            add("parse peak", per: "byte", unit: "bytes") { $0.parsePeakBytes.map(Double.init) }
            add("parse peak", per: "song", unit: "bytes") { $0.parsePeakBytes.map(Double.init) }
            add("allocations", per: "song", unit: "allocations") { $0.allocations }
            add("songs' memory", per: "song", unit: "bytes") { $0.keptBytes }
        }
        return slopes
    }
}
