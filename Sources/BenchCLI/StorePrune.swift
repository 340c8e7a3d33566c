import ArgumentParser
import BenchReports
import Foundation
import StatsStore

/// `bench store prune`: retention, glue only (the store decides and removes: ``RetentionPolicy``).
extension StoreCommand {
    struct Prune: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove the raw samples of old runs, keeping every run and its summaries (retention).",
            discussion: """
                A run's raw samples go when it started more than --older-than-days ago, or is beyond the newest \
                --keep-runs runs of its host; with both, only when both say so. Every run keeps its row and its \
                summaries, which bench history, bench report and a run's history read: they print the same after. \
                What needs raw samples (bench compare of a pruned run) says they were pruned. Never touched: \
                incomplete runs (one may still be recording; bench store remove takes out one that was \
                interrupted) and runs not summarised yet. A few runs a transaction, each whole or not at all (on \
                PostgreSQL under the lock a copy of that run takes): safe while other machines write, and an \
                interrupted prune is finished by the next. --dry-run says what would go and changes nothing. An \
                SQLite file keeps its size (the space is reused for new samples) unless --vacuum, which rewrites \
                it (writers wait meanwhile; it needs free disk about the file's size); PostgreSQL's files do not \
                shrink, the space is reused after a VACUUM (autovacuum's, or --vacuum's now).
                """)

        @Option(help: "Remove the raw samples of runs that started more than this many days ago.")
        var olderThanDays: Int?

        @Option(help: "Keep the raw samples of the newest this many runs of each host; remove the older ones'.")
        var keepRuns: Int?

        @Flag(help: "Say what would be removed (runs, samples, about how many bytes) and change nothing.")
        var dryRun = false

        @Flag(help: "Give the space back afterwards: VACUUM (an SQLite file is rewritten, smaller).")
        var vacuum = false

        @Flag(help: "No progress line.")
        var quiet = false

        @OptionGroup var storeOptions: StoreOptions

        func validate() throws {
            guard olderThanDays != nil || keepRuns != nil else {
                throw ValidationError("which runs: --older-than-days DAYS, --keep-runs N, or both")
            }
            if let olderThanDays, olderThanDays < 1 { throw ValidationError("--older-than-days must be at least 1") }
            if let keepRuns, keepRuns < 1 { throw ValidationError("--keep-runs must be at least 1") }
            if dryRun && vacuum { throw ValidationError("--vacuum changes the store: not with --dry-run") }
        }

        func run() throws {
            let store = try storeOptions.open(mustExist: true)
            let width = Terminal(quiet: true).width
            let policy = RetentionPolicy(olderThanDays: olderThanDays, keepNewestRuns: keepRuns)
            let plan = try store.retentionPlan(policy)
            let before = try store.space()
            print(Format.wrap(Self.describe(plan, policy: policy, space: before, store: store.location), width: width))
            guard !dryRun else {
                print("Nothing was changed (--dry-run).")
                return
            }
            let terminal = Terminal(quiet: quiet)
            let started = Date()
            let pruned = try store.prune(plan.pruned, at: Date()) { done in
                terminal.progress("pruned \(done) of \(plan.pruned.count) runs…")
            }
            terminal.clearProgress()
            let seconds = Date().timeIntervalSince(started)
            let samples = pruned.reduce(0) { $0 + $1.samples }
            var lines = [
                "Removed the raw samples of \(pruned.count) run(s) (\(Self.count(samples)) samples) in "
                    + String(format: "%.1f s", seconds)
                    + (pruned.count < plan.pruned.count
                        ? "; \(plan.pruned.count - pruned.count) run(s) had changed meanwhile and were left as they were."
                        : ".")
            ]
            if vacuum {
                let vacuumStarted = Date()
                try store.reclaimSpace()
                let after = try store.space()
                lines.append(
                    "Vacuumed in " + String(format: "%.1f s", Date().timeIntervalSince(vacuumStarted)) + ": the store "
                        + "went from \(Self.megabytes(before.bytes)) to \(Self.megabytes(after.bytes)) on disk"
                        + (StatsStores.isSharedURL(store.location)
                            ? " (PostgreSQL reuses the space inside its files; they do not shrink)." : "."))
            } else {
                let after = try store.space()
                lines.append(
                    "The store takes \(Self.megabytes(after.bytes)) on disk"
                        + (after.freeBytes.map { ", \(Self.megabytes($0)) of it free inside the file for new samples" }
                            ?? "")
                        + ": --vacuum gives the space back"
                        + (StatsStores.isSharedURL(store.location)
                            ? " for reuse (autovacuum does so too); PostgreSQL's files do not shrink."
                            : " to the disk."))
            }
            for line in lines { print(Format.wrap(line, width: width)) }
        }

        /// What the plan removes and keeps, in words.
        static func describe(_ plan: RetentionPlan, policy: RetentionPolicy, space: StoreSpace, store: String)
            -> String
        {
            let which = [
                policy.keepNewestRuns.map { "beyond the newest \($0) runs of their host" },
                policy.olderThanDays.map { days in
                    "started more than \(days) day(s) ago (before \(policy.cutoff ?? "?"))"
                },
            ].compactMap { $0 }.joined(separator: " and ")
            var text = "Retention in \(store): the raw samples of runs \(which). "
            if plan.pruned.isEmpty {
                text += "No run's samples to remove."
            } else {
                // The bytes are an estimate: the samples' share of what the store says it holds.
                let share = plan.storeSamples > 0 ? Double(plan.samples) / Double(plan.storeSamples) : 0
                let bytes = Double(space.sampleBytes ?? space.bytes) * share
                let hosts = Dictionary(grouping: plan.pruned, by: \.host).map { "\($0.key) \($0.value.count)" }.sorted()
                text +=
                    "\(plan.pruned.count) run(s) lose theirs: \(count(plan.samples)) of the store's "
                    + "\(count(plan.storeSamples)) samples, about \(megabytes(Int64(bytes))) of its "
                    + "\(megabytes(space.bytes)); runs started \(plan.pruned.first?.startedAt ?? "") to "
                    + "\(plan.pruned.last?.startedAt ?? ""); by host: \(hosts.joined(separator: ", ")). "
                    + "Each keeps its row and summaries (bench history and bench report print the same after)."
            }
            if !plan.incomplete.isEmpty {
                text +=
                    " Kept whole: \(plan.incomplete.count) incomplete run(s) (one may still be recording; bench store "
                    + "remove --run takes out one that was interrupted): "
                    + plan.incomplete.prefix(5).map(\.runID).joined(separator: ", ")
                    + (plan.incomplete.count > 5 ? ", …" : "") + "."
            }
            if !plan.unsummarised.isEmpty {
                text +=
                    " Kept whole: \(plan.unsummarised.count) run(s) without summaries yet (their samples are all "
                    + "they have; a bench that writes the store summarises them when it opens it)."
            }
            if plan.alreadyPruned > 0 { text += " \(plan.alreadyPruned) run(s) were pruned before." }
            return text
        }

        static func count(_ value: Int) -> String {
            let formatter = NumberFormatter()
            formatter.numberStyle = .decimal
            formatter.groupingSeparator = ","
            formatter.usesGroupingSeparator = true
            return formatter.string(from: NSNumber(value: value)) ?? "\(value)"
        }

        /// A size in whole MB, or to two significant figures under 10 MB ("0.60 MB", "2.4 MB"): a small
        /// store's change must not round to "1 MB to 1 MB".
        static func megabytes(_ bytes: Int64) -> String {
            let value = Double(bytes) / 1e6
            return String(format: value >= 10 ? "%.0f MB" : value >= 1 ? "%.1f MB" : "%.2f MB", value)
        }
    }
}
