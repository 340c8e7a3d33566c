import BenchResults
import Foundation

/// One worker's outcome for one cell in one round.
public struct CellRun: Sendable {
    public var cell: CellKey
    public var round: Int
    /// The measured samples; a worker that crashed or timed out leaves one failed sample.
    public var samples: [Sample]
    public var peakResidentBytes: Int?
    /// What went wrong with the worker as a whole, if anything.
    public var outcome: String?

    public init(cell: CellKey, round: Int, samples: [Sample], peakResidentBytes: Int?, outcome: String?) {
        self.cell = cell
        self.round = round
        self.samples = samples
        self.peakResidentBytes = peakResidentBytes
        self.outcome = outcome
    }
}
