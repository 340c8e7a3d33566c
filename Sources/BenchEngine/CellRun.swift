import BenchResults
import Foundation

/// One worker's outcome for one cell in one round.
package struct CellRun: Sendable {
    package var cell: CellKey
    package var round: Int
    /// The measured samples; a worker that crashed or timed out leaves one failed sample.
    package var samples: [Sample]
    package var peakResidentBytes: Int?
    /// What went wrong with the worker as a whole, if anything.
    package var outcome: String?
    /// A counted worker's profiles of its first measured parses, each with its number (from 1).
    package var profiles: [(parse: Int, profile: ParseProfile)] = []
    /// Why a counted worker has no profile though its counts were read (a dump that could not be read whole).
    package var profileProblem: String?

    package init(cell: CellKey, round: Int, samples: [Sample], peakResidentBytes: Int?, outcome: String?) {
        self.cell = cell
        self.round = round
        self.samples = samples
        self.peakResidentBytes = peakResidentBytes
        self.outcome = outcome
    }
}
