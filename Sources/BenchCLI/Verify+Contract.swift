import ArgumentParser
import BenchEngine
import BenchReports
import FeedParsers
import Foundation

extension Verify {
    /// The parsers `--contract` checks: those named that can be checked, or every one that can.
    ///
    /// - Throws: `ValidationError` when none of those named can be checked (nothing would be).
    static func contractParsers(named names: [String]) throws -> [String] {
        guard !names.isEmpty else { return ContractCheck.defaultParsers }
        let checkable = names.filter { ContractCheck.notCheckable($0) == nil }
        guard !checkable.isEmpty else {
            let why = names.map { "\($0): \(ContractCheck.notCheckable($0) ?? "")" }.joined(separator: "; ")
            throw ValidationError(
                "--contract checks the events a parser reports, and none of the parsers named reports any ("
                    + "\(why)): nothing would be checked. Name an event reader (bench list), or none for all of them")
        }
        return checkable
    }

    /// `bench verify --contract`: checks `parsers` against the handler's contract, prints the report
    /// and throws when a rule is broken or could not be checked.
    ///
    /// - Throws: ``CommandFailure`` (exit status 1) naming the rules broken.
    static func checkContract(
        parsers: [String], skippedNames: [String], runner: ContractCheck.Runner,
        gaps: (String) -> Set<ContractGap> = ContractCheck.registryGaps, width: Int?
    ) throws {
        let rules = HandlerContract.rules
        let documents = HandlerContract.documentRules.count
        let checked = rules.filter { if case .stated = $0.check { false } else { true } }.count
        var heading =
            "Checking the event handler's contract (\(rules.count) rules: \(checked) checked, \(documents) of them over "
            + "a document of their own and the rest over all those documents; \(rules.count - checked) stated) "
            + "on \(parsers.joined(separator: ", ")), against \(ContractCheck.reference)'s events; each document "
            + "whole and byte by byte, in worker processes."
        if !skippedNames.isEmpty {
            heading +=
                " Not checked: "
                + skippedNames.map { "\($0) (\(ContractCheck.notCheckable($0) ?? "nothing to compare"))" }.joined(
                    separator: ", ") + "."
        }
        print(width.map { Format.wrap(heading, width: $0) } ?? heading)
        let report = ContractCheck.check(parsers: parsers, gaps: gaps, runner: runner)
        print(ContractReportText.text(report, width: width))
        guard report.allHold else {
            let broken = report.parsers.filter { !$0.broken.isEmpty }.map { result in
                "\(result.parser) breaks \(result.broken.count) rule\(result.broken.count == 1 ? "" : "s") ("
                    + result.broken.map(\.rule.id).joined(separator: ", ") + ")"
            }
            let unchecked = report.unchecked.isEmpty ? [] : ["\(report.unchecked.count) rule(s) could not be checked"]
            throw CommandFailure(
                description: "the contract does not hold: " + (broken + unchecked).joined(separator: "; "))
        }
        // Every rule skipped for every parser (their gaps cover them all) checked nothing: no success.
        guard report.parsers.contains(where: { !$0.held.isEmpty }) else {
            throw CommandFailure(
                description: "nothing checked: every rule was skipped for every parser named (the reasons above)")
        }
        let skipped = report.parsers.reduce(0) { $0 + $1.skipped.count }
        print(
            "\nEvery rule checked holds for \(parsers.count) parser\(parsers.count == 1 ? "" : "s")"
                + (skipped == 0 ? "." : "; \(skipped) skipped, each with its reason above."))
    }
}

/// The text of `bench verify --contract`.
enum ContractReportText {
    /// Each parser's rules: how many held, each broken one (its statement, its document, the
    /// difference) and each skipped one with its reason; then the rules no document checks.
    static func text(_ report: ContractCheck.Report, width: Int?) -> String {
        func line(_ first: String, _ body: String, indent: Int? = nil) -> String {
            Format.hanging(first, body, indent: indent, width: width)
        }
        var lines: [String] = []
        for unchecked in report.unchecked {
            lines.append(line("", "NOT CHECKED \(unchecked.rule.id): \(unchecked.reason)"))
        }
        for result in report.parsers {
            lines.append("")
            let checked = result.held.count + result.broken.count
            var summary =
                result.broken.isEmpty
                ? "\(result.parser): all \(checked) rules checked hold"
                : "\(result.parser): \(result.broken.count) of \(checked) rules checked broken"
            if result.parser == report.reference { summary += " (the reference: its own events)" }
            if !result.skipped.isEmpty { summary += ", \(result.skipped.count) skipped" }
            lines.append(line("", summary))
            for broken in result.broken {
                lines.append(line("  BROKEN ", "\(broken.rule.id): \(broken.rule.statement)", indent: 4))
                let document = VisibleText.escaped(String(decoding: broken.document, as: UTF8.self), limit: 200)
                lines.append(line("    document: ", "\"\(document)\"", indent: 6))
                lines.append(line("    ", broken.detail, indent: 6))
            }
            for skipped in result.skipped {
                lines.append(line("  skipped ", "\(skipped.rule.id): \(skipped.reason)", indent: 4))
            }
        }
        let stated = HandlerContract.rules.compactMap { rule -> String? in
            guard case .stated(let why) = rule.check else { return nil }
            return "\(rule.id) (\(why))"
        }
        if !stated.isEmpty {
            lines.append("")
            lines.append(line("", "Stated, not checked by a document: " + stated.joined(separator: "; ") + "."))
        }
        return lines.joined(separator: "\n")
    }
}
