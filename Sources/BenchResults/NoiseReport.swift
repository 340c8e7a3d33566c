#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the harness noticed about the noise of a run, and whether its figures are reliable.
///
/// Four signs, each with a limit: parses that lost the CPU to other work (``preemptedLimit`` of
/// the timed parses), other tasks waiting for a CPU (``pressureLimit`` of the time), workers of
/// one parser that disagree (``spreadLimit``, the standard deviation of the logarithms of their
/// medians), and a machine that ran at two speeds (whole rounds where every parser was
/// ``twoSpeedsRatio`` or more faster: the host's state, which moves absolute times between runs). Past any limit the run is ``noisy``: every report shows its ``warnings``, each naming
/// the cause and what to do, and the flag is stored with the run. Apart from that, ``unranked``
/// lists the parsers of a table whose order this run cannot tell (their interval includes 1).
public struct NoiseReport: Codable, Sendable, Equatable {
    /// Whether some sign is past its limit: the figures may not hold on the next run.
    public var noisy: Bool
    /// One sentence a sign past its limit: the cause, the figures, what to do.
    public var warnings: [String]
    /// Pairs of parsers whose order this run cannot tell, with their ratio and interval.
    public var unranked: [String]
    /// The share of the timed parses (parse scenario) that lost the CPU.
    public var preemptedShare: Double?
    /// The largest spread of one parser's workers (see ``CellSummary/workerSpread``).
    public var largestSpread: Double?
    public var load: MachineLoad?

    /// More than this share of the timed parses lost the CPU.
    public static let preemptedLimit = 0.20
    /// Other tasks waited for a CPU more than this share of the measuring time.
    public static let pressureLimit = 0.20
    /// One parser's workers disagree by more than this (sd of the logarithms of their medians).
    public static let spreadLimit = 0.30

    public init(
        noisy: Bool, warnings: [String], unranked: [String], preemptedShare: Double?, largestSpread: Double?,
        load: MachineLoad?
    ) {
        self.noisy = noisy
        self.warnings = warnings
        self.unranked = unranked
        self.preemptedShare = preemptedShare
        self.largestSpread = largestSpread
        self.load = load
    }

    /// Assesses a run's figures (``RelativeSpeed/rank(_:samples:reference:baseline:unranked:)`` done).
    public static func assess(
        cells: [CellSummary], samples: [Sample], settings: RunSettings, load: MachineLoad?, baseline: String
    ) -> NoiseReport {
        var warnings: [String] = []
        let timed = samples.filter { $0.cell.scenario.isParseFromMemory && $0.error == nil && $0.wallNs != nil }
        let lost = timed.filter { $0.preempted == true }.count
        let share = timed.isEmpty ? nil : Double(lost) / Double(timed.count)
        if let share, share > preemptedLimit {
            var text =
                "\(lost) of \(timed.count) timed parses (\(percent(share))) lost the CPU to other work (wall time more than 3% above the process's CPU time)"
            let short = shortWorkers(timed, wanted: settings.iterations)
            text +=
                settings.retryPreempted == true
                ? "; they were measured again and are left out of the figures"
                    + (short > 0
                        ? ", but \(short) worker\(short == 1 ? "" : "s") could not get \(settings.iterations) parses that kept the CPU"
                        : "")
                : "; they are left out of the figures"
            warnings.append(text + ". The machine is busy: close other programs, or wait, and run again.")
        }
        if let pressure = load?.cpuPressure, pressure > pressureLimit {
            var text = "Other tasks were waiting for a CPU \(percent(pressure)) of the time"
            if let average = load?.loadAverage, let cores = load?.cores {
                text += " (load average \(fixed(average, 2)) on \(cores) core\(cores == 1 ? "" : "s"))"
            }
            warnings.append(
                text + ": figures taken now can move by tens of percent. Close other programs, or wait, and run again.")
        }
        let timedCells = cells.filter { $0.cell.scenario.isParseFromMemory && $0.cell.parser != baseline }
        // A run over several feeds or documents names the one whose cell it is: a parser has a cell on each.
        let severalFeeds = Set(timedCells.map(\.cell.feedPath)).count > 1
        let spreads = timedCells.compactMap { cell in
            let feed = severalFeeds ? " on \(ComparisonKey.feedName(cell.cell.feedPath))" : ""
            return cell.workerSpread.map { ("\(cell.cell.parser) workers" + feed, $0) }
        }
        let largest = spreads.map(\.1).max()
        for (workers, spread) in spreads where spread > spreadLimit {
            warnings.append(
                "The \(workers) disagree by \(percent(spread)) (standard deviation of their medians; a quiet machine shows under \(percent(spreadLimit))): "
                    + "the machine's speed changed during the run. Run again when it is quieter, or with more workers (--rounds)."
            )
        }
        if let speeds = twoSpeeds(timedCells, samples: samples) {
            warnings.append(
                "The machine ran at two speeds: in \(speeds.fastRounds) of \(speeds.rounds) rounds every parser was "
                    + "\(fixed(speeds.ratio, 2))× faster than in the others (the host's state, not the parsers). Absolute times "
                    + "depend on which speed a run catches and can move by that much from run to run; the relative speeds "
                    + "(× fastest) hold. Compare relative speeds, or run again when the machine is steadier.")
        }
        let noisy = !warnings.isEmpty
        let unranked = unrankedPairs(cells, samples: samples, baseline: baseline)
        if noisy && !unranked.isEmpty {
            warnings.append("Too noisy to rank " + unranked.joined(separator: "; ") + ".")
        }
        return NoiseReport(
            noisy: noisy, warnings: warnings, unranked: unranked, preemptedShare: share, largestSpread: largest,
            load: load)
    }

    /// Rounds whose machine speed differs from the others' by at least this factor mean two speeds.
    public static let twoSpeedsRatio = 1.2
    /// …when the smaller group holds at least this share of the rounds.
    public static let twoSpeedsShare = 0.15

    /// Whether the machine ran at two speeds: each round's speed index is the median over the
    /// parsers of (the round's worker median ÷ the parser's figure), so a round where the whole
    /// machine was slow stands out whatever the parser; the indices split into two groups when the
    /// largest gap between sorted indices exceeds ``twoSpeedsRatio`` with ``twoSpeedsShare`` of the
    /// rounds on each side.
    static func twoSpeeds(_ cells: [CellSummary], samples: [Sample]) -> (rounds: Int, fastRounds: Int, ratio: Double)? {
        let byCell = WorkerValues.parseSamplesByCell(samples)
        var relative: [Int: [Double]] = [:]
        for cell in cells {
            guard let figure = cell.estimate?.value, figure > 0 else { continue }
            for (round, median) in WorkerValues.wallMedians(byCell, cell.cell) where median > 0 {
                relative[round, default: []].append(log(median / figure))
            }
        }
        let indices = relative.values.compactMap { values -> Double? in
            values.isEmpty ? nil : Statistics.percentile(sorted: values.sorted(), 0.5)
        }.sorted()
        let minimum = max(2, Int((Double(indices.count) * twoSpeedsShare).rounded(.up)))
        guard indices.count >= 2 * minimum else { return nil }
        var best: (gap: Double, split: Int) = (0, 0)
        for split in minimum...(indices.count - minimum) {
            let gap = indices[split] - indices[split - 1]
            if gap > best.gap { best = (gap, split) }
        }
        guard best.gap > log(twoSpeedsRatio) else { return nil }
        let fast = indices[..<best.split]
        let slow = indices[best.split...]
        let slowMean: Double = slow.reduce(0, +) / Double(slow.count)
        let fastMean: Double = fast.reduce(0, +) / Double(fast.count)
        let ratio = exp(slowMean - fastMean)
        return (indices.count, fast.count, ratio)
    }

    /// Workers that measured fewer than `wanted` parses that kept the CPU.
    static func shortWorkers(_ timed: [Sample], wanted: Int) -> Int {
        var clean: [String: Int] = [:]
        for sample in timed {
            let key = "\(sample.cell.parser)|\(sample.cell.feedSHA256)|\(sample.cell.chunkSize)|\(sample.round)"
            clean[key, default: 0] += sample.preempted == true ? 0 : 1
        }
        return clean.values.filter { $0 < wanted }.count
    }

    /// Neighbours in each parse table's order (by time) whose own paired ratio's interval includes 1.
    ///
    /// Only ranked parsers count (not the floor, which has no ``CellSummary/relative``).
    static func unrankedPairs(_ cells: [CellSummary], samples: [Sample], baseline: String) -> [String] {
        let byCell = WorkerValues.parseSamplesByCell(samples)
        var tables: [CellKey.Table: [CellSummary]] = [:]
        var order: [CellKey.Table] = []
        for cell in cells
        where cell.cell.scenario.ranksParsers && cell.cell.parser != baseline && cell.time != nil
            && cell.relative != nil
        {
            let key = cell.cell.table
            if tables[key] == nil { order.append(key) }
            tables[key, default: []].append(cell)
        }
        var pairs: [String] = []
        for key in order {
            let ranked = (tables[key] ?? []).sorted {
                ($0.relative?.ratio ?? $0.time ?? 0) < ($1.relative?.ratio ?? $1.time ?? 0)
            }
            for (faster, slower) in zip(ranked, ranked.dropFirst()) {
                let logRatios = WorkerValues.pairedLogRatios(
                    WorkerValues.wallMedians(byCell, faster.cell), WorkerValues.wallMedians(byCell, slower.cell))
                guard let shift = RankStatistics.pairedShift(logRatios) else { continue }
                let level = 0.95
                let tooFew = shift.coverage < level - 1e-9
                if shift.low <= 0 || tooFew {
                    var text = "\(slower.cell.parser) and \(faster.cell.parser)"
                    if order.count > 1 {
                        text += " on \(ComparisonKey.feedName(faster.cell.feedPath))"
                    }
                    if Set(order.map(\.scenario)).count > 1 { text += " (\(key.scenario))" }
                    let interval = "\(fixed(exp(shift.low), 2))–\(fixed(exp(shift.high), 2))"
                    if tooFew {
                        // Pairs are the rounds where both workers kept a figure: fewer than the
                        // rounds asked for when parses lost the CPU.
                        text +=
                            ": ratio \(fixed(exp(shift.estimate), 2)), interval \(interval) from \(logRatios.count) "
                            + "pair\(logRatios.count == 1 ? "" : "s") of workers, a \(Int((shift.coverage * 100).rounded(.down)))% "
                            + "interval, not 95% (6 pairs or more give 95%: more --rounds, or a quieter machine)"
                    } else {
                        text += ": ratio \(fixed(exp(shift.estimate), 2)), 95% interval \(interval)"
                    }
                    pairs.append(text)
                }
            }
        }
        return pairs
    }

    /// A share in percent, one decimal under 10% ("2.0%", "26%"), as every report writes it.
    public static func percent(_ share: Double) -> String {
        fixed(share * 100, share < 0.1 ? 1 : 0) + "%"
    }

    /// `value` with `decimals` decimals ("1.50"), without Foundation.
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<max(0, decimals) { scale *= 10 }
        let scaled = Int((abs(value) * scale).rounded())
        let whole = scaled / Int(scale)
        var text = (value < 0 && scaled != 0 ? "-" : "") + String(whole)
        if decimals > 0 {
            let fraction = String(scaled % Int(scale))
            text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
        }
        return text
    }
}
