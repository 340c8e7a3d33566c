import BenchWorker

extension BenchSession.Outcome {
    /// What the run kept, in the words `bench run` says it: where its figures are (a store,
    /// its files) once it has ended, was interrupted, or could not write its files.
    package struct Kept: Sendable {
        /// The stats store's location; `nil` for a run not recorded (`--no-store`).
        package var store: String?
        /// The files written.
        package var written: [String]
        /// Why the files could not be written; `nil` when they were.
        package var writeFailure: String?

        package init(store: String?, written: [String], writeFailure: String?) {
            self.store = store
            self.written = written
            self.writeFailure = writeFailure
        }
    }

    /// Whether the run is recorded in a store whole so far (a store was asked for and never failed).
    func recorded(_ kept: Kept) -> Bool { kept.store != nil && recorderFailure == nil }

    /// What an interrupted run kept: the run in the store (incomplete), its files (each on a line
    /// of its own, indented), how to measure again; then the command that removes the incomplete
    /// run, on lines of their own (none when the store does not hold it whole).
    ///
    /// - Parameters:
    ///   - kept: where the run's figures are.
    ///   - command: the tool's command name, for the removal's command line.
    /// - Returns: the lines to say (a file's indented), then the removal's.
    package func interrupted(_ kept: Kept, command: String) -> (lines: [String], removal: [String]) {
        let runID = result.environment.runID
        var lines = [
            "Interrupted by \(signalName(interruption ?? 0)) after \(workersFinished) of \(workersPlanned) "
                + "workers: run \(runID) is incomplete."
        ]
        if let store = kept.store, let recorderFailure {
            lines.append("The stats store failed during the run (\(recorderFailure)): \(store) holds part of it.")
        } else if let store = kept.store {
            lines.append(
                "Kept in \(store) as an incomplete run with the \(workersFinished) workers that "
                    + "finished (`bench report` includes them; --exclude-incomplete leaves them out).")
        } else {
            lines.append("Not recorded in a stats store (--no-store).")
        }
        if let writeFailure = kept.writeFailure {
            lines.append("Its files could not be written: \(writeFailure)")
        } else {
            lines += ["Its files, with the cells that finished:"] + kept.written.map { "  " + $0 }
        }
        lines.append("A run cannot be resumed: run the same command again for a whole run.")
        let removal =
            recorded(kept)
            ? ["To remove the incomplete run:", "  \(command) store remove --run \(runID) --store \(kept.store ?? "")"]
            : []
        return (lines, removal)
    }

    /// Why a run whose files could not be written failed, and what it kept: the store's run, or
    /// only the table; then the parsers that did not succeed.
    package func writeFailed(_ kept: Kept) -> String {
        let runID = result.environment.runID
        let where_ =
            recorded(kept)
            ? "the run is recorded whole in \(kept.store ?? "") as \(runID) (bench report shows it)"
            : "the run was not recorded whole (\(recorderFailure.map { "the store failed: \($0)" } ?? "--no-store")): its figures are lost but for the table above"
        let problems = problems.map { "\n  " + $0.description }.joined()
        return "\(kept.writeFailure ?? ""); \(where_)"
            + (problems.isEmpty ? "" : "\nand not every parser succeeded:" + problems)
    }

    /// The lines that say what a finished run wrote and where it is recorded.
    package func wrote(_ kept: Kept) -> [String] {
        ["Run \(result.environment.runID) wrote:"] + kept.written.map { "  " + $0 }
            + (kept.store == nil
                ? ["Not recorded in a stats store (--no-store)."]
                : recorderFailure == nil ? ["Recorded in \(kept.store ?? "")."] : [])
    }
}
