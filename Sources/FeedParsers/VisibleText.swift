/// Text as a report of a difference shows it: every character that a terminal would not show, or
/// would show as another, escaped, so that two texts that differ never read the same.
///
/// A line feed, a carriage return and a tab are `\n`, `\r` and `\t`, a backslash `\\`; every other
/// control character, and whitespace or invisible characters beyond ASCII's space (no-break space,
/// zero-width space, byte order mark, line separator…), are `U+00A0` style. Other text is itself.
package enum VisibleText {
    /// `text` escaped, cut after `limit` characters (Unicode scalars) with "…".
    package static func escaped(_ text: String, limit: Int = 80) -> String {
        let scalars = Array(text.unicodeScalars)
        let shown = scalars.count > limit ? scalars[..<limit] : scalars[...]
        return escaped(shown) + (scalars.count > limit ? "…" : "")
    }

    /// The scalars escaped, uncut.
    package static func escaped(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var out = ""
        for scalar in scalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\\": out += "\\\\"
            default:
                if isHidden(scalar) {
                    out += "U+" + hex(scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Where two texts first differ, as a few characters of each around it and its line and column
    /// (both from 1, lines counted by line feed, columns in Unicode scalars); `nil` when they are equal.
    package static func firstDifference(_ ours: String, _ theirs: String) -> Difference? {
        let a = Array(ours.unicodeScalars)
        let b = Array(theirs.unicodeScalars)
        let common = zip(a, b).prefix { $0 == $1 }.count
        guard common < a.count || common < b.count else { return nil }
        var line = 1
        var column = 1
        for scalar in a[..<common] {
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        func around(_ scalars: [Unicode.Scalar]) -> String {
            let start = max(0, common - 20)
            let end = min(scalars.count, common + 40)
            return (start > 0 ? "…" : "") + escaped(scalars[start..<end]) + (end < scalars.count ? "…" : "")
        }
        return Difference(line: line, column: column, ours: around(a), theirs: around(b))
    }

    /// Where two texts first differ: its line and column, and each text around it, escaped.
    package struct Difference: Equatable, Sendable {
        package var line: Int
        package var column: Int
        package var ours: String
        package var theirs: String
    }

    /// Whether a terminal would show `scalar` as nothing, or as a plain space.
    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == " " { return false }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator, .surrogate, .privateUse,
            .unassigned:
            return true
        default:
            return properties.isWhitespace || properties.isDefaultIgnorableCodePoint
        }
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
