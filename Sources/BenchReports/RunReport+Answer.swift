import BenchResults

extension RunReport {
    /// The run's answer in words, one sentence per parse table: which of the Swift choices was
    /// fastest, how far ahead of the others, and what each parse kept in memory.
    ///
    /// Computed from the table's own figures: the ratios are each parser's × fastest over the
    /// winner's, and an order is claimed only where the intervals the table shows (the × fastest
    /// 95% CI column: widened by the noise between runs when the store had the host's earlier
    /// runs) do not overlap and are 95% ones (6 pairs of workers or more); a parser whose interval overlaps the winner's is "not told apart",
    /// never "behind", and the sentence says which intervals it rests on.
    /// The C references, the floor and the baselines are not Swift choices and are left out.
    public static func answer(_ result: RunResult) -> [String] {
        let tables = groups(result.cells.filter { $0.cell.scenario.isParseFromMemory })
        return tables.compactMap { answer($0, reference: result.settings.reference) }
    }

    /// The sentence of one table, whose ratios are against `reference` when the run has one (the
    /// fastest's otherwise), as its column says.
    static func answer(_ table: [CellSummary], reference: String? = nil) -> String? {
        let notChoices: Set<String> = ["reference", "floor", "baseline"]
        let choices = table.filter { cell in
            cell.relative != nil && cell.time != nil && !notChoices.contains(cell.kind ?? "baseline")
        }.sorted { ($0.relative?.ratio ?? .infinity) < ($1.relative?.ratio ?? .infinity) }
        guard let winner = choices.first, let best = winner.relative else { return nil }
        let document = Format.feedName(winner.cell.feedPath)
        let place = "On this machine, for \(document)"
        let name = "\(winner.cell.parser) (\(winner.kind ?? "?"))"
        guard choices.count > 1 else { return "\(place): \(name) was the only Swift choice measured." }
        // The intervals the table shows (the reference's own ratio is exact: 1). One from too few
        // pairs of workers (a busy machine's lost parses) is no 95% interval and settles no order,
        // as the noise lines say ("Too noisy to rank").
        func hasLevel(_ speed: RelativeSpeed) -> Bool { speed.isAt95 }
        let winnerHigh = best.high ?? best.ratio
        var ahead: [String] = []
        var tied: [String] = []
        for other in choices.dropFirst() {
            guard let theirs = other.relative else { continue }
            let factor = theirs.ratio / best.ratio
            if hasLevel(best) && hasLevel(theirs) && (theirs.low ?? theirs.ratio) > winnerHigh {
                ahead.append("\(ratio(factor))× ahead of \(other.cell.parser)")
            } else {
                tied.append("\(other.cell.parser) (\(ratio(factor))×)")
            }
        }
        // Which intervals the claim rests on: those the table shows, 95% ones or not (a run of
        // a few rounds shows 50% ones, which settle no order).
        let level =
            choices.allSatisfy { $0.relative?.isAt95 ?? true }
            ? "95% intervals shown" : "intervals shown (too few pairs of workers for 95% ones: more --rounds)"
        let basis =
            "by the \(ParseColumn.fastest.header(reference: reference)) \(level), "
            + (choices.contains { $0.relative?.runToRun != nil }
                ? "widened by the noise between the host's runs" : "from this run's rounds")
        var sentence: String
        if tied.isEmpty {
            sentence = "\(place): \(name) is the fastest of the Swift choices, " + list(ahead) + " (\(basis))"
        } else {
            sentence =
                "\(place): \(name) has the lowest time of the Swift choices, but \(basis), it is not told apart from "
                + list(tied)
            if !ahead.isEmpty { sentence += "; it is " + list(ahead) }
        }
        let memory = choices.compactMap { cell in cell.parsePeakBytes.map { (cell.cell.parser, Double($0)) } }
        if let own = memory.first(where: { $0.0 == winner.cell.parser }), memory.count > 1 {
            let others = memory.filter { $0.0 != winner.cell.parser }
                .map { "\(Format.mib($0.1)) (\($0.0))" }
            sentence += "; its parse used \(Format.mib(own.1)) MiB against " + list(others)
        }
        return sentence + "."
    }

    /// "a", "a and b", "a, b and c", and at most four items then "and N more".
    static func list(_ items: [String]) -> String {
        let shown = items.count > 4 ? Array(items.prefix(3)) + ["\(items.count - 3) more"] : items
        guard shown.count > 1, let last = shown.last else { return shown.first ?? "" }
        return shown.dropLast().joined(separator: ", ") + " and " + last
    }
}
