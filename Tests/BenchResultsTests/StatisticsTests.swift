import BenchResults
import Testing

@Suite("Statistics on fixed numbers, checked by hand")
struct StatisticsTests {
    @Test func fiveValues() throws {
        // 1 2 3 4 10: mean 4, median 3, squares 9+4+1+0+36 = 50, sd = sqrt(50/4) = 3.5355…
        let stats = try #require(Statistics([10, 2, 4, 1, 3]))
        #expect(stats.count == 5)
        #expect(stats.mean == 4)
        #expect(stats.median == 3)
        #expect(abs(stats.standardDeviation - 3.5355339059327378) < 1e-12)
        #expect(stats.min == 1 && stats.max == 10)
        // p90: position 0.9 × 4 = 3.6 → 4 + 0.6 × (10 − 4) = 7.6
        #expect(abs(stats.p90 - 7.6) < 1e-12)
        // n = 5 < 6: no 95% interval exists; min…max with coverage 1 − 2/32 = 0.9375.
        #expect(stats.medianLow == 1 && stats.medianHigh == 10)
        #expect(abs(stats.medianCoverage - 0.9375) < 1e-12)
    }

    @Test func evenCountMedianInterpolates() throws {
        let stats = try #require(Statistics([4, 1, 3, 2]))
        #expect(stats.median == 2.5)
        #expect(abs(stats.standardDeviation - 1.2909944487358056) < 1e-12)  // sqrt(5/3)
    }

    @Test func oneValue() throws {
        let stats = try #require(Statistics([7]))
        #expect(stats.mean == 7 && stats.median == 7 && stats.p90 == 7)
        #expect(stats.standardDeviation == 0)
        #expect(stats.medianLow == 7 && stats.medianHigh == 7)
        #expect(Statistics([]) == nil)
    }

    @Test func medianIntervalRanksForTwentyValues() throws {
        // Binomial(20, ½): P(X ≤ 5) = 21700/1048576 = 0.020695 ≤ 0.025 < P(X ≤ 6) = 0.057659,
        // so the interval is x(6)…x(15), with coverage 1 − 2 × 0.020695 = 0.958611.
        let ranks = Statistics.medianConfidenceRanks(count: 20)
        #expect(ranks.lower == 6 && ranks.upper == 15)
        #expect(abs(ranks.coverage - (1 - 2 * 21_700.0 / 1_048_576.0)) < 1e-12)
        let stats = try #require(Statistics((1...20).map(Double.init).reversed()))
        #expect(stats.medianLow == 6 && stats.medianHigh == 15)
        #expect(stats.median == 10.5)
        #expect(abs(stats.p90 - 18.1) < 1e-12)  // position 17.1 → 18 + 0.1
    }

    @Test func medianIntervalRanksForSmallAndLargeCounts() {
        // n = 6: P(X ≤ 0) = 1/64 = 0.015625 ≤ 0.025 < P(X ≤ 1) = 7/64: ranks 1…6, coverage 0.96875.
        let six = Statistics.medianConfidenceRanks(count: 6)
        #expect(six.lower == 1 && six.upper == 6)
        #expect(abs(six.coverage - 0.96875) < 1e-12)
        // Large n: the interval stays symmetric, close to n/2 ± 0.98 √n, with coverage ≥ 0.95.
        let large = Statistics.medianConfidenceRanks(count: 10_000)
        #expect(large.lower + large.upper == 10_001)
        #expect((4_895...4_905).contains(large.lower))
        #expect(large.coverage >= 0.95 && large.coverage < 0.96)
    }

    @Test func summaryLeavesFailedSamplesOut() throws {
        let cell = CellKey(
            parser: "expat", scenario: .parse, feedPath: "f.xml", feedSHA256: "abc", feedBytes: 2_000_000,
            chunkSize: 16_384)
        func sample(_ wall: Int?, error: String? = nil) -> Sample {
            Sample(
                cell: cell, songs: 300, round: 1, iteration: 1, wallNs: wall, cpuNs: wall, firstSongNs: 100,
                peakResidentBytes: 50 << 20, error: error, debug: false)
        }
        let summary = CellSummary.summarise(
            cell,
            samples: [sample(1_000_000), sample(3_000_000), sample(2_000_000), sample(999_999_999, error: "boom")],
            peakResidentBytes: 50 << 20, baselinePeakBytes: 40 << 20, outcome: nil)
        #expect(summary.failed == 1)
        #expect(summary.wall?.count == 3)
        #expect(summary.wall?.median == 2_000_000)
        #expect(summary.megabytesPerSecond == 1_000)  // 2,000,000 bytes in 2 ms
        #expect(summary.peakOverBaselineBytes == 10 << 20)
        #expect(summary.songs == 300)
    }

    @Test func overlapIsTakenPerIteration() {
        let cell = CellKey(
            parser: "x", scenario: .download, feedPath: "f", feedSHA256: "s", feedBytes: 1, chunkSize: 0, network: "3g"
        )
        func sample(download: Int, parse: Int, total: Int) -> Sample {
            Sample(
                cell: cell, songs: 1, round: 1, iteration: 1, wallNs: parse, cpuNs: nil, firstSongNs: nil,
                downloadNs: download, totalNs: total, peakResidentBytes: nil, error: nil, debug: false)
        }
        // Parsed after the download every time: overlap 0, though the medians of the parts would say 40%.
        let after = [
            sample(download: 100, parse: 10, total: 110), sample(download: 200, parse: 20, total: 220),
            sample(download: 150, parse: 30, total: 180),
        ]
        #expect(
            CellSummary.summarise(cell, samples: after, peakResidentBytes: nil, baselinePeakBytes: nil, outcome: nil)
                .overlap == 0)
        // All hidden: total = download.
        let hidden = [sample(download: 100, parse: 10, total: 100), sample(download: 90, parse: 12, total: 91)]
        let summary = CellSummary.summarise(
            cell, samples: hidden, peakResidentBytes: nil, baselinePeakBytes: nil, outcome: nil)
        #expect(abs((summary.overlap ?? 0) - (1 + 11.0 / 12) / 2) < 1e-12)
    }
}
