import BenchResults
import Foundation
import Testing

/// What reports and the runner know of a scenario comes from its traits, and the concurrent
/// scenario's figures from its cells.
@Suite("Scenario traits and concurrent figures")
struct ScenarioTraitsTests {
    @Test func aCellReadsItsScenariosTraits() {
        #expect(CellScenario.parse.isParseFromMemory && CellScenario(.document).isParseFromMemory)
        #expect(!CellScenario.download.isParseFromMemory && !CellScenario(.concurrent, choice: "2").isParseFromMemory)
        #expect(
            CellScenario(.read, choice: "shared").learnsFromHistory
                && !CellScenario(.store, choice: "x").learnsFromHistory)
        #expect(CellScenario.notTimed.traits == nil && CellScenario(name: "replay-events").table == nil)
        #expect(ScenarioID.allCases.filter(\.traits.inDefaultRun) == [.parse, .download])
        #expect(ScenarioID.parseFromMemory(.document) == .document && ScenarioID.parseFromMemory(.songs) == .parse)
        // Every scenario says what it does (bench run --help lists them).
        #expect(ScenarioID.allCases.allSatisfy { !$0.summary.isEmpty })
    }

    /// A practice's name and choices, the read pairs and the history's cells are the scenarios'
    /// traits: the lists reports used to spell out follow from them, unchanged.
    @Test func practicesPairsAndHistoryCellsComeFromTraits() {
        #expect(
            PracticeFigures.practiceOrder == [.paging, .fields, .compression, .queue, .cancel, .store, .read])
        // Each practice scenario is a practice of its own: reports tell them apart by it.
        #expect(Set(PracticeFigures.practiceOrder).count == PracticeFigures.practiceOrder.count)
        #expect(
            Set(CellScenario.historyNames)
                == Set(["parse", "document"] + ReadPairs.choices.map { "read-\($0)" }))
        #expect(ScenarioID.allCases.filter { !($0.traits.practice?.choicePairs ?? [:]).isEmpty } == [.read])
        let paired = (ScenarioID.read.traits.practice?.choicePairs ?? [:]).flatMap { [$0.key, $0.value] }
        #expect(paired.sorted() == ReadPairs.choices.sorted())
        // A practice cell is described by its scenario; another scenario's cell is no practice.
        #expect(PracticeFigures.describe(scenario: CellScenario(.paged, count: 25))?.choice == "25 per page")
        #expect(PracticeFigures.describe(scenario: CellScenario(.store, choice: "batch-shuffled"))?.order == 3)
        #expect(PracticeFigures.describe(scenario: CellScenario(.read, choice: "faults"))?.practice == .read)
        #expect(PracticeFigures.describe(scenario: CellScenario(.read, choice: "nonsense")) == nil)
        #expect(PracticeFigures.describe(scenario: ConcurrentFigures.cell(threads: 2)) == nil)
        #expect(PracticeFigures.describe(scenario: .parse) == nil)
        // Only the practices have a practice name; every practice's choice reads back from its cell.
        #expect(ScenarioID.allCases.filter { $0.traits.practice != nil }.allSatisfy { $0.traits.table == .practice })
        #expect(CellScenario(.queue, count: 4).count == 4 && CellScenario(.gzip, choice: "on").count == nil)
        #expect(Workload.document.countedNoun == "events" && Workload.songs.inputNoun == "feed")
    }

    static func summary(_ parser: String, threads: Int, batchNs: [Int], error: String? = nil) -> CellSummary {
        let cell = CellKey(
            parser: parser, scenario: ConcurrentFigures.cell(threads: threads), feedPath: "f.xml", feedSHA256: "s",
            feedBytes: 1_000, chunkSize: 16_384)
        let samples = batchNs.enumerated().map { index, ns in
            Sample(
                cell: cell, songs: 3, round: 1, iteration: index + 1, wallNs: ns, cpuNs: ns * threads, firstSongNs: nil,
                peakResidentBytes: nil, error: error, debug: false)
        }
        return CellSummary.summarise(
            cell, samples: samples, peakResidentBytes: nil, baselinePeakBytes: nil, outcome: error)
    }

    /// Parses per second are the threads over the batch's time, and the scaling is over the same
    /// parser's one-thread figure; a failed cell has neither.
    @Test func throughputAndScalingComeFromTheBatchTimes() throws {
        let figures = ConcurrentFigures.of([
            Self.summary("expat", threads: 2, batchNs: [5_000_000, 5_000_000, 5_000_000]),
            Self.summary("libxml2", threads: 1, batchNs: [2_000_000, 2_000_000]),
            Self.summary("expat", threads: 1, batchNs: [4_000_000, 4_000_000, 4_000_000]),
            Self.summary("libxml2", threads: 2, batchNs: [1], error: "worker signal 11"),
        ])
        #expect(figures.map { "\($0.parser)-\($0.threads)" } == ["expat-1", "expat-2", "libxml2-1", "libxml2-2"])
        let expat2 = figures[1]
        #expect(expat2.parsesPerSecond.map { abs($0 - 400) < 1e-6 } == true)
        #expect(expat2.scaling.map { abs($0 - 1.6) < 1e-9 } == true)
        #expect(figures[0].scaling == 1)
        #expect(figures[3].parsesPerSecond == nil && figures[3].scaling == nil && figures[3].failed == 1)
        #expect(ConcurrentFigures.threads(of: .parse) == nil)
        #expect(ConcurrentFigures.threads(of: CellScenario(name: "concurrent-x")) == nil)
        // Throughput in MB/s counts every thread's parse.
        let cell = Self.summary("expat", threads: 2, batchNs: [5_000_000])
        #expect(cell.megabytesPerSecond.map { abs($0 - 0.4) < 1e-9 } == true)
    }
}
