import BenchResults
import Foundation

/// How figures are written: milliseconds with three decimals, MiB for memory.
public enum Format {
    /// Nanoseconds as milliseconds, "3.412".
    public static func ms(_ ns: Double?, decimals: Int = 3) -> String {
        number(ns.map { $0 / 1e6 }, decimals: decimals)
    }

    /// Bytes as MiB (2^20 bytes), "12.4".
    public static func mib(_ bytes: Double?, decimals: Int = 1) -> String {
        number(bytes.map { $0 / 1_048_576 }, decimals: decimals)
    }

    /// A plain number with the given decimals ("0.0", never "-0.0").
    public static func number(_ value: Double?, decimals: Int = 1) -> String {
        guard let value else { return "" }
        let text = String(format: "%.\(decimals)f", value)
        return text.hasPrefix("-") && text.dropFirst().allSatisfy({ $0 == "0" || $0 == "." })
            ? String(text.dropFirst()) : text
    }

    /// The last path component of a feed, for narrow columns.
    public static func feedName(_ path: String) -> String {
        (path as NSString).lastPathComponent
    }

    /// `body` after `first`, broken to `width`, its continuations indented by `indent` spaces (by
    /// as many as `first` has characters unless asked; never fewer): a table row whose last column
    /// is text keeps its other columns aligned.
    public static func hanging(_ first: String, _ body: String, indent: Int? = nil, width: Int?) -> String {
        guard let width else { return first + body }
        let spaces = String(repeating: " ", count: max(first.count, indent ?? 0))
        return first + wrap(spaces + body, width: width).dropFirst(spaces.count)
    }

    /// `text` with each of its lines broken at spaces to at most `width` characters (a word longer
    /// than that stays whole); lines that begin with spaces keep that indent on their continuations.
    public static func wrap(_ text: String, width: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { (line: Substring) -> String in
            guard line.count > width else { return String(line) }
            let indent = String(repeating: " ", count: line.prefix(while: { $0 == " " }).count)
            var lines: [String] = []
            var current = indent
            for word in line.dropFirst(indent.count).split(separator: " ") {
                if current.count > indent.count, current.count + 1 + word.count > width {
                    lines.append(current)
                    current = indent
                }
                current += (current.count > indent.count ? " " : "") + word
            }
            lines.append(current)
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }
}

/// A text table with aligned columns (numbers right-aligned).
struct TextTable {
    var header: [String]
    var rows: [[String]]
    /// Columns aligned left (the others align right).
    var leftAligned: Set<Int> = [0]

    /// The columns several fitted tables went without, in `order`, for a note under them: those
    /// hidden in every table, then "in the wider tables only, …" for those a narrower table kept;
    /// `nil` when none was hidden.
    static func hiddenColumns(_ droppedByTable: [[String]], order: [String]) -> String? {
        let hidden = order.filter { column in droppedByTable.contains { $0.contains(column) } }
        guard !hidden.isEmpty else { return nil }
        let everywhere = hidden.filter { column in droppedByTable.allSatisfy { $0.contains(column) } }
        let somewhere = hidden.filter { !everywhere.contains($0) }
        let parts =
            (everywhere.isEmpty ? [] : [everywhere.joined(separator: ", ")])
            + (somewhere.isEmpty ? [] : ["in the wider tables only, " + somewhere.joined(separator: ", ")])
        return parts.joined(separator: "; ")
    }

    /// The table within `width` characters a line (with `indent`): first without the columns that
    /// are empty in every row, then without the columns `dropOrder` names, in its order, until it
    /// fits (or none is left to drop).
    ///
    /// - Returns: the table, and the headers of the columns it dropped that had figures.
    func fitted(width: Int, indent: String = "", dropOrder: [String]) -> (table: TextTable, dropped: [String]) {
        var table = self
        for column in table.header.indices.reversed() where column > 0 {
            if table.rows.allSatisfy({ column >= $0.count || $0[column].isEmpty }) { table.remove(column) }
        }
        var dropped: [String] = []
        for name in dropOrder {
            guard table.widest(indent: indent) > width else { break }
            guard let column = table.header.firstIndex(of: name), column > 0 else { continue }
            table.remove(column)
            dropped.append(name)
        }
        return (table, dropped)
    }

    /// Its widest line, rendered with `indent`.
    func widest(indent: String = "") -> Int {
        render(indent: indent).split(separator: "\n").map(\.count).max() ?? 0
    }

    private mutating func remove(_ column: Int) {
        header.remove(at: column)
        rows = rows.map { row in
            var row = row
            if column < row.count { row.remove(at: column) }
            return row
        }
        leftAligned = Set(leftAligned.compactMap { $0 == column ? nil : $0 > column ? $0 - 1 : $0 })
    }

    /// Each column's width: its widest cell, header included.
    func columnWidths() -> [Int] {
        header.indices.map { column in
            ([header[column]] + rows.map { column < $0.count ? $0[column] : "" }).map(\.count).max() ?? 0
        }
    }

    func render(indent: String = "") -> String {
        let widths = columnWidths()
        func line(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { column, cell -> String in
                let gap = String(repeating: " ", count: max(0, widths[column] - cell.count))
                return leftAligned.contains(column) ? cell + gap : gap + cell
            }
            return indent
                + padded.joined(separator: "  ").replacingOccurrences(
                    of: "\\s+$", with: "", options: .regularExpression)
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n")
    }
}

/// A Markdown table (pipes in cells escaped).
enum MarkdownTable {
    /// Text for a Markdown line outside a table: no characters that start markup by accident.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "|", with: "\\|")
    }

    static func render(header: [String], rows: [[String]], rightAligned: Set<Int>) -> String {
        func line(_ cells: [String]) -> String {
            "| "
                + cells.map { $0.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ") }
                .joined(separator: " | ") + " |"
        }
        let rule = "|" + header.indices.map { rightAligned.contains($0) ? "---:" : "---" }.joined(separator: "|") + "|"
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }
}
