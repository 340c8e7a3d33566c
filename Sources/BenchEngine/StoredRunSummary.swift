import BenchResults

extension RunResult {
    /// A run read back from a stats store: its samples, and its summaries as the run recorded
    /// them (`summaries`, the `CellRecord`s' of `StatsStoring.cellRecords(of:)`: the run's own,
    /// every figure, the × fastest ranking, binding tax, read pairs and the not-timed cells with
    /// why); a run the store keeps no summaries of (stored before it kept them, or copied in and not
    /// summarised yet) is summarised from its samples by the function `bench run` used
    /// (``summarising(_:environment:settings:noise:documents:notTimed:)``).
    ///
    /// `bench compare` reads stored runs with it: the summaries say each cell's kind, outcome
    /// and whether it was timed; the samples give each worker's values.
    package static func readBack(
        _ samples: [Sample], summaries: [CellSummary]?, environment: RunEnvironment, settings: RunSettings?,
        noise: NoiseReport?, documents: [DocumentProfile]? = nil, notTimed: [CellSummary] = []
    ) -> RunResult {
        guard let summaries else {
            return summarising(
                samples, environment: environment, settings: settings, noise: noise, documents: documents,
                notTimed: notTimed)
        }
        return RunResult(
            environment: environment, settings: settings ?? emptySettings(samples), cells: summaries,
            samples: samples, noise: noise, documents: documents)
    }

    /// The settings of a run stored without them: empty, but the chunk size of its samples.
    private static func emptySettings(_ samples: [Sample]) -> RunSettings {
        RunSettings(
            iterations: 0, warmup: 0, rounds: 0, chunkSize: samples.first?.cell.chunkSize ?? 0, timeoutSeconds: 0)
    }

    /// A run read back from its samples: its cells summarised again by the function `bench run`
    /// summarised them with (``BenchSession/summarise(_:cells:samples:reference:)``), one worker per
    /// cell and round, in the
    /// order the samples first name them, then the cells that were not timed (`notTimed`: the
    /// summaries the store kept of them, with why), as the run's own file has them.
    ///
    /// A run stored without its settings gets empty ones (but the chunk size of its samples).
    package static func summarising(
        _ samples: [Sample], environment: RunEnvironment, settings: RunSettings?, noise: NoiseReport?,
        documents: [DocumentProfile]? = nil, notTimed: [CellSummary] = []
    ) -> RunResult {
        var order: [CellKey] = []
        struct Worker: Hashable {
            var cell: CellKey
            var round: Int
        }
        var workers: [Worker: CellRun] = [:]
        var keys: [Worker] = []
        for sample in samples {
            if !order.contains(sample.cell) { order.append(sample.cell) }
            let key = Worker(cell: sample.cell, round: sample.round)
            if workers[key] == nil {
                keys.append(key)
                workers[key] = CellRun(
                    cell: sample.cell, round: sample.round, samples: [], peakResidentBytes: nil, outcome: nil)
            }
            workers[key]?.samples.append(sample)
            if let peak = sample.peakResidentBytes {
                let before = workers[key]?.peakResidentBytes ?? 0
                workers[key]?.peakResidentBytes = max(before, peak)
            }
        }
        var cells = BenchSession.summarise(
            keys.compactMap { workers[$0] }, cells: order, samples: samples, reference: settings?.reference)
        var notTimed = notTimed.filter { $0.cell.scenario == CellKey.notTimedScenario }
        BenchSession.describeParsers(&notTimed, samples: [])
        cells += notTimed
        return RunResult(
            environment: environment, settings: settings ?? emptySettings(samples), cells: cells, samples: samples,
            noise: noise, documents: documents)
    }
}
