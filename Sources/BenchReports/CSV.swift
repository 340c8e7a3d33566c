import Foundation

/// RFC 4180 CSV: fields with a comma, a double quote, CR or LF are quoted, quotes doubled, CRLF line ends.
public enum CSV {
    public static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    public static func row(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    public static func document(header: [String], rows: [[String]]) -> String {
        row(header) + rows.map(row).joined()
    }
}
