import Foundation

/// JSON as every report and export of the suite writes it: pretty-printed, keys sorted, slashes
/// not escaped, dates in ISO 8601, a line feed at the end (as ``CSV`` is its CSV).
public enum JSONDocument {
    /// `value` as a JSON document.
    ///
    /// - Throws: `EncodingError` when a value cannot be encoded (a non-finite number).
    public static func text(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }
}
