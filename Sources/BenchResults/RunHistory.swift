#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a run's next-run intervals hold: within-run noise only, or the run-to-run noise too.
public struct RunToRunNote: Codable, Sendable, Equatable {
    /// The most earlier runs of the host that a parse cell of this run had in the store.
    public var earlierRuns: Int
    /// Parse cells whose intervals were widened by the run-to-run level.
    public var cellsWidened: Int
    /// Parse cells in the run (those with a next-run interval).
    public var cells: Int
    /// One sentence for every report.
    public var message: String

    /// Whether every parse cell's intervals hold the run-to-run level.
    public var whole: Bool { cells > 0 && cellsWidened == cells }

    /// The note of a run whose intervals were not widened, saying why.
    public static func withinRunOnly(because reason: String, earlierRuns: Int = 0, cells: Int = 0) -> RunToRunNote {
        RunToRunNote(
            earlierRuns: earlierRuns, cellsWidened: 0, cells: cells,
            message: "Next-run intervals cover within-run noise only: \(reason).")
    }
}

/// A run's parse (and `read`) figures against the same figures in the host's earlier runs: the
/// run-to-run level of noise (``RunToRun``) added to every next-run interval — the time, the
/// relative speed (× fastest), the binding tax and a read choice's ratio to its pair — and the noise
/// of each cell split over its levels (``NoiseLevels``).
///
/// A cell's earlier figures are those of the same parser, scenario, document (by digest) and chunk
/// size in the runs given, each computed as the run computes its own: the median of the worker
/// medians, and the Hodges–Lehmann ratio of the rounds' paired worker medians against the same
/// reference. The runs given are the caller's choice (`StatsStoring`'s history of a host:
/// release builds, no instruction counts, no injected slowdown); runs of other code count as well,
/// which widens an interval where the code changed in the history, never narrows it.
public enum RunHistory {
    /// The earlier runs read.
    public static let lastRuns = 30

    /// Widens `result`'s next-run intervals by the run-to-run level learnt from `history` (earlier
    /// runs' samples, any order) and sets each parse cell's noise levels and the run's note.
    ///
    /// - Parameters:
    ///   - history: the samples of the host's earlier runs, with their runs.
    ///   - result: the run just made.
    public static func include(_ history: [StoredSample], in result: inout RunResult) {
        if result.environment.isDebug {
            result.runToRun = .withinRunOnly(because: "a debug build is not compared with the host's release runs")
            return
        }
        guard result.settings.counter == nil else {
            result.runToRun = RunToRunNote(
                earlierRuns: 0, cellsWidened: 0, cells: 0,
                message: "Instruction counts repeat exactly from run to run: no run-to-run level to add.")
            return
        }
        let earlier = runs(history, excluding: result.environment.runID)
        let now = byCell(result.samples)
        var widened = 0
        var cells = 0
        var most = 0
        for index in result.cells.indices where result.cells[index].cell.scenario.learnsFromHistory {
            guard let estimate = result.cells[index].estimate else { continue }
            cells += 1
            let key = Key(result.cells[index].cell)
            let series = earlier.compactMap { figure(key, in: $0) }
            most = max(most, series.count)
            var levelData = earlier.compactMap { logTimes(key, in: $0) }
            if let mine = logTimes(key, in: now) { levelData.append(mine) }
            result.cells[index].noiseLevels = NoiseLevels.decompose(levelData)
            guard let level = RunToRun(series: series + [estimate.value]) else { continue }
            result.cells[index].estimate?.include(level)
            widened += 1
            for field in [\CellSummary.relative, \CellSummary.bindingTax, \CellSummary.pairRatio] {
                guard let ratio = result.cells[index][keyPath: field] else { continue }
                // A parser's ratios are against another parser; a read choice's against another choice.
                var reference = key
                if field == \CellSummary.pairRatio {
                    reference.scenario = ratio.reference
                } else {
                    guard ratio.reference != key.parser else { continue }
                    reference.parser = ratio.reference
                }
                let ratios = earlier.compactMap { run in self.ratio(of: key, to: reference, in: run) }
                if let level = RunToRun(series: ratios + [ratio.ratio]) {
                    result.cells[index][keyPath: field]?.include(level)
                }
            }
        }
        result.runToRun = note(earlierRuns: most, widened: widened, cells: cells)
    }

    /// The run's sentence.
    static func note(earlierRuns: Int, widened: Int, cells: Int) -> RunToRunNote {
        let minimum = RunToRun.minimumEarlierRuns
        let message: String
        if cells == 0 {
            message = "No parse or read cells: no next-run intervals to widen."
        } else if widened == cells {
            message =
                "Next-run intervals hold the run-to-run noise too, learnt from up to \(earlierRuns) earlier run\(earlierRuns == 1 ? "" : "s") of this host in the store."
        } else if widened == 0 {
            return .withinRunOnly(
                because: "the store has \(earlierRuns) earlier run\(earlierRuns == 1 ? "" : "s") of this host with "
                    + "these cells; \(minimum) would add the noise between runs", earlierRuns: earlierRuns, cells: cells
            )
        } else {
            message =
                "Next-run intervals hold the run-to-run noise in \(widened) of \(cells) cells; the others cover within-run "
                + "noise only (fewer than \(minimum) earlier runs of this host with that cell in the store)."
        }
        return RunToRunNote(earlierRuns: earlierRuns, cellsWidened: widened, cells: cells, message: message)
    }

    /// What identifies a cell across runs (its document by digest, not by path).
    struct Key: Hashable {
        var parser: String
        var scenario: String
        var feedSHA256: String
        var chunkSize: Int

        init(_ cell: CellKey) {
            parser = cell.parser
            scenario = cell.scenario.name
            feedSHA256 = cell.feedSHA256
            chunkSize = cell.chunkSize
        }
    }

    /// The earlier runs' parse samples by cell, oldest run first.
    static func runs(_ history: [StoredSample], excluding runID: String) -> [[Key: [Sample]]] {
        var order: [(startedAt: String, runID: String)] = []
        var grouped: [String: [Sample]] = [:]
        for stored in history where stored.runID != runID {
            if grouped[stored.runID] == nil { order.append((stored.runStartedAt, stored.runID)) }
            grouped[stored.runID, default: []].append(stored.sample)
        }
        return order.sorted { ($0.startedAt, $0.runID) < ($1.startedAt, $1.runID) }.map {
            byCell(grouped[$0.runID] ?? [])
        }
    }

    /// A run's parse samples by cell.
    static func byCell(_ samples: [Sample]) -> [Key: [Sample]] {
        var grouped: [Key: [Sample]] = [:]
        for sample in samples where sample.cell.scenario.learnsFromHistory {
            grouped[Key(sample.cell), default: []].append(sample)
        }
        return grouped
    }

    /// A cell's figure in a run: the median of its workers' median wall times.
    static func figure(_ key: Key, in run: [Key: [Sample]]) -> Double? {
        let medians = WorkerValues.medians(run[key] ?? []) { $0.wallNs.map(Double.init) }.values.sorted()
        return medians.isEmpty ? nil : Statistics.percentile(sorted: medians, 0.5)
    }

    /// A cell's clean wall times in a run, as logarithms, by worker.
    static func logTimes(_ key: Key, in run: [Key: [Sample]]) -> [[Double]]? {
        var byRound: [Int: [Double]] = [:]
        for sample in run[key] ?? [] where sample.isClean {
            if let ns = sample.wallNs, ns > 0 { byRound[sample.round, default: []].append(log(Double(ns))) }
        }
        return byRound.isEmpty ? nil : byRound.keys.sorted().compactMap { byRound[$0] }
    }

    /// A cell's ratio to `reference` in a run, as the run computes it (``RelativeSpeed``).
    static func ratio(of key: Key, to reference: Key, in run: [Key: [Sample]]) -> Double? {
        let wall: (Sample) -> Double? = { $0.wallNs.map(Double.init) }
        let logRatios = WorkerValues.pairedLogRatios(
            WorkerValues.medians(run[reference] ?? [], wall), WorkerValues.medians(run[key] ?? [], wall))
        return RankStatistics.pairedShift(logRatios).map { exp($0.estimate) }
    }
}
