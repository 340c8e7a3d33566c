/// A calendar date (no time, no time zone), as an iTunes feed's `itms:releasedate` gives it.
///
/// Every parser adapter converts `itms:releasedate` with the same function,
/// ``SongDate/init(feedText:)-(UnsafeRawBufferPointer)``, so that no parser does more or less work than another.
public struct SongDate: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Makes a date from its parts, or returns `nil` when they do not name a real day of the
    /// proleptic Gregorian calendar (years 1 to 9999).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            day >= 1, day <= SongDate.daysIn(month: month, year: year)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses the feeds' forms: RSS's "July 10, 2012" (an English month name, the day, a comma, the
    /// year) and Atom's `im:releaseDate`, "2013-06-24T00:00:00-07:00" (the date as written, the time
    /// after a `T` not read).
    ///
    /// Leading and trailing XML white space is ignored; anything else that is not exactly one of
    /// those forms, or a day that does not exist (February 30), gives `nil`, never a crash. No
    /// allocation: every parser adapter calls this once per song, inside the timed region.
    ///
    /// - Parameter bytes: the UTF-8 text of the element.
    public init?(feedText bytes: UnsafeRawBufferPointer) {
        var scanner = ByteScanner(bytes)
        scanner.skipSpaces()
        if scanner.startsWithDigit {
            // "YYYY-MM-DD", then nothing or "T" and the time.
            guard let year = scanner.number(exactDigits: 4), scanner.take(UInt8(ascii: "-")),
                let month = scanner.number(exactDigits: 2), scanner.take(UInt8(ascii: "-")),
                let day = scanner.number(exactDigits: 2)
            else { return nil }
            if !scanner.take(UInt8(ascii: "T")) {
                scanner.skipSpaces()
                guard scanner.isAtEnd else { return nil }
            }
            self.init(year: year, month: month, day: day)
            return
        }
        guard let month = scanner.monthName() else { return nil }
        guard scanner.skipSpaces() > 0, let day = scanner.number(maxDigits: 2) else { return nil }
        guard scanner.take(UInt8(ascii: ",")) else { return nil }
        scanner.skipSpaces()
        guard let year = scanner.number(maxDigits: 4) else { return nil }
        scanner.skipSpaces()
        guard scanner.isAtEnd else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// Parses the feed's form from UTF-8 bytes; see ``init(feedText:)-(UnsafeRawBufferPointer)``.
    public init?(feedText bytes: [UInt8]) {
        guard let date = bytes.withUnsafeBytes({ SongDate(feedText: $0) }) else { return nil }
        self = date
    }

    /// Parses the feed's form from a string; see ``init(feedText:)-(UnsafeRawBufferPointer)``.
    public init?(feedText text: String) {
        var text = text
        guard let date = text.withUTF8({ SongDate(feedText: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = date
    }

    /// Parses "YYYY-MM-DD", the form of ``description`` and of the JSON encoding.
    package init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// "YYYY-MM-DD".
    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// The feed's form of this date, "July 10, 2012".
    package var feedText: String {
        "\(SongDate.monthNames[month - 1]) \(day), \(year)"
    }

    public static func < (lhs: SongDate, rhs: SongDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = SongDate(iso: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(text)\" is not a date in the form YYYY-MM-DD")
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// English month names, January first.
    package static let monthNames = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2:
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            return leap ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// A forward-only reader over UTF-8 bytes for ``SongDate``'s parser.
///
/// It allocates nothing.
private struct ByteScanner {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { index == bytes.count }

    /// Skips XML white space (space, tab, CR, LF) and returns how many bytes it skipped.
    @discardableResult
    mutating func skipSpaces() -> Int {
        let start = index
        while index < bytes.count,
            bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D
        {
            index += 1
        }
        return index - start
    }

    var startsWithDigit: Bool { index < bytes.count && bytes[index] >= 0x30 && bytes[index] <= 0x39 }

    /// Reads exactly `count` ASCII digits (no more follow).
    mutating func number(exactDigits count: Int) -> Int? {
        let start = index
        guard let value = number(maxDigits: count), index - start == count else { return nil }
        return value
    }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Reads 1 to `maxDigits` ASCII digits; more digits than that is not a number of this form.
    mutating func number(maxDigits: Int) -> Int? {
        var value = 0
        var digits = 0
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            digits += 1
            if digits > maxDigits { return nil }
            value = value * 10 + Int(bytes[index] - 0x30)
            index += 1
        }
        return digits == 0 ? nil : value
    }

    /// Reads an English month name (ASCII letters, compared exactly) and returns 1 to 12.
    mutating func monthName() -> Int? {
        let start = index
        while index < bytes.count, index - start <= 9,
            (bytes[index] >= 0x41 && bytes[index] <= 0x5A) || (bytes[index] >= 0x61 && bytes[index] <= 0x7A)
        {
            index += 1
        }
        let length = index - start
        guard length >= 3, length <= 9 else { return nil }  // "May" to "September"
        month: for (offset, name) in SongDate.monthNames.enumerated() where name.utf8.count == length {
            var position = start
            for byte in name.utf8 {
                guard bytes[position] == byte else { continue month }
                position += 1
            }
            return offset + 1
        }
        return nil
    }
}
