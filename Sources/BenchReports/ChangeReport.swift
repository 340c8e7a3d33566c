import BenchResults
import Foundation

/// `bench history`: where each series of per-run figures shifted (`RunSeries`), as a table,
/// Markdown or JSON.
public enum ChangeReport {
    /// The method, said under every table.
    public static func method(_ method: ChangePoints) -> String {
        "E-Divisive means (Matteson & James 2014) on the logarithm of each run's median, "
            + "\(method.permutations) permutations, a change kept at p < \(Format.number(method.significance, decimals: 3)), "
            + "at least \(method.minimumSegment) runs on either side; the shift is the runs after ÷ the runs before "
            + "(up to the neighbouring changes), Hodges–Lehmann with its 95% interval."
    }

    static func name(_ series: RunSeries) -> String {
        var parts = [series.parser, series.scenario.name, Format.feedName(series.feedPath)]
        if series.chunkSize > 0 { parts.append("\(series.chunkSize) B chunks") }
        if !series.network.isEmpty { parts.append(series.network) }
        return parts.joined(separator: ", ")
    }

    static func shiftText(_ shift: RunSeries.Shift) -> String {
        func percent(_ ratio: Double) -> String {
            (ratio >= 1 ? "+" : "−") + Format.number(abs(ratio - 1) * 100, decimals: 1) + "%"
        }
        return "\(percent(shift.ratio)) (\(percent(shift.low)) to \(percent(shift.high)))"
    }

    static func commit(_ commit: String?) -> String {
        commit.map { String($0.prefix(10)) } ?? "unknown"
    }

    /// The terminal's report: a line per series (its runs and whether it shifted), two per change
    /// (where, then how much), the method.
    ///
    /// - Parameters:
    ///   - series: the series, with their shifts found.
    ///   - method: the method that found them.
    ///   - width: the terminal's width, to wrap every line at; `nil`: one line each.
    /// - Returns: the report's text.
    public static func table(_ series: [RunSeries], method: ChangePoints, width: Int? = nil) -> String {
        guard !series.isEmpty else { return "No stored runs match.\n" }
        var lines: [String] = []
        let shifted = series.filter { !$0.shifts.isEmpty }
        // A series with too few runs was not searched: the headline counts the searched ones, never
        // "0 shifted" for series it could not tell about.
        let needed = 2 * method.minimumSegment
        let tooFew = series.filter { $0.shifts.isEmpty && $0.points.count < needed }.count
        let metric = "(metric: \(series.first?.metric.name ?? ""))"
        if tooFew == series.count {
            lines.append(
                "None of the \(series.count) series has the runs to tell a shift (\(needed) needed): nothing was "
                    + "searched \(metric).")
        } else {
            let unsearched = tooFew > 0 ? "; \(tooFew) more had too few runs to tell (\(needed) needed)" : ""
            lines.append("\(shifted.count) of \(series.count - tooFew) series searched shifted\(unsearched) \(metric).")
        }
        lines.append("")
        for item in series {
            let place = item.host.isEmpty ? "" : " on \(item.host)"
            if item.shifts.isEmpty {
                let note =
                    item.points.count < 2 * method.minimumSegment
                    ? "too few runs to tell (\(item.points.count); \(2 * method.minimumSegment) needed)"
                    : "no change in \(searched(item))"
                lines.append("\(name(item))\(place): \(note)")
                continue
            }
            lines.append("\(name(item))\(place): \(item.shifts.count) change(s) in \(searched(item))")
            for shift in item.shifts {
                lines.append(
                    "  at run \(shift.index + 1), \(shift.runID) (commit \(commit(shift.commit)); the run before: "
                        + "\(shift.previousRunID), commit \(commit(shift.previousCommit))):")
                lines.append(
                    "    \(shiftText(shift)), p = \(Format.number(shift.pValue, decimals: 3)), "
                        + "\(shift.runsBefore) runs before, \(shift.runsAfter) after")
            }
        }
        lines.append("")
        lines.append("Method: " + self.method(method))
        let text = lines.joined(separator: "\n") + "\n"
        return width.map { Format.wrap(text, width: $0) } ?? text
    }

    /// The runs a series was searched over: "12 runs", or "the newest 200 of 3,333 runs".
    static func searched(_ series: RunSeries) -> String {
        guard let from = series.searchedFrom else { return "\(series.points.count) runs" }
        return "the newest \(series.points.count - from) of \(series.points.count) runs"
    }

    /// A Markdown table of the shifts (and a line for the series without).
    public static func markdown(_ series: [RunSeries], method: ChangePoints) -> String {
        var rows: [[String]] = []
        for item in series {
            if item.shifts.isEmpty {
                rows.append([
                    name(item), item.host, item.searchedFrom == nil ? "\(item.points.count)" : searched(item), "none",
                    "", "", "",
                ])
            }
            for shift in item.shifts {
                rows.append([
                    name(item), item.host, "\(item.points.count)", "\(shift.index + 1) (`\(shift.runID)`)",
                    "`\(commit(shift.commit))`", shiftText(shift), Format.number(shift.pValue, decimals: 3),
                ])
            }
        }
        let header = ["series", "host", "runs", "change at run", "commit", "shift (95% interval)", "p"]
        let text = MarkdownTable.render(header: header, rows: rows, rightAligned: [2, 6]) + "\n"
        return text + "\n" + self.method(method) + "\n"
    }

    /// The series with their points and shifts, and the method's settings.
    public static func json(_ series: [RunSeries], method: ChangePoints) throws -> String {
        struct Document: Encodable {
            var method: String
            var significance: Double
            var permutations: Int
            var minimumSegment: Int
            var newestRuns: Int
            var series: [RunSeries]
        }
        let document = Document(
            method: "e-divisive-means", significance: method.significance, permutations: method.permutations,
            minimumSegment: method.minimumSegment, newestRuns: method.newestRuns, series: series)
        return try JSONDocument.text(document)
    }
}
