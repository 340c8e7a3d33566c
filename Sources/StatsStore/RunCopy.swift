import BenchResults

/// Copies runs into a store, one transaction per run (`bench store push` and `pull`).
///
/// A run already there is skipped, one there incomplete is completed; a run that cannot
/// be read or differs there is a failure that does not stop the others; a lost connection stops the
/// copy, every run copied before it staying whole.
public struct RunCopy {
    /// A run to copy: where it is, how to read it (`nil`: it is not selected), and its summaries
    /// where the source keeps them.
    public struct Item {
        public var name: String
        public var read: () throws -> StoredRun?
        /// The run's summaries in its source (`nil`: none): a complete run's are copied with it, so
        /// that the copy is not summarised again from its samples (and a run whose samples
        /// retention removed keeps what it concluded).
        public var summaries: () throws -> [CellRecord]?

        public init(
            name: String, read: @escaping () throws -> StoredRun?,
            summaries: @escaping () throws -> [CellRecord]? = { nil }
        ) {
            self.name = name
            self.read = read
            self.summaries = summaries
        }

        /// A run of a store, with its summaries.
        public static func stored(_ runID: String, in store: any StatsStoring) -> Item {
            Item(
                name: runID, read: { try store.storedRun(runID) }, summaries: { try store.cellRecords(of: runID) })
        }
    }

    /// What a copy did.
    public struct Tally: Sendable, Equatable {
        /// Runs read and selected.
        public var considered = 0
        public var added = 0
        /// Runs the target held incomplete, now completed.
        public var completed = 0
        public var alreadyThere = 0
        /// Samples written.
        public var samples = 0
        /// The runs not copied, each with why ("name: reason").
        public var failures: [String] = []

        public init() {}
    }

    /// The connection to the target was lost: the copy stopped; ``copied`` runs were copied before.
    public struct ConnectionLost: Error, CustomStringConvertible, Sendable {
        public var error: StatsStoreError
        public var copied: Int
        public var description: String {
            "\(error); \(copied) run(s) were copied before it, each whole; "
                + "run the same command again to copy the rest (what is there is skipped)"
        }
    }

    public var target: any StatsStoring

    public init(to target: any StatsStoring) {
        self.target = target
    }

    /// Copies the items in order; `progress` is called before each with its index.
    ///
    /// - Throws: ``ConnectionLost`` when the target's connection is lost.
    public func copy(_ items: [Item], progress: (Int) -> Void = { _ in }) throws -> Tally {
        var tally = Tally()
        for (number, item) in items.enumerated() {
            progress(number)
            do {
                guard let run = try item.read() else { continue }
                tally.considered += 1
                let outcome = try target.importRun(run)
                switch outcome {
                case .added:
                    tally.added += 1
                    tally.samples += run.samples.count
                case .alreadyThere: tally.alreadyThere += 1
                case .completed(let count):
                    tally.completed += 1
                    tally.samples += count
                }
                // The target now holds the run whole, as the source does: what the source
                // concluded of it is what the target would summarise from its samples (a run
                // already there keeps the summaries it has).
                let summarised = try outcome == .alreadyThere && target.cellRecords(of: run.runID) != nil
                if run.environment.complete, !summarised, let cells = try item.summaries(), !cells.isEmpty {
                    try target.recordSummaries(cells, runID: run.runID)
                }
            } catch let error as StatsStoreError where error.connectionLost {
                throw ConnectionLost(error: error, copied: tally.added + tally.completed)
            } catch {
                tally.failures.append("\(item.name): \(error)")
            }
        }
        return tally
    }
}
