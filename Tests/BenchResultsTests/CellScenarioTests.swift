import BenchResults
import Foundation
import Testing

/// A cell's identity: its scenario and choice, read from a recorded name in one place.
@Suite("CellScenario: names, kinds, choices")
struct CellScenarioTests {
    @Test(
        arguments: [
            ("parse", ScenarioID.parse, nil), ("download", .download, nil), ("conditional-304", .conditional, "304"),
            ("paged-25", .paged, "25"), ("fields-songs", .fields, "songs"), ("gzip-on", .gzip, "on"),
            ("queue-4", .queue, "4"), ("cancel-2", .cancel, "2"),
            ("store-batch-ordered-cache", .store, "batch-ordered-cache"),
        ] as [(String, ScenarioID, String?)])
    func aRecordedNameNamesItsScenarioAndChoice(name: String, kind: ScenarioID, choice: String?) {
        let cell = CellScenario(name: name)
        #expect(cell.kind == kind)
        #expect(cell.choice == choice)
        #expect(CellScenario(kind, choice: choice) == cell)
        #expect(cell.description == name)
    }

    @Test func notTimedAndUnknownNamesHaveNoScenario() {
        #expect(CellScenario.notTimed.kind == nil)
        #expect(CellScenario(name: "not timed") == .notTimed)
        let future = CellScenario(name: "replay-events")
        #expect(future.kind == nil && future.choice == nil && future.name == "replay-events")
    }

    @Test func itIsWrittenAsItsNameInJSON() throws {
        let cell = CellKey(
            parser: "expat", scenario: .conditional304, feedPath: "f.xml", feedSHA256: "s", feedBytes: 1, chunkSize: 0)
        let json = String(decoding: try JSONEncoder().encode(cell), as: UTF8.self)
        #expect(json.contains("\"scenario\":\"conditional-304\""))
        #expect(try JSONDecoder().decode(CellKey.self, from: Data(json.utf8)) == cell)
    }
}
