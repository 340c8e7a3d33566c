import Foundation

/// What copying a run into a store did.
public enum ImportOutcome: Sendable, Equatable {
    /// The run was not there: added whole.
    case added
    /// The same run was there already: nothing written.
    case alreadyThere
    /// The store had the run incomplete, with fewer samples (a run whose store failed halfway):
    /// the missing samples were added, and the run marked as the source has it.
    case completed(addedSamples: Int)
}
