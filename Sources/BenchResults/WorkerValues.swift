#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Values per worker process (a cell's samples of one round come from one worker).
public enum WorkerValues {
    /// Each worker's median of `value` over its clean samples, by round.
    public static func medians(_ samples: [Sample], _ value: (Sample) -> Double?) -> [Int: Double] {
        var byRound: [Int: [Double]] = [:]
        for sample in samples where sample.isClean {
            if let number = value(sample) { byRound[sample.round, default: []].append(number) }
        }
        return byRound.compactMapValues { Statistics($0)?.median }
    }

    /// The log ratios `b ÷ a` of the rounds that both have (worker medians by round), in round order.
    public static func pairedLogRatios(_ a: [Int: Double], _ b: [Int: Double]) -> [Double] {
        a.keys.sorted().compactMap { round in
            guard let x = a[round], let y = b[round], x > 0, y > 0 else { return nil }
            return log(y / x)
        }
    }

    /// The samples of ranked cells (``CellScenario/ranksParsers``) by cell.
    static func parseSamplesByCell(_ samples: [Sample]) -> [CellKey: [Sample]] {
        var byCell: [CellKey: [Sample]] = [:]
        for sample in samples where sample.cell.scenario.ranksParsers {
            byCell[sample.cell, default: []].append(sample)
        }
        return byCell
    }

    /// Each worker's median wall time of a cell, by round.
    static func wallMedians(_ byCell: [CellKey: [Sample]], _ cell: CellKey) -> [Int: Double] {
        medians(byCell[cell] ?? []) { $0.wallNs.map(Double.init) }
    }

    /// One value per worker of a field that every sample of a worker repeats (its peaks).
    static func perWorker(_ samples: [Sample], _ field: KeyPath<Sample, Int?>) -> [Double]? {
        var byRound: [Int: Double] = [:]
        for sample in samples { if let value = sample[keyPath: field] { byRound[sample.round] = Double(value) } }
        return byRound.isEmpty ? nil : Array(byRound.values)
    }

    /// The sample standard deviation of the logarithms of positive values; `nil` for fewer than 2.
    public static func logSpread(_ values: [Double]) -> Double? {
        let logs = values.filter { $0 > 0 }.map { log($0) }
        guard logs.count >= 2 else { return nil }
        let mean = logs.reduce(0, +) / Double(logs.count)
        return (logs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(logs.count - 1)).squareRoot()
    }
}
