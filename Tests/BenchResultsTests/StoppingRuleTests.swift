import BenchResults
import Testing

/// `--precision` and `--max-time`: when the rule stops, which intervals it watches, and what it says.
@Suite("Stopping rule")
struct StoppingRuleTests {
    /// A parse cell of `parser` with a × fastest interval and, optionally, a vs C one.
    static func cell(
        _ parser: String, ratio: Double = 1.5, low: Double?, high: Double?, tax: (Double, Double)? = nil,
        scenario: String = "parse"
    ) -> CellSummary {
        var summary = CellSummary(
            cell: CellKey(
                parser: parser, scenario: CellScenario(name: scenario), feedPath: "Data/top300.rss.xml",
                feedSHA256: "feed",
                feedBytes: 901_440, chunkSize: 16_384),
            songs: 300, wall: nil, cpuMedianNs: nil, firstSongMedianNs: nil, peakResidentBytes: nil,
            peakOverBaselineBytes: nil, failed: 0, outcome: nil)
        summary.relative = RelativeSpeed(
            reference: "c-libxml2", ratio: ratio, low: low, high: high, coverage: 0.95, rounds: 6)
        if let tax {
            summary.bindingTax = RelativeSpeed(
                reference: "c-libxml2", ratio: 1, low: tax.0, high: tax.1, coverage: 0.95, rounds: 6)
        }
        return summary
    }

    static let narrow = [
        cell("c-libxml2", ratio: 1, low: nil, high: nil),
        cell("libxml2", ratio: 1.1, low: 1.089, high: 1.12, tax: (0.99, 1.015)),
    ]

    @Test func precisionIsLookedAtFromTheSixthRoundOn() {
        let rule = StoppingRule(precision: 0.02, maxSeconds: nil, maxRounds: 100)
        for round in 1..<StoppingRule.minimumRounds {
            #expect(rule.decide(afterRound: round, elapsedSeconds: 1, cells: Self.narrow) == nil, "round \(round)")
        }
        let stopped = rule.decide(afterRound: 6, elapsedSeconds: 1.5, cells: Self.narrow)
        #expect(stopped?.reason == .precise)
        #expect(stopped?.rounds == 6)
        #expect(stopped?.wider == [])
        #expect(stopped?.message.hasPrefix("Stopped after 6 rounds (1.5 s of measuring): every × fastest") == true)
        // Half-widths are measured on each side: 1.12 / 1.1 is +1.8%, 1.089 / 1.1 is −1%.
        #expect(abs((Self.narrow[1].relative?.withinRunHalfWidth ?? 0) - 0.02 / 1.1) < 1e-12)
    }

    /// One parser alone has no ratio: the rounds end at their most, and the run says why, not that
    /// every interval was within the precision.
    @Test func aRunWithNoRatioToWatchSaysSo() {
        let rule = StoppingRule(precision: 0.5, maxSeconds: nil, maxRounds: 12)
        let alone = [Self.cell("c-libxml2", ratio: 1, low: nil, high: nil)]
        #expect(rule.decide(afterRound: 11, elapsedSeconds: 1, cells: alone) == nil)
        let stopped = rule.decide(afterRound: 12, elapsedSeconds: 1, cells: alone)
        #expect(stopped?.reason == .roundsDone)
        #expect(stopped?.nothingWatched == true)
        #expect(stopped?.message.contains("no × fastest or vs C interval to watch") == true)
        #expect(stopped?.message.contains("every interval within") == false)
        // With an interval to watch, nothing of the kind is said.
        let watched = rule.decide(afterRound: 12, elapsedSeconds: 1, cells: Self.narrow)
        #expect(watched?.nothingWatched == nil)
    }

    /// The document workload's default floor: precision is looked at from the tenth round on.
    @Test func aFloorOfRoundsHoldsPrecisionBack() {
        var rule = StoppingRule(precision: 0.02, maxSeconds: nil, maxRounds: 40)
        rule.floorRounds = 10
        for round in 1..<10 {
            #expect(rule.decide(afterRound: round, elapsedSeconds: 1, cells: Self.narrow) == nil, "round \(round)")
        }
        #expect(rule.decide(afterRound: 10, elapsedSeconds: 2, cells: Self.narrow)?.reason == .precise)
        // A floor under the rule's own minimum changes nothing.
        rule.floorRounds = 2
        #expect(rule.decide(afterRound: 5, elapsedSeconds: 1, cells: Self.narrow) == nil)
        #expect(rule.decide(afterRound: 6, elapsedSeconds: 1, cells: Self.narrow)?.reason == .precise)
    }

    /// A busy machine's lost parses can leave a parser fewer pairs of workers than the rounds: one
    /// pair gives a 0% interval, narrow but no 95% one, which must not stop the run as precise.
    @Test func anIntervalFromTooFewPairsIsNeverPrecise() {
        var few = Self.cell("expat", ratio: 1.53, low: 1.53, high: 1.53)
        few.relative?.rounds = 1
        few.relative?.coverage = 0.5
        let cells = [Self.cell("libxml2", ratio: 1, low: nil, high: nil), few]
        var rule = StoppingRule(precision: 0.02, maxSeconds: nil, maxRounds: 40)
        rule.floorRounds = 10
        #expect(rule.decide(afterRound: 10, elapsedSeconds: 40, cells: cells) == nil)
        let wide = StoppingRule.wider(than: 0.02, cells)
        #expect(wide.map(\.parser) == ["expat"] && wide.first?.pairs == 1 && wide.first?.hasLevel == false)
        let last = rule.decide(afterRound: 40, elapsedSeconds: 160, cells: cells)
        #expect(last?.reason == .roundsDone)
        #expect(last?.message.contains("Still wider: expat × fastest from 1 pair (not 95%).") == true)
        // With the pairs a 95% interval needs, the same narrow interval stops the run.
        few.relative?.rounds = StoppingRule.minimumRounds
        #expect(rule.decide(afterRound: 10, elapsedSeconds: 40, cells: [cells[0], few])?.reason == .precise)
    }

    @Test func theWidestSideOfEveryWatchedIntervalCounts() {
        // × fastest is narrow; vs C is +3% on its upper side only.
        let cells = [Self.cell("libxml2", ratio: 1.1, low: 1.09, high: 1.11, tax: (0.995, 1.03))]
        let rule = StoppingRule(precision: 0.02, maxSeconds: nil, maxRounds: 10)
        #expect(rule.decide(afterRound: 6, elapsedSeconds: 1, cells: cells) == nil)
        let wide = StoppingRule.wider(than: 0.02, cells)
        #expect(wide.map(\.figure) == [.versusC])
        #expect(abs((wide.first?.halfWidth ?? 0) - 0.03) < 1e-12)
        // Download cells have no relative figure watched; a table with no interval at all never
        // counts as precise.
        let download = [Self.cell("libxml2", low: 1, high: 3, scenario: "download")]
        #expect(StoppingRule.wider(than: 0.02, download).isEmpty)
        #expect(rule.decide(afterRound: 6, elapsedSeconds: 1, cells: download) == nil)
        // The most rounds end it, saying what stayed wide.
        let last = rule.decide(afterRound: 10, elapsedSeconds: 2, cells: cells)
        #expect(last?.reason == .roundsDone)
        #expect(last?.wider.count == 1)
        #expect(last?.message.contains("the most rounds (10)") == true)
        #expect(last?.message.contains("Still wider: libxml2 vs C ±3.0%.") == true)
    }

    /// A run of several documents against a reference (the document workload's): the stop line
    /// names the document of each interval still wide, and the ratio as the tables head it.
    @Test func aRunOfSeveralDocumentsNamesTheDocumentAndTheReference() {
        func on(_ document: String, _ summary: CellSummary) -> CellSummary {
            var summary = summary
            summary.cell.feedPath = "../shared/data/documents/" + document
            return summary
        }
        let cells = [
            on("hamlet.xml", Self.cell("c-libxml2", ratio: 1, low: nil, high: nil)),
            on("hamlet.xml", Self.cell("expat", ratio: 1.5, low: 1.4, high: 1.6)),
            on("mondial.xml", Self.cell("c-libxml2", ratio: 1, low: nil, high: nil)),
            on("mondial.xml", Self.cell("expat", ratio: 1.5, low: 1.49, high: 1.51)),
        ]
        let rule = StoppingRule(precision: 0.02, maxSeconds: nil, maxRounds: 10)
        let last = rule.decide(afterRound: 10, elapsedSeconds: 2, cells: cells, reference: "c-libxml2")
        #expect(
            last?.message.contains("Still wider: expat × c-libxml2 on hamlet.xml ±6.7%.") == true,
            "\(last?.message ?? "")")
        // One document at two chunk sizes: the chunk size is named, not the document.
        var small = cells[1]
        small.cell.chunkSize = 1_024
        let chunked = rule.decide(afterRound: 10, elapsedSeconds: 2, cells: [cells[0], small, cells[1]])
        let message = chunked?.message ?? ""
        #expect(message.contains("expat × fastest in chunks of 1024 ±6.7%"), "\(message)")
        #expect(message.contains("expat × fastest in chunks of 16384 ±6.7%") && !message.contains(" on "), "\(message)")
        // One table: no document named; no reference: × fastest.
        let one = rule.decide(afterRound: 10, elapsedSeconds: 2, cells: Array(cells.prefix(2)))
        #expect(one?.message.contains("Still wider: expat × fastest ±6.7%.") == true, "\(one?.message ?? "")")
        let precise = rule.decide(
            afterRound: 10, elapsedSeconds: 2, cells: Array(cells.suffix(2)), reference: "c-libxml2")
        #expect(precise?.message.contains("every × c-libxml2 and vs C interval") == true, "\(precise?.message ?? "")")
    }

    @Test func aRoundStartsOnlyWhenItEndsInTime() {
        let wide = [Self.cell("expat", ratio: 1.7, low: 1.5, high: 1.9)]
        let rule = StoppingRule(precision: 0.02, maxSeconds: 10, maxRounds: 100)
        // 4 rounds in 7 s: the fifth would end near 8.75 s, inside; after 5 in 8.5 s the sixth would
        // end near 10.2 s, outside.
        #expect(rule.decide(afterRound: 4, elapsedSeconds: 7, cells: wide) == nil)
        let stopped = rule.decide(afterRound: 5, elapsedSeconds: 8.5, cells: wide)
        #expect(stopped?.reason == .timeSpent)
        #expect(stopped?.wider.map(\.parser) == ["expat"])
        #expect(stopped?.message.contains("another round would pass --max-time 10.0 s") == true)
        #expect(stopped?.message.contains("expat × fastest ±12%") == true)
        // A round that ran longer than the ones before it foretold: the run says the time was spent.
        let over = rule.decide(afterRound: 5, elapsedSeconds: 10.4, cells: wide)
        #expect(
            over?.message.hasPrefix("Stopped after 5 rounds (10.4 s of measuring): --max-time 10.0 s was spent,")
                == true)
        // With a time limit and no precision the rounds go on until the time is spent.
        let timed = StoppingRule(precision: nil, maxSeconds: 10, maxRounds: 100)
        #expect(timed.decide(afterRound: 30, elapsedSeconds: 8, cells: Self.narrow) == nil)
        let spent = timed.decide(afterRound: 31, elapsedSeconds: 9.8, cells: Self.narrow)
        #expect(spent?.reason == .timeSpent)
        #expect(
            spent?.message
                == "Stopped after 31 rounds (9.8 s of measuring): another round would pass --max-time 10.0 s.")
    }

    @Test func downloadWorkersAreSpreadOverTheRoundsEveryStoppingRunReaches() {
        var settings = RunSettings(
            iterations: 5, warmup: 1, rounds: 100, chunkSize: 16_384, timeoutSeconds: 30, downloadRounds: 3)
        #expect((1...100).filter(settings.runsDownloads(inRound:)).count == 3)
        #expect((1...100).filter(settings.runsDownloads(inRound:)) == [1, 34, 67])
        settings.stopping = StoppingRule(precision: 0.02, maxSeconds: nil, maxRounds: 100)
        #expect((1...100).filter(settings.runsDownloads(inRound:)) == [1, 3, 5])
        #expect(settings.downloadWorkers == 3)
        settings.downloadRounds = 10
        #expect((1...100).filter(settings.runsDownloads(inRound:)) == Array(1...6))
        #expect(settings.downloadWorkers == 6)
        // The default run's rule may stop from round 10 on: its 5 download workers are spread over
        // those 10 rounds, not bunched into the first 6.
        settings.stopping?.floorRounds = 10
        settings.downloadRounds = 5
        #expect((1...100).filter(settings.runsDownloads(inRound:)) == [1, 3, 5, 7, 9])
        #expect(settings.downloadWorkers == 5)
    }
}
