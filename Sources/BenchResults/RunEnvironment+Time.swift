import Foundation

extension RunEnvironment {
    /// When the run started, read from ``startedAt`` (written with fractional seconds; the files of
    /// older builds have none).
    public var startDate: Date? { Self.date(iso8601: startedAt) }

    /// A time as runs write it (``startedAt``, ``endedAt``): ISO 8601 UTC with fractional seconds.
    public static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// A time written in ISO 8601 UTC, with or without fractional seconds.
    public static func date(iso8601 text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    /// The format of the time that opens every run ID ("20261122T033512Z" of "20261122T033512Z-4f1c").
    public static func runIDTimeFormatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter
    }

    /// When a run started, to the second, read from its ID; `nil` for an ID not made by `bench run`.
    public static func startDate(ofRunID runID: String) -> Date? {
        guard runID.count > 16, runID.dropFirst(16).first == "-" else { return nil }
        return runIDTimeFormatter().date(from: String(runID.prefix(16)))
    }
}
