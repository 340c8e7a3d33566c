/// Copies runs into a store, one transaction per run (`bench store push` and `pull`).
///
/// A run already there is skipped, one there incomplete is completed; a run that cannot
/// be read or differs there is a failure that does not stop the others; a lost connection stops the
/// copy, every run copied before it staying whole.
public struct RunCopy {
    /// A run to copy: where it is, and how to read it (`nil`: it is not selected).
    public struct Item {
        public var name: String
        public var read: () throws -> StoredRun?

        public init(name: String, read: @escaping () throws -> StoredRun?) {
            self.name = name
            self.read = read
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
                switch try target.importRun(run) {
                case .added:
                    tally.added += 1
                    tally.samples += run.samples.count
                case .alreadyThere: tally.alreadyThere += 1
                case .completed(let count):
                    tally.completed += 1
                    tally.samples += count
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
