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
    /// The timing run's host state against its history (`nil` in a sweep made before sweeps had it).
    public var hostState: HostState?
    /// What the timing run's next-run intervals hold (`nil` in a sweep made before sweeps had it).
    public var runToRun: RunToRunNote?
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
    ///   - timed: the timing run (every document and chunk size of the plan).
    ///   - counted: the instruction-counting run, if any.
    ///   - scaleFeeds: the scale sweep's document paths, by size (``SweepPlan/sizes``).
    ///   - chunkFeed: the chunk sweep's document path.
    ///   - parsers: the parsers swept, in report order.
    /// - Returns: the sweep's points and the fitted slopes.
    public static func analyse(
        plan: SweepPlan, timed: RunResult, counted: RunResult?, scaleFeeds: [Int: String], chunkFeed: String?,
        parsers: [String]
    ) -> SweepResult {
        var points: [SweepPoint] = []
        let scenario = ScenarioID.parseFromMemory(plan.workload)
        var elements: [String: Int] = [:]
        for profile in timed.documents ?? [] { elements[profile.document] = profile.elements }
        func point(_ sweep: String, parser: String, feed: String, size: Int, chunkSize: Int) -> SweepPoint {
            var point = Self.point(
                sweep, parser: parser, feed: feed, scenario: scenario, size: size, chunkSize: chunkSize, timed, counted)
            if plan.workload == .document {
                point.songs = 0
                point.elements = elements[feed]
            }
            return point
        }
        for size in plan.sizes {
            guard let feed = scaleFeeds[size] else { continue }
            for parser in parsers {
                points.append(point("scale", parser: parser, feed: feed, size: size, chunkSize: plan.chunkSize))
            }
        }
        if let chunkFeed {
            for chunkSize in plan.chunkSizes {
                for parser in parsers {
                    points.append(
                        point(
                            "chunk", parser: parser, feed: chunkFeed, size: plan.chunkDocumentSize, chunkSize: chunkSize
                        ))
                }
            }
        }
        var result = SweepResult(
            plan: plan, environment: timed.environment, settings: timed.settings,
            instructionRunID: counted?.environment.runID, noise: timed.noise, points: points,
            slopes: slopes(points, per: plan.item))
        (result.hostState, result.runToRun) = (timed.hostState, timed.runToRun)
        return result
    }

    static func point(
        _ sweep: String, parser: String, feed: String, scenario: ScenarioID, size: Int, chunkSize: Int,
        _ timed: RunResult, _ counted: RunResult?
    ) -> SweepPoint {
        func isCell(_ summary: CellSummary) -> Bool {
            summary.cell.parser == parser && summary.cell.feedPath == feed
                && summary.cell.scenario == CellScenario(scenario)
                && summary.cell.chunkSize == chunkSize
        }
        let cell = timed.cells.first(where: isCell)
        let notTimed = timed.cells.first {
            $0.cell.parser == parser && $0.cell.feedPath == feed && $0.cell.scenario == CellKey.notTimedScenario
        }
        var point = SweepPoint(
            sweep: sweep, parser: parser, size: size, songs: size,
            feedBytes: cell?.cell.feedBytes ?? notTimed?.cell.feedBytes ?? 0, chunkSize: chunkSize)
        point.kind = cell?.kind ?? notTimed?.kind
        if let cell {
            point.songs = cell.songs > 0 ? cell.songs : size
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
            if cell.time == nil && point.outcome == nil {
                point.outcome = cell.lostTheCPUNote ?? "every parse failed"
            }
        } else {
            point.outcome = notTimed?.outcome ?? "not measured"
        }
        point.instructions = counted?.cells.first(where: isCell)?.instructions?.median
        return point
    }

    /// The fitted slopes of the scale sweep, per parser (not the baselines `null` and `sink`, which
    /// parse nothing: their figures are in the points).
    ///
    /// - Parameters:
    ///   - points: the sweep's points.
    ///   - item: what the per-item slopes are per: "song", or "element" (the document workload, whose
    ///     sink keeps nothing: no slope of kept memory).
    /// - Returns: each parser's fitted figures, in the order the parsers first appear.
    public static func slopes(_ points: [SweepPoint], per item: String = "song") -> [SweepSlope] {
        let scale = points.filter { $0.sweep == "scale" && !["null", "sink"].contains($0.parser) }
        var parsers: [String] = []
        for point in scale where !parsers.contains(point.parser) { parsers.append(point.parser) }
        var slopes: [SweepSlope] = []
        for parser in parsers {
            let mine = scale.filter { $0.parser == parser && $0.measured }.sorted { $0.size < $1.size }
            func add(_ figure: String, per: String, unit: String, _ value: (SweepPoint) -> Double?) {
                func across(_ point: SweepPoint) -> Int? {
                    per == "byte" ? point.feedBytes : per == "song" ? point.songs : point.elements
                }
                let used = mine.compactMap { point -> (SweepPoint, Double, Double)? in
                    guard let y = value(point), let x = across(point) else { return nil }
                    return (point, Double(x), y)
                }
                let x = used.map(\.1)
                let y = used.map(\.2)
                guard let fit = LinearFit(x: x, y: y), let first = used.first, let last = used.last else { return }
                slopes.append(
                    SweepSlope(
                        parser: parser, figure: figure, per: per, unit: unit, fit: fit,
                        exponent: LinearFit.exponent(x: x, y: y)?.slope, fromSize: first.0.size, toSize: last.0.size
                    ))
            }
            add("time", per: "byte", unit: "ns") { $0.timeNs }
            add("instructions", per: "byte", unit: "instructions") { $0.instructions }
            add("parse peak", per: "byte", unit: "bytes") { $0.parsePeakBytes.map(Double.init) }
            add("parse peak", per: item, unit: "bytes") { $0.parsePeakBytes.map(Double.init) }
            add("allocations", per: item, unit: "allocations") { $0.allocations }
            if item == "song" { add("songs' memory", per: "song", unit: "bytes") { $0.keptBytes } }
        }
        return slopes
    }
}
