import BenchWorker
import ArgumentParser
import BenchEngine
import BenchReports
import BenchResults
import Foundation
import StatsStore

/// `bench compare BASELINE CURRENT`: the CI regression gate.
struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two sets of runs cell by cell; exit 2 on a regression beyond the threshold and the noise.",
        discussion: """
            BASELINE and CURRENT are run files (<run-id>.json, as `bench run` writes them), directories of \
            them, or run IDs in the stats store (--store, a file or a postgres:// URL; several comma-separated): a side made of several runs (say, interleaved with the other side's, as \
            scripts/ci-regression.sh does) is taken together. For every cell (parser, scenario, feed, chunk \
            size, network profile) it shows both medians and the ratio current ÷ baseline with a 95% \
            interval (--confidence) (Hodges–Lehmann, with the Wilcoxon signed-rank or Mann–Whitney test); \
            --metric calibrated compares wall time divided by the calibration workload timed before each parse, \
            which does not move with the host's speed. The noise is \
            always measured between worker processes: paired by turn when the sides ran turn about, else the \
            two sets of workers; the sizes needed follow from --confidence (at 95%: 6 pairs, or 4 workers a \
            side; at 99%: 8 pairs, or 5 a side). Too few workers: the cell is not judged (exact instruction \
            counts may use their iterations). A cell is slower when the ratio is above 1 + threshold and the \
            whole interval above 1; failed when it ran in the baseline and failed in the current runs. Cells \
            on one side only, different feeds, debug builds, noisy runs and different library versions are \
            reported, never silently compared; unless the sides ran turn about, the times of a run flagged noisy, \
            and the wall and CPU times of a cell whose two sides' calibration (the machine's speed, timed before \
            each parse) differs by more than the threshold (--metric calibrated judges those), are not judged. \
            Exit status: 0 no regression, 2 regression, 3 a cell failed \
            in the current runs (before 2), 4 nothing judged or compared (no cell had enough workers, or the \
            sides share no cell: a gate that checked nothing must not pass; --allow-nothing-judged lets it), \
            1 bad input.
            """)

    @Argument(help: "The baseline: a run's JSON file, a directory of them, or stored run IDs (comma-separated).")
    var baseline: String

    @Argument(help: "The current runs: a run's JSON file, a directory of them, or stored run IDs (comma-separated).")
    var current: String

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "What to compare: \(ComparisonMetric.allCases.map(\.rawValue).joined(separator: ", ")).")
    var metric: ComparisonMetric = .wall

    @Option(help: "The relative change that counts, in percent (default: 5, or 1 for instructions).")
    var threshold: Double?

    @Option(
        help:
            "The confidence level of the interval, in percent: a change counts only when the whole interval is past 1 (99 is stricter on a noisy machine)."
    )
    var confidence: Double = 95

    @Option(help: "What to print (JMH's results have no place for a ratio between two runs).")
    var format: CompareFormat = .table

    @Option(help: "Also write the Markdown report to this file.")
    var markdown: String?

    @Flag(
        help: """
            Explain every compared cell from the runs' profiles (by default only counted cells judged slower or \
            faster on instructions or estimated cycles are): the functions whose own cost moved most. Profiles \
            come from `bench run --counter instructions`.
            """)
    var explain = false

    @Option(
        help: """
            Write each explained cell's folded stacks into this directory: <cell>.baseline.folded, \
            <cell>.current.folded and <cell>.diff.folded (flamegraph.pl, difffolded.pl, speedscope).
            """)
    var stacks: String?

    @Flag(
        name: .customLong("allow-nothing-judged"),
        help: "Exit 0 when no cell could be judged (else exit 4: a gate that checked nothing does not pass).")
    var allowNothingJudged = false

    func validate() throws {
        if let threshold, !(threshold >= 0 && threshold < 1000) {
            throw ValidationError("--threshold is a percentage, 0 or more (e.g. 5)")
        }
        guard confidence >= 50 && confidence < 100 else {
            throw ValidationError("--confidence is a percentage from 50 to below 100 (e.g. 95)")
        }
    }

    /// Where a metric's figures come from, for the error of a side that has none.
    static func source(of metric: ComparisonMetric) -> String {
        switch metric {
        case .instructions, .cycles:
            return " (instruction counts and estimated cycles come from `bench run --counter instructions`)"
        case .allocations:
            return " (allocation counts come from `bench run`'s allocation workers, in runs made since they were added)"
        default: return ""
        }
    }

    func run() throws {
        // The store is opened only when a side names stored runs.
        var store: (any StatsStoring)?
        func open() throws -> any StatsStoring {
            if let store { return store }
            let opened = try storeOptions.open(mustExist: true, readOnly: true)
            store = opened
            return opened
        }
        let (before, beforeProfiles) = try Self.load(baseline, side: "baseline", store: open)
        let (after, afterProfiles) = try Self.load(current, side: "current", store: open)
        // A run on both sides among others is pooled with itself, pulling every cell toward unchanged
        // on no evidence: refused. The same runs on both sides check the comparison, not a change: said.
        let baselineIDs = Set(before.map(\.environment.runID))
        let currentIDs = Set(after.map(\.environment.runID))
        let shared = baselineIDs.intersection(currentIDs)
        if baselineIDs == currentIDs {
            printError(
                Format.wrap(
                    "Both sides are the same run(s), \(baselineIDs.sorted().joined(separator: ", ")): a check of the "
                        + "comparison itself, not of a change.", width: Terminal(quiet: true).width))
        } else if !shared.isEmpty {
            throw CommandFailure(
                description: "run \(shared.sorted().joined(separator: ", ")) is on both sides among other runs: it "
                    + "would be pooled with itself, pulling its cells toward unchanged; name each run on one side only")
        }
        var comparison = RunComparison.compare(
            baseline: before, current: after, metric: metric,
            threshold: (threshold ?? metric.defaultThreshold * 100) / 100,
            level: confidence / 100)
        if comparison.cells.isEmpty {
            throw CommandFailure(
                description: "no \(metric.rawValue) figures in either side"
                    + Self.source(of: metric))
        }
        for (side, runs) in [("baseline", before), ("current", after)]
        where !comparison.cells.contains(where: {
            side == "baseline" ? $0.baseline != nil : $0.current != nil
        }) {
            throw CommandFailure(
                description:
                    "the \(side) (\(runs.map(\.environment.runID).joined(separator: ", "))) has no \(metric.rawValue) figures"
                    + Self.source(of: metric))
        }
        if explain && beforeProfiles.profiles.isEmpty && afterProfiles.profiles.isEmpty {
            throw CommandFailure(description: Self.noProfiles(before + after))
        }
        comparison.explain(baseline: beforeProfiles, current: afterProfiles, all: explain)
        if let stacks { try Self.writeStacks(comparison, beforeProfiles, afterProfiles, into: stacks) }
        switch format.report {
        case .table: print(CompareReport.table(comparison, width: Terminal(quiet: true).width), terminator: "")
        case .markdown: print(CompareReport.markdown(comparison), terminator: "")
        case .csv: print(CompareReport.csv(comparison), terminator: "")
        case .html: print(CompareReport.html(comparison), terminator: "")
        case .export(let export): print(try export.write(ExportPoint.points(comparison)), terminator: "")
        case .json: print(try CompareReport.json(comparison), terminator: "")
        }
        if let markdown {
            do {
                try Data(CompareReport.markdown(comparison).utf8).write(
                    to: URL(fileURLWithPath: markdown), options: .atomic)
            } catch {
                throw CommandFailure(
                    description: "cannot write \(markdown): \(RunFiles.reason(error, writing: markdown))")
            }
        }
        if !comparison.failures.isEmpty { throw BenchExitCode.failedCell.exitCode }
        if !comparison.regressions.isEmpty { throw BenchExitCode.regression.exitCode }
        if comparison.compared.isEmpty && !allowNothingJudged {
            printError(
                Format.wrap(
                    "bench compare: \(CompareReport.judged(comparison)) Exit \(BenchExitCode.nothingJudged.rawValue): a "
                        + "comparison that judged nothing does not pass; --allow-nothing-judged lets it.",
                    width: Terminal(quiet: true).width))
            throw BenchExitCode.nothingJudged.exitCode
        }
    }

    /// Why `--explain` has nothing to explain from: neither side has a profile.
    static func noProfiles(_ runs: [RunResult]) -> String {
        let counted = runs.contains { $0.settings.counter == RunSettings.instructionCounter }
        var text =
            counted
            ? "--explain: neither side's runs have profiles (they were counted by a build that predates them, or "
                + "retention removed them): count both sides again with `bench run --counter instructions`"
            : "--explain: neither side's runs have profiles: they come from counted runs "
                + "(`bench run --counter instructions`)"
        if InstructionCounter.findExecutable("valgrind") == nil {
            text += ", which need valgrind, not installed here (Debian: apt-get install valgrind binutils)"
        }
        return text
    }

    /// Writes the folded stacks of every explained cell into `directory`.
    static func writeStacks(
        _ comparison: RunComparison, _ baseline: SideProfiles, _ current: SideProfiles, into directory: String
    ) throws {
        var left: [ComparisonKey: ParseProfile] = [:]
        var right: [ComparisonKey: ParseProfile] = [:]
        for explanation in comparison.explanations ?? [] {
            // The parses the explanation compared.
            left[explanation.key] = try? baseline.profiles[explanation.key]?
                .first { $0.parse == explanation.baselineParseNumber }?.decoded().profile
            right[explanation.key] = try? current.profiles[explanation.key]?
                .first { $0.parse == explanation.currentParseNumber }?.decoded().profile
        }
        let files = RunFiles(directory: directory)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure(
                description: "cannot create \(directory): \(RunFiles.reason(error, creating: directory))")
        }
        for file in CompareReport.foldedStacks(baseline: left, current: right) {
            do {
                _ = try files.write(file.text, to: file.name)
            } catch {
                throw CommandFailure(description: "\(error)")
            }
        }
    }

    /// Reads a run file, every run file of a directory (sorted by name, that is by time), or runs of
    /// the store by ID; and the runs' profiles (beside the files, or in the store).
    static func load(_ path: String, side: String, store: () throws -> any StatsStoring) throws -> (
        [RunResult], SideProfiles
    ) {
        var profiles = SideProfiles()
        let runs = try loadRuns(path, side: side, store: store) { run, stored in
            let why =
                run.settings.counter == RunSettings.instructionCounter
                ? "a counted run made before profiles were kept, or whose profiles were removed"
                : "not counted (`bench run --counter instructions` keeps profiles)"
            do {
                profiles.add(runID: run.environment.runID, try stored(), whyNone: why)
            } catch {
                profiles.refused.append((run.environment.runID, "\(error)"))
            }
        }
        return (runs, profiles)
    }

    /// The runs of a side; `profiles` is given each run and how to read its profiles.
    static func loadRuns(
        _ path: String, side: String, store: () throws -> any StatsStoring,
        profiles: (RunResult, () throws -> [StoredProfile]) -> Void
    ) throws -> [RunResult] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            let ids = ListArgument.split([path])
            guard !ids.isEmpty, ids.allSatisfy(RunFiles.looksLikeRunID) else {
                throw CommandFailure(
                    description: "\(side): no such file or directory, nor run IDs (like 20261122T033512Z-4f1c): \(path)"
                )
            }
            let store = try store()
            return try ids.map { id in
                guard let run = try store.storedRun(id) else {
                    throw CommandFailure(description: "\(side): no run \(id) in the stats store \(store.location)")
                }
                if let pruned = run.prunedSamples {
                    throw CommandFailure(
                        description: "\(side): the raw samples of run \(id) (\(pruned.samples)) were removed by "
                            + "retention (bench store prune, \(pruned.prunedAt)), and compare needs each worker's "
                            + "samples; its summaries are kept (bench history, bench report). Compare runs that "
                            + "retention kept, or the runs' files (<run-id>.json)")
                }
                // The run's own summaries as it recorded them; the samples for each worker's values.
                let result = RunResult.readBack(
                    run.samples, summaries: try store.cellRecords(of: id)?.map(\.summary),
                    environment: run.environment, settings: run.settings, noise: run.noise, documents: run.documents,
                    notTimed: run.notTimed)
                profiles(result) { run.profiles }
                return result
            }
        }
        let files = isDirectory.boolValue ? RunFiles.runFiles(in: path) : [path]
        guard !files.isEmpty else {
            throw CommandFailure(description: "\(side): no run files (<run-id>.json) in \(path)")
        }
        return try files.map { file in
            do {
                let result = try RunFiles.read(file)
                profiles(result) { try RunFiles.profiles(besideRunFile: file, runID: result.environment.runID) }
                return result
            } catch let failure as RunFiles.Failure {
                throw CommandFailure(description: "\(side): \(failure.description)")
            }
        }
    }
}

extension ComparisonMetric: ExpressibleByArgument {}
