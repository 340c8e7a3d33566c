/// What the harness costs every worker beside its job, as the run measured it: one worker with
/// nothing to do (a harness job) at the start of each timed round, from its spawn to the job's first
/// instruction (`startNs`: exec, loading the libraries, the runtime's start, reading and decoding the
/// job) and from the job's last instruction to the parent's `wait` (`endNs`: writing the report,
/// exit, the process's teardown).
///
/// It is in no cell's figures (those are the parses' own, timed inside the worker); it is what a
/// run's wall time spends per worker on top of them.
public struct WorkerHarness: Codable, Sendable, Equatable {
    /// The harness workers measured (one per timed round).
    public var workers: Int
    /// The median of their spawns to their jobs, nanoseconds.
    public var startNs: Int
    /// The median of their jobs to their ends, nanoseconds.
    public var endNs: Int
    /// The median of their spawns to their ends, nanoseconds.
    public var totalNs: Int
    /// The fastest and slowest spawn to end, nanoseconds.
    public var minTotalNs: Int
    public var maxTotalNs: Int

    public init(workers: Int, startNs: Int, endNs: Int, totalNs: Int, minTotalNs: Int, maxTotalNs: Int) {
        self.workers = workers
        self.startNs = startNs
        self.endNs = endNs
        self.totalNs = totalNs
        self.minTotalNs = minTotalNs
        self.maxTotalNs = maxTotalNs
    }

    /// The summary of harness workers' starts and ends (nanoseconds each); `nil` for none.
    public static func of(_ workers: [(startNs: Int, endNs: Int)]) -> WorkerHarness? {
        guard !workers.isEmpty else { return nil }
        func median(_ values: [Int]) -> Int {
            Int(Statistics.percentile(sorted: values.map(Double.init).sorted(), 0.5).rounded())
        }
        let totals = workers.map { $0.startNs + $0.endNs }
        return WorkerHarness(
            workers: workers.count, startNs: median(workers.map(\.startNs)), endNs: median(workers.map(\.endNs)),
            totalNs: median(totals), minTotalNs: totals.min() ?? 0, maxTotalNs: totals.max() ?? 0)
    }

    /// The line a run's report says it in: "Worker harness: 19.2 ms a worker (start 15.1, end 4.1; 10 workers, 18.4–23.0)".
    public var line: String {
        func ms(_ ns: Int) -> String { String(format: "%.1f", Double(ns) / 1e6) }
        return
            "Worker harness: \(ms(totalNs)) ms a worker beside its job (start \(ms(startNs)), end \(ms(endNs)); "
            + "median of \(workers) worker\(workers == 1 ? "" : "s") with nothing to do, "
            + "\(ms(minTotalNs))–\(ms(maxTotalNs)) ms)"
    }
}
