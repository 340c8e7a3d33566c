/// Where a cell's noise lies: the variance of the logarithm of one parse's time, split over the
/// three levels at which the suite repeats a measurement — parses within a worker process, worker
/// processes within a run, runs (Kalibera & Jones, "Rigorous benchmarking in reasonable time",
/// ISMM 2013).
///
/// The estimates are theirs, by the method of moments over the nested data: S₁² the pooled
/// variance of the parses around their worker's mean, S₂² that of the workers' means around their
/// run's mean, S₃² that of the runs' means. Each level's own variance is what its means vary by
/// beyond the level below: T₁ = S₁², T₂ = S₂² − S₁²/n, T₃ = S₃² − S₂²/W (n parses per worker, W
/// workers per run, their averages when they differ; a negative estimate is taken as 0). S₃² is
/// the mean square successive difference of the runs' means in time order, halved (von Neumann's
/// estimator): a history in which the code or the host changed once moves it by one difference
/// only, where the variance around the mean of all the runs would take the change as noise of
/// every run.
///
/// The levels say where more measuring helps: the next run's figure varies by T₃ + T₂/W + T₁/(nW),
/// so when ``run`` dominates, more workers or parses in one run cannot narrow what the next run
/// will report.
public struct NoiseLevels: Codable, Sendable, Equatable {
    /// Between the parses of one worker (T₁), on the log scale.
    public var parse: Double
    /// Between the workers of one run, beyond what their parses explain (T₂).
    public var worker: Double
    /// Between runs, beyond what their workers explain (T₃); `nil` with one run.
    public var run: Double?
    /// Runs in the data (this one and the earlier ones the store had).
    public var runs: Int
    /// The workers per run, on average.
    public var workersPerRun: Double
    /// The parses per worker, on average.
    public var parsesPerWorker: Double

    public init(parse: Double, worker: Double, run: Double?, runs: Int, workersPerRun: Double, parsesPerWorker: Double)
    {
        self.parse = parse
        self.worker = worker
        self.run = run
        self.runs = runs
        self.workersPerRun = workersPerRun
        self.parsesPerWorker = parsesPerWorker
    }

    /// Each level's share of the variance of one parse taken in a random run and worker
    /// (parse, worker, run; they add up to 1), or `nil` when there is no variance at all.
    public var shares: (parse: Double, worker: Double, run: Double?)? {
        let total = parse + worker + (run ?? 0)
        guard total > 0 else { return nil }
        return (parse / total, worker / total, run.map { $0 / total })
    }

    /// The levels of nested data: `runs[r][w]` the values (logarithms of times) of worker `w` in run
    /// `r`, the runs oldest first.
    ///
    /// Workers with fewer than 2 values count for the worker and run levels only; `nil` when no
    /// worker has 2 values or no run has 2 workers.
    public static func decompose(_ runs: [[[Double]]]) -> NoiseLevels? {
        func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }
        var parseSquares = 0.0
        var parseDegrees = 0
        var workerSquares = 0.0
        var workerDegrees = 0
        var parseCounts: [Double] = []
        var workerCounts: [Double] = []
        var runMeans: [Double] = []
        for run in runs {
            let workers = run.filter { !$0.isEmpty }
            guard !workers.isEmpty else { continue }
            var workerMeans: [Double] = []
            for values in workers {
                let m = mean(values)
                workerMeans.append(m)
                parseCounts.append(Double(values.count))
                parseSquares += values.reduce(0) { $0 + ($1 - m) * ($1 - m) }
                parseDegrees += values.count - 1
            }
            let runMean = mean(workerMeans)
            workerCounts.append(Double(workerMeans.count))
            workerSquares += workerMeans.reduce(0) { $0 + ($1 - runMean) * ($1 - runMean) }
            workerDegrees += workerMeans.count - 1
            runMeans.append(runMean)
        }
        guard parseDegrees > 0, workerDegrees > 0 else { return nil }
        let s1 = parseSquares / Double(parseDegrees)
        let s2 = workerSquares / Double(workerDegrees)
        let n = mean(parseCounts)
        let w = mean(workerCounts)
        var run: Double?
        if runMeans.count >= 2 {
            let successive = zip(runMeans, runMeans.dropFirst()).reduce(0) { $0 + ($1.1 - $1.0) * ($1.1 - $1.0) }
            let s3 = successive / Double(2 * (runMeans.count - 1))
            run = max(0, s3 - s2 / w)
        }
        return NoiseLevels(
            parse: s1, worker: max(0, s2 - s1 / n), run: run, runs: runMeans.count, workersPerRun: w,
            parsesPerWorker: n)
    }
}
