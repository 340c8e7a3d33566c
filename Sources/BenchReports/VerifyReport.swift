/// The text `bench verify` prints for one feed: its heading and a row per parser.
///
/// The CLI gives it the feed and each parser's verdict as words (``Row``); what a verdict means is
/// the engine's (`ParserVerdict`).
public enum VerifyReport {
    /// One parser's line: its name, what it built, the digest of it and what was found.
    public struct Row: Sendable, Equatable {
        public var parser: String
        /// The songs or events it built; `nil`: none (it failed).
        public var count: Int?
        public var digest: String?
        /// The verdict in words (`agrees`, `DIFFERS: …`).
        public var result: String
        /// Whether the verdict is a problem: one said in the same words by several parsers is
        /// written out once, at the first of them.
        public var isProblem: Bool

        public init(parser: String, count: Int?, digest: String?, result: String, isProblem: Bool) {
            self.parser = parser
            self.count = count
            self.digest = digest
            self.result = result
            self.isProblem = isProblem
        }
    }

    /// The feed's heading and a row per parser, broken at `width` (a row's result continues under
    /// the result column, so the other columns stay aligned); `nil`: one line each.
    ///
    /// - Parameters:
    ///   - path: the feed's path.
    ///   - bytes: its size.
    ///   - sha256: its SHA-256 (the heading shows the first 16 digits).
    ///   - countedNoun: what a row's count counts (`songs`, `events`).
    ///   - rows: the parsers asked for.
    ///   - confirmers: the parsers checked beside them to confirm the answer.
    ///   - width: the terminal's width; `nil`: one line a row.
    /// - Returns: the lines, the first one empty (a feed's block follows the one before it).
    public static func text(
        path: String, bytes: Int, sha256: String, countedNoun: String, rows: [Row], confirmers: [Row],
        width: Int? = nil
    ) -> String {
        let heading = "\(path)  (\(bytes) bytes, sha256 \(sha256.prefix(16))…)"
        var lines = ["", width.map { Format.wrap(heading, width: $0) } ?? heading]
        let nameWidth = max(8, (rows + confirmers).map(\.parser.count).max() ?? 0)
        lines.append(
            "  " + pad("parser", nameWidth) + "  " + pad(countedNoun, 7) + "  " + pad("digest", 18) + "  result")
        // A problem said by several parsers in the same words is written out once, at the first of
        // them: on a document that is not a feed, ten parsers say "no songs: …" alike.
        var firstToSay: [String: String] = [:]
        func line(_ row: Row) -> String {
            let count = row.count.map(String.init) ?? "-"
            let digest = row.digest.map { String($0.prefix(16)) + "…" } ?? "-"
            var result = row.result
            if row.isProblem {
                if let first = firstToSay[result], let colon = result.firstIndex(of: ":") {
                    result = "\(result[..<colon]): the same as \(first)"
                } else {
                    firstToSay[result] = row.parser
                }
            }
            return Format.hanging(
                "  " + pad(row.parser, nameWidth) + "  " + pad(count, 7) + "  " + pad(digest, 18) + "  ",
                result, width: width)
        }
        lines += rows.map(line)
        if !confirmers.isEmpty {
            let note =
                "  checked beside them to confirm the answer (parsers that meet the whole contract on this input):"
            lines.append(width.map { Format.wrap(note, width: $0) } ?? note)
            lines += confirmers.map(line)
        }
        return lines.joined(separator: "\n")
    }

    /// The line the summary of a failed check gives the feed: its first problem, or that no parser
    /// succeeded.
    public static func firstProblem(path: String, rows: [Row]) -> String {
        rows.first(where: \.isProblem).map { "\(path): \($0.parser) \($0.result)" } ?? "\(path): no parser succeeded"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
