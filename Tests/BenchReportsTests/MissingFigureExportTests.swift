import BenchReports
import BenchResults
import BenchTestSupport
import Foundation
import Testing

/// A figure a cell should have and has not is absent with its reason, in the formats that can say so.
@Suite("Missing figures in exports")
struct MissingFigureExportTests {
    @Test func aMissingTimeIsAbsentWithItsReason() throws {
        let run = NeverContradictoryTests.run(rounds: NeverContradictoryTests.quick, lost: "foundation")
        let absent = ExportPoint.absences(run)
        #expect(absent.map { $0.tag("parser") } == ["foundation"])
        #expect(absent.first?.reason.contains("lost the CPU") == true, "\(absent)")

        let points = ExportPoint.points(run)
        #expect(!points.contains { $0.tag("parser") == "foundation" && $0.measure == "wall" })
        let lines = try LineProtocol.parse(try ExportFormat.influx.write(points, absent: absent))
        let missing = try #require(
            lines.first { $0.tags["parser"] == "foundation" && $0.tags["measure"] == "wall" })
        #expect(missing.fields["value"] == nil && missing.fields["missing"]?.contains("lost the CPU") == true)
        #expect(missing.tags["unit"] == "nanoseconds" && missing.timestamp != nil)

        let custom = try #require(
            try JSONSerialization.jsonObject(
                with: Data(ExportFormat.githubActionBenchmark.write(points, absent: absent).utf8)) as? [[String: Any]])
        let foundation = custom.filter { ($0["name"] as? String)?.hasPrefix("parse/foundation/") == true }
        #expect(!foundation.isEmpty)
        #expect(foundation.allSatisfy { ($0["extra"] as? String)?.contains("no wall: all") == true })
    }
}

extension ExportPoint.Absence {
    func tag(_ key: String) -> String? { tags.first { $0.key == key }?.value }
}
