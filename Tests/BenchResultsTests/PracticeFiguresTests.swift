import BenchResults
import Foundation
import Testing

/// The practices of the store's page, from the runs' stored figures (`PracticeFigures.of(runs:)`).
@Suite struct PracticeFiguresTests {
    static func cell(_ scenario: CellScenario, parser: String = "expat") -> CellKey {
        CellKey(
            parser: parser, scenario: scenario, feedPath: "Data/top300.rss.xml", feedSHA256: "feedsha",
            feedBytes: 901_440, chunkSize: 16_384, network: "3g")
    }

    /// A figure of `metric`: `median` of `count` values, largest `maximum`, the workers' medians `workers`.
    static func figure(
        _ metric: Metric, _ median: Double, maximum: Double? = nil, workers: [Double] = [], count: Int = 8
    ) -> RunFigures.Figure {
        RunFigures.Figure(metric: metric, count: count, median: median, maximum: maximum, workerMedians: workers)
    }

    static func run(_ number: Int, cells: [RunFigures.Cell]) -> RunFigures {
        RunFigures(runID: "run-\(number)", startedAt: "2026-11-2\(number)T10:00:00Z", cells: cells)
    }

    /// Each figure is over the runs, one value a run (a total: the median of the run's workers'
    /// medians; a largest value: the runs' largest), the whiskers the interval of their median; a
    /// cell that is no practice is left out; the cells in report order.
    @Test func eachFigureIsOverTheRunsOneValueARun() throws {
        let cancel = Self.cell(CellScenario(.cancel, count: 4))
        let paged = Self.cell(CellScenario(.paged, count: 25))
        let parse = Self.cell(.parse)
        let totals: [[Double]] = [[10e6, 12e6, 11e6], [20e6, 21e6, 22e6], [14e6, 13e6, 15e6]]
        let runs = totals.enumerated().map { number, workers in
            Self.run(
                number,
                cells: [
                    .init(
                        cell: cancel, failed: number == 1 ? 2 : 0, songs: 300,
                        figures: [
                            // The pooled median is not the run's figure: its workers' medians' median is.
                            Self.figure(.totalNs, 1e9, workers: workers),
                            Self.figure(.wallNs, 1e6, count: 6),
                            Self.figure(.afterCancelBytes, 100, maximum: Double(1_000 * (number + 1))),
                            Self.figure(.requests, Double(3 + number)),
                        ]),
                    .init(cell: paged, failed: 0, songs: 300, figures: [Self.figure(.totalNs, 5e6, workers: [5e6])]),
                    .init(cell: parse, failed: 0, songs: 300, figures: [Self.figure(.wallNs, 4e6, workers: [4e6])]),
                ])
        }
        let figures = PracticeFigures.of(runs: runs)
        #expect(figures.map(\.practice) == [.paging, .cancel])
        let found = try #require(figures.last)
        // A practice is typed in reports and written as its name in every format.
        let json = try #require(String(data: try JSONEncoder().encode(found), encoding: .utf8))
        #expect(json.contains(#""practice":"cancel""#))
        // The runs' totals 11, 21 and 14 ms: their median; the interval of three values' median, their range.
        #expect(found.totalNs == 14e6 && found.totalLowNs == 11e6 && found.totalHighNs == 21e6)
        #expect(found.afterCancelBytes == 3_000)
        #expect(found.requests == 4)
        #expect(found.n == 18 && found.failed == 2 && found.songs == 300)
        #expect(found.choice == "4 at once, cancel after page 1" && found.network == "3g")
        // A practice's figures are each machine's: the page asks for one machine's runs at a time.
        #expect(PracticeFigures.of(runs: []).isEmpty)
    }

    /// A practice that times visits (`read`) has the time per visit as its headline (the median
    /// of the runs' times), and its pages read and allocations per visit.
    @Test func aReadHasItsTimePerVisit() throws {
        let read = Self.cell(CellScenario(.read, choice: "faults"))
        let runs = [8e6, 9e6].enumerated().map { number, time in
            Self.run(
                number,
                cells: [
                    .init(
                        cell: read, failed: 0, songs: 300,
                        figures: [
                            Self.figure(.wallNs, time, workers: [time]), Self.figure(.visits, 10),
                            Self.figure(.pagesRead, 40), Self.figure(.allocations, 500),
                        ])
                ])
        }
        let found = try #require(PracticeFigures.of(runs: runs).first)
        #expect(found.totalNs == 8.5e6 && found.parseNs == nil)
        #expect(found.visits == 10 && found.pagesReadPerVisit == 4 && found.allocationsPerVisit == 50)
    }
}
