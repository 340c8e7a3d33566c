import Foundation

/// HTTP dates (RFC 9110 IMF-fixdate): "Sun, 06 Nov 1994 08:49:37 GMT".
public enum HTTPDate {
    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }

    public static func format(_ date: Date) -> String { formatter().string(from: date) }

    public static func parse(_ text: String) -> Date? { formatter().date(from: text) }
}
