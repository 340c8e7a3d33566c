extension RunComparison {
    /// One side's values per cell.
    struct Side {
        /// A worker: which run of the side (in time order) and which round of it.
        struct Turn: Hashable, Comparable {
            var run: Int
            var round: Int

            static func < (a: Turn, b: Turn) -> Bool { (a.run, a.round) < (b.run, b.round) }
        }

        struct Cell {
            var summary: ComparisonSide
            /// Each worker's median, by turn.
            var workers: [Turn: Double]
            /// Every successful iteration's value (for peak memory: every worker's).
            var iterationValues: [Double]
            var shas: Set<String>
            /// "baseline" or "current" when a run with this cell was flagged noisy.
            var noisy: String? = nil
            /// The median of the calibration workload timed before each of the cell's parses, ns (the
            /// machine's speed when it ran); `nil` when the samples have none (counted runs, old runs).
            var calibration: Double? = nil
        }

        var cells: [ComparisonKey: Cell] = [:]
        /// What went wrong with a parser on a feed ("parser|feed name"), from the runs' summaries.
        var problems: [String: String] = [:]
        /// Cells of parsers that were not timed on a feed (they disagreed or failed), by parser and feed.
        var notTimed: Set<String> = []
        /// Failed iterations and iterations in all, per cell.
        var failedIterations: [ComparisonKey: (failed: Int, all: Int)] = [:]

        init(_ runs: [RunResult], metric: ComparisonMetric, name: String) {
            var kinds: [ComparisonKey: String] = [:]
            for run in runs {
                for summary in run.cells { if let kind = summary.kind { kinds[ComparisonKey(summary.cell)] = kind } }
            }
            var noisyCells: Set<ComparisonKey> = []
            var calibrations: [ComparisonKey: [Double]] = [:]
            var values: [ComparisonKey: [Turn: [Double]]] = [:]
            var shas: [ComparisonKey: Set<String>] = [:]
            let ordered = runs.enumerated().sorted {
                ($0.element.environment.startedAt, $0.offset) < ($1.element.environment.startedAt, $1.offset)
            }
            for (index, (_, run)) in ordered.enumerated() {
                for summary in run.cells {
                    if let outcome = summary.outcome {
                        problems["\(summary.cell.parser)|\(ComparisonKey(summary.cell).feed)"] = outcome
                    }
                    if summary.cell.scenario == CellKey.notTimedScenario {
                        notTimed.insert("\(summary.cell.parser)|\(ComparisonKey(summary.cell).feed)")
                    }
                }
                for sample in run.samples where sample.cell.scenario != CellKey.notTimedScenario {
                    let key = ComparisonKey(sample.cell)
                    if run.noise?.noisy == true { noisyCells.insert(key) }
                    if let ns = sample.calibrationNs, ns > 0 { calibrations[key, default: []].append(Double(ns)) }
                    var count = failedIterations[key] ?? (0, 0)
                    count.all += 1
                    if sample.error != nil { count.failed += 1 }
                    failedIterations[key] = count
                    // Times of a parse that lost the CPU count the other work: left out, as in every figure.
                    guard sample.error == nil, !metric.isTime || sample.preempted != true,
                        let value = metric.value(sample)
                    else { continue }
                    values[key, default: [:]][Turn(run: index, round: sample.round), default: []].append(value)
                    shas[key, default: []].insert(sample.cell.feedSHA256)
                }
            }
            for (key, byTurn) in values {
                // Peak memory is one value per worker, repeated on its samples.
                let workers = byTurn.compactMapValues { Statistics($0)?.median }
                let all =
                    metric.isPerWorker
                    ? workers.keys.sorted().compactMap { workers[$0] }
                    : byTurn.keys.sorted().flatMap { byTurn[$0] ?? [] }
                guard let median = Statistics(Array(workers.values))?.median else { continue }
                let keyShas = shas[key] ?? []
                cells[key] = Cell(
                    summary: ComparisonSide(
                        median: median, iterations: byTurn.values.reduce(0) { $0 + $1.count }, workers: workers.count,
                        feedSHA256: keyShas.sorted().joined(separator: ","), failed: failedIterations[key]?.failed ?? 0,
                        kind: kinds[key]),
                    workers: workers, iterationValues: all, shas: keyShas, noisy: noisyCells.contains(key) ? name : nil,
                    calibration: calibrations[key].flatMap { Statistics($0)?.median })
            }
            for (key, count) in failedIterations where cells[key] == nil && count.failed > 0 {
                // Every iteration failed: the cell exists, with no values.
                cells[key] = Cell(
                    summary: ComparisonSide(
                        median: nil, iterations: 0, workers: 0, feedSHA256: "", failed: count.failed),
                    workers: [:], iterationValues: [], shas: [])
            }
        }

        /// Why `key` counts as failed on this side, the current one, given the baseline's failed
        /// iterations; `nil` when it did not fail.
        func failure(_ key: ComparisonKey, baselineFailed: Int) -> String? {
            let where_ = "\(key.parser) on \(key.feed)"
            if notTimed.contains("\(key.parser)|\(key.feed)") {
                return
                    "FAILED in the current runs: \(where_) was not timed (\(problems["\(key.parser)|\(key.feed)"] ?? "it disagreed or failed"))"
            }
            guard let count = failedIterations[key], count.failed > 0, baselineFailed == 0 else { return nil }
            let why = problems["\(key.parser)|\(key.feed)"].map { ": \($0)" } ?? ""
            return count.failed == count.all
                ? "FAILED in the current runs: every iteration (\(count.all)) failed\(why)"
                : "FAILED in the current runs: \(count.failed) of \(count.all) iterations failed\(why)"
        }

        /// Whether the two sides ran turn about: as many runs a side (2 or more), the *k*-th of each
        /// next to each other in time (neither side's *k*+1-th run started before both *k*-th ones).
        static func ranTurnAbout(_ a: [RunResult], _ b: [RunResult]) -> Bool {
            guard a.count == b.count, a.count >= 2 else { return false }
            let x = a.map(\.environment.startedAt).sorted()
            let y = b.map(\.environment.startedAt).sorted()
            for k in 0..<(x.count - 1) where max(x[k], y[k]) > min(x[k + 1], y[k + 1]) { return false }
            return true
        }
    }
}
