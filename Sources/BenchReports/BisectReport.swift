import BenchResults
import Foundation

/// `bench bisect`'s report: the ends' counts, every probe with its counts and times, then each
/// commit found with its explanation; JSON for tools.
public enum BisectReport {
    /// The report for a terminal (`width`: its columns, or `nil` for whole lines).
    public static func text(_ result: BisectResult, width: Int?) -> String {
        func wrap(_ line: String) -> String { width.map { Format.wrap(line, width: $0) } ?? line }
        var text =
            wrap(
                "bench bisect: \(result.range) commit\(result.range == 1 ? "" : "s") after \(result.good.short) up to "
                    + "\(result.bad.short), threshold \(percent(result.threshold)); one counted parse a commit, after a "
                    + "warm-up.") + "\n"
        if !result.cells.isEmpty {
            text += "\nCounts at the ends:\n"
            text +=
                TextTable(
                    header: ["parser", "good \(result.good.short)", "bad \(result.bad.short)", "change", ""],
                    rows: result.cells.map {
                        [
                            $0.parser, CellExplanation.grouped($0.good), CellExplanation.grouped($0.bad),
                            CellExplanation.percent($0.bad - $0.good, of: $0.good), $0.moved ? "moved" : "",
                        ]
                    }, leftAligned: [0, 4]
                ).render(indent: "  ") + "\n"
        }
        let parsers = result.cells.filter(\.moved).map(\.parser)
        if !result.probes.isEmpty {
            text += "\nProbes, in the order made (\(result.probesBetween) between the ends):\n"
            let header = ["#", "commit", "subject"] + parsers + ["build s", "count s"]
            let rows = result.probes.enumerated().map { index, probe -> [String] in
                [String(index + 1), probe.commit.short, String(probe.commit.subject.prefix(36))]
                    + parsers.map { parser in probe.counts?[parser].map(CellExplanation.grouped) ?? "skipped" }
                    + [String(format: "%.1f", probe.buildSeconds), String(format: "%.1f", probe.countSeconds)]
            }
            text += TextTable(header: header, rows: rows, leftAligned: [1, 2]).render(indent: "  ") + "\n"
            for probe in result.probes {
                if let why = probe.skipped { text += wrap("  \(probe.commit.short) skipped: \(why)") + "\n" }
            }
            let build = result.probes.reduce(0) { $0 + $1.buildSeconds }
            let count = result.probes.reduce(0) { $0 + $1.countSeconds }
            text +=
                "  In all: \(String(format: "%.1f", build)) s of builds, \(String(format: "%.1f", count)) s of counts.\n"
        }
        if let signal = result.interrupted {
            text +=
                "\n"
                + wrap(
                    "Interrupted by \(signal): the probes above are what was found; the worktree is removed, the repository as it was."
                ) + "\n"
        }
        if result.cells.allSatisfy({ !$0.moved }) && result.interrupted == nil {
            text +=
                "\n"
                + wrap(
                    "Nothing moved by \(percent(result.threshold)) or more between \(result.good.short) and \(result.bad.short)."
                ) + "\n"
        }
        if !result.steps.isEmpty {
            text += "\nFound \(result.steps.count) commit\(result.steps.count == 1 ? "" : "s"):\n"
        }
        for step in result.steps {
            text += "\n" + wrap("  \(step.commit.hash) \(step.commit.subject)") + "\n"
            for cell in step.cells where cell.moved {
                text +=
                    "    \(cell.parser): \(CellExplanation.grouped(cell.good)) → \(CellExplanation.grouped(cell.bad)) "
                    + "(\(CellExplanation.percent(cell.bad - cell.good, of: cell.good))) against \(step.parent.short)\n"
            }
            for explanation in step.explanations {
                text += CompareReport.explanationBlock(explanation, width: width, indent: "    ")
            }
            for line in step.unexplained { text += wrap("    not explained: \(line)") + "\n" }
        }
        for stretch in result.unresolved {
            text += "\n" + wrap("  Between \(stretch.from.short) and \(stretch.to.short): \(stretch.reason).") + "\n"
        }
        return text
    }

    /// The result as JSON.
    public static func json(_ result: BisectResult) throws -> String {
        try JSONDocument.text(result)
    }

    static func percent(_ fraction: Double) -> String { CompareReport.percent(fraction) }
}
