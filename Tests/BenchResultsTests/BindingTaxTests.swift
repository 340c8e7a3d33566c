import BenchResults
import BenchTestSupport
import Testing

@Suite("The binding tax and the distance to the floor")
struct BindingTaxTests {
    static let drift = [1, 1.5, 2, 1.2, 0.8, 1, 1.9, 1.1, 0.9, 1.4]

    /// A run whose machine drifts alike for every parser: libxml2 is 1.04× its C reference, the
    /// floor 0.3 ms.
    static func run(instructions: Bool = false) -> RunResult {
        let base = ["c-libxml2": 4e6, "libxml2": 4.16e6, "expat": 6e6, "memchr": 3e5, "null": 500]
        var rounds: [String: [Double]] = [:]
        for (parser, value) in base {
            rounds[parser] = (instructions ? Array(repeating: 1, count: 3) : drift).map { value * $0 }
        }
        return SyntheticRuns.run(id: "r", started: "2026-11-22T10:00:00Z", rounds: rounds, instructions: instructions)
    }

    static func cell(_ cells: [CellSummary], _ parser: String) throws -> CellSummary {
        try #require(cells.first { $0.cell.parser == parser })
    }

    @Test func theTaxIsTheAdapterOverItsReferenceRoundByRound() throws {
        let run = Self.run()
        var cells = run.cells
        RelativeSpeed.divide(
            &cells, samples: run.samples, by: ["libxml2": "c-libxml2", "expat": "c-expat"], into: \.bindingTax)
        let tax = try #require(try Self.cell(cells, "libxml2").bindingTax)
        #expect(tax.reference == "c-libxml2")
        #expect(abs(tax.ratio - 1.04) < 1e-3, "the machine's drift cancels out: \(tax.ratio)")
        #expect(tax.rounds == 10)
        let low = try #require(tax.low)
        let high = try #require(tax.high)
        #expect(low <= tax.ratio && tax.ratio <= high && high - low < 0.01)
        // expat's reference did not run: no tax rather than a made-up one; the reference has none.
        #expect(try Self.cell(cells, "expat").bindingTax == nil)
        #expect(try Self.cell(cells, "c-libxml2").bindingTax == nil)
    }

    @Test func instructionCountsGiveAnExactTax() throws {
        let run = Self.run(instructions: true)
        var cells = run.cells
        RelativeSpeed.divide(&cells, samples: run.samples, by: ["libxml2": "c-libxml2"], into: \.bindingTax)
        let tax = try #require(try Self.cell(cells, "libxml2").bindingTax)
        #expect(abs(tax.ratio - 1.04) < 1e-6)
        #expect(
            tax.low.map { abs($0 - tax.ratio) < 1e-9 } == true && tax.high.map { abs($0 - tax.ratio) < 1e-9 } == true)
    }

    @Test func everyParserIsAMultipleOfTheFloor() throws {
        let run = Self.run()
        var cells = run.cells
        let toFloor = Dictionary(uniqueKeysWithValues: ["c-libxml2", "libxml2", "expat"].map { ($0, "memchr") })
        RelativeSpeed.divide(&cells, samples: run.samples, by: toFloor, into: \.floorMultiple)
        #expect(abs((try Self.cell(cells, "expat").floorMultiple?.ratio ?? 0) - 20) < 0.05)
        #expect(abs((try Self.cell(cells, "c-libxml2").floorMultiple?.ratio ?? 0) - 4e6 / 3e5) < 0.05)
        #expect(try Self.cell(cells, "memchr").floorMultiple == nil)
    }

    @Test func theFloorIsNeverTheFastestParser() throws {
        let run = Self.run()
        var cells = run.cells
        for index in cells.indices { cells[index].relative = nil }
        RelativeSpeed.rank(&cells, samples: run.samples, reference: nil, baseline: "null", unranked: ["memchr"])
        #expect(try Self.cell(cells, "c-libxml2").relative?.ratio == 1)
        #expect(try Self.cell(cells, "memchr").relative == nil)
        #expect(abs((try Self.cell(cells, "expat").relative?.ratio ?? 0) - 1.5) < 1e-3)
    }
}
