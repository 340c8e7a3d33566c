#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
