import BenchResults
import Foundation
import Testing

@Suite("Metric: the one table of the figures")
struct MetricTests {
    /// `bench compare --metric` names exactly the metrics the table marks as judged, each by its
    /// own name, read back from that name and from its JSON; a metric not judged has none.
    @Test func everyComparedMetricIsInTheTable() throws {
        let judged = Metric.allCases.filter { $0.traits.comparedAs != nil }
        #expect(ComparisonMetric.allCases.map(\.metric) == judged)
        #expect(Set(ComparisonMetric.allCases.map(\.rawValue)).count == judged.count)
        for compared in ComparisonMetric.allCases {
            #expect(ComparisonMetric(rawValue: compared.rawValue) == compared)
            let json = try JSONEncoder().encode([compared])
            #expect(String(decoding: json, as: UTF8.self) == "[\"\(compared.rawValue)\"]")
            #expect(try JSONDecoder().decode([ComparisonMetric].self, from: json) == [compared])
        }
        #expect(ComparisonMetric(.firstSongNs) == nil && ComparisonMetric(rawValue: "first-song") == nil)
        #expect(ComparisonMetric.peakMemory.rawValue == "peak-memory" && ComparisonMetric.calibrated.isTime)
    }

    /// A stored metric reads and writes its own slot; names never collide.
    @Test func storedMetricsHaveTheirOwnSlotAndNames() {
        var sample = Sample(
            cell: CellKey(
                parser: "p", scenario: .parse, feedPath: "f", feedSHA256: "s", feedBytes: 1, chunkSize: 1),
            songs: 1, round: 1, iteration: 1, wallNs: nil, cpuNs: nil, firstSongNs: nil, peakResidentBytes: nil,
            error: nil, debug: false)
        for (index, metric) in Metric.stored.enumerated() { sample[metric] = index + 1 }
        #expect(Metric.stored.enumerated().allSatisfy { sample[$1] == $0 + 1 })
        #expect(sample.wallNs == 1 && sample[.minorPageFaults] == Metric.stored.count)
        #expect(Set(Metric.stored.map(\.column)).count == Metric.stored.count)
        #expect(Set(Metric.stored.map(\.csvColumn)).count == Metric.stored.count)
        // The derived one is not stored, and reads from the stored ones.
        #expect(!Metric.stored.contains(.calibratedTime))
        sample.calibrationNs = 4
        sample.wallNs = 10
        #expect(Metric.calibratedTime.value(sample) == 2.5)
    }

    /// A sample keeps its figures by metric, every stored metric in a slot of its own, and encodes
    /// each under its metric's name (the JSON a run writes), a figure without a value left out.
    @Test func figuresAreKeptByMetricAndEncodedUnderTheirNames() throws {
        #expect(Metric.stored.count <= MetricValues.capacity)
        var sample = Sample(
            cell: CellKey(
                parser: "p", scenario: .parse, feedPath: "f", feedSHA256: "s", feedBytes: 1, chunkSize: 1),
            songs: 1, round: 1, iteration: 1, wallNs: 7, cpuNs: nil, firstSongNs: nil, peakResidentBytes: nil,
            error: nil, debug: false)
        sample[.estimatedCycles] = -3
        sample[.calibratedTime] = 9  // derived: ignored
        #expect(sample.figures.metrics == [.wallNs, .estimatedCycles])
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(sample)) as? [String: Any]
        #expect(
            json.map { Set($0.keys) } == ["cell", "songs", "round", "iteration", "debug", "wallNs", "estimatedCycles"])
        #expect(try JSONDecoder().decode(Sample.self, from: JSONEncoder().encode(sample)) == sample)
        for (index, metric) in Metric.stored.enumerated() { sample[metric] = index - 5 }
        sample.preempted = true
        sample.error = "e"
        #expect(try JSONDecoder().decode(Sample.self, from: JSONEncoder().encode(sample)) == sample)
        // A counting worker's times are left out, its counts kept.
        let counted = sample.figures.removing(where: \.isTime)
        #expect(
            counted[.wallNs] == nil && counted[.calibrationNs] == nil && counted[.allocations] == sample.allocations)
        #expect(counted != sample.figures && counted.metrics == Metric.stored.filter { !$0.isTime })
    }

    /// A time of a parse that lost the CPU is left out of the cell's median; an exact count is not.
    @Test func cellFiguresFollowTheirRule() {
        func sample(_ cpu: Int, kept: Int, preempted: Bool, error: String? = nil) -> Sample {
            var sample = Sample(
                cell: CellKey(
                    parser: "p", scenario: .parse, feedPath: "f", feedSHA256: "s", feedBytes: 1, chunkSize: 1),
                songs: 1, round: 1, iteration: 1, wallNs: cpu, cpuNs: cpu, firstSongNs: nil, peakResidentBytes: nil,
                error: error, debug: false)
            sample.keptBytes = kept
            sample.afterCancelBytes = kept
            sample.preempted = preempted
            return sample
        }
        let samples = [
            sample(10, kept: 5, preempted: false), sample(12, kept: 5, preempted: false),
            sample(90, kept: 7, preempted: true), sample(1, kept: 100, preempted: false, error: "broke"),
        ]
        #expect(Metric.cpuNs.cellFigure(samples) == 11)
        #expect(Metric.keptBytes.cellFigure(samples) == 5)
        #expect(Metric.afterCancelBytes.cellFigure(samples) == 7)
        #expect(Metric.wallNs.cellFigure(samples) == nil)
    }

    /// The exported formats name each figure once: the compared name where it has one, else its
    /// column without the unit.
    @Test func exportedNamesAreUniqueAndReadable() {
        let names = Metric.allCases.map(\.name)
        #expect(Set(names).count == names.count, "\(names)")
        #expect(Metric.wallNs.name == "wall" && Metric.peakResidentBytes.name == "peak-memory")
        #expect(Metric.firstSongNs.name == "first-song" && Metric.parsePeakBytes.name == "parse-peak-bytes")
        #expect(Metric.afterCancelParseNs.name == "after-cancel-parse")
    }
}
