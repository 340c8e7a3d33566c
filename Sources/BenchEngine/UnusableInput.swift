import BenchResults
import FeedParsers
import Foundation

/// An input that no parser could read, and what is wrong with it in words a person can act on:
/// `bench run` stops after the agreement check on such an input, before anything is measured.
///
/// ```swift
/// if let unusable = UnusableInput(check, workload: .songs, timed: agreeing) { print(unusable) }
/// // "empty.xml: the file is empty (0 bytes): there is nothing to parse"
/// ```
package struct UnusableInput: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input's path.
    package var path: String
    /// What is wrong with it.
    package var reason: String

    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// "empty.xml: the file is empty (0 bytes): there is nothing to parse".
    package var description: String { "\(path): \(reason)" }

    /// The input of `check` when no parser that builds songs (or reports events) can be timed on it
    /// and at least one rejected it; `nil` when some parser can be timed on it, or when every
    /// parser that did not succeed crashed or ran out of time or memory (the input may be fine,
    /// the limits not).
    ///
    /// - Parameters:
    ///   - check: the agreement check of one input.
    ///   - workload: what the parsers build (songs: a document with no item is not a feed).
    package init?(_ check: BenchRunner.FeedCheck, workload: Workload) {
        let verification = check.verification
        let compared = (verification.verdicts + verification.confirmers).filter { verdict in
            switch verdict.status {
            case .notCompared, .notApplicable: return false
            default: return true
            }
        }
        let timed = Set(check.agreeing)
        guard
            !compared.contains(where: { timed.contains($0.parser) }),
            let rejection = Self.bestRejection(compared)
        else { return nil }
        path = check.feed.path
        reason = Self.describe(check.feed.bytes, rejection: rejection, workload: workload)
        // A lenient parser that read it, alone: its answer is not one to time.
        let unconfirmed = compared.filter { verdict in
            if case .unverified = verdict.status { return true }
            return false
        }.map(\.parser)
        if !unconfirmed.isEmpty {
            reason +=
                "; only \(unconfirmed.joined(separator: ", ")) read it, and no other parser confirms that answer "
                + "(UNVERIFIED: timed only when --allow-unverified names it)"
        }
    }

    /// The rejection that says most: a library's own message with a position, expat's and libxml2's
    /// first (they name the token and count lines as an editor does).
    static func bestRejection(_ verdicts: [ParserVerdict]) -> FeedParseError? {
        let errors = verdicts.compactMap { verdict -> FeedParseError? in
            if case .failed(let error) = verdict.status { return error }
            return nil
        }
        let order = ["expat", "c-expat", "libxml2", "c-libxml2", "libxml2-dom"]
        return errors.min { a, b in
            let rankA = (a.line > 0 ? 0 : 100) + (order.firstIndex(of: a.parser) ?? order.count)
            let rankB = (b.line > 0 ? 0 : 100) + (order.firstIndex(of: b.parser) ?? order.count)
            return rankA < rankB
        }
    }

    /// What is wrong with `bytes`: first what the bytes themselves show (empty, white space only,
    /// a known binary format, text that does not start with `<`), then the parser's rejection.
    static func describe(_ bytes: [UInt8], rejection: FeedParseError, workload: Workload) -> String {
        if bytes.isEmpty { return "the file is empty (0 bytes): there is nothing to parse" }
        let whiteSpace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        if bytes.allSatisfy(whiteSpace.contains) {
            return "the file holds only white space (\(bytes.count) bytes): there is no XML in it"
        }
        if let format = binaryFormat(bytes) {
            return "not XML: \(format) (it starts with the bytes "
                + bytes.prefix(4).map { String(format: "%02X", $0) }.joined(separator: " ") + ")"
        }
        // Text after any byte-order mark and white space: XML starts with '<'.
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let utf16 = bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE])
        while !utf16, start < bytes.count, whiteSpace.contains(bytes[start]) { start += 1 }
        if !utf16, start < bytes.count, bytes[start] != UInt8(ascii: "<") {
            if bytes.prefix(4096).contains(0) {
                return "not XML: binary data (a NUL byte in its first bytes), where XML is text starting with '<'"
            }
            let line = bytes[start...].prefix { $0 != 0x0A && $0 != 0x0D }.prefix(40)
            let text = String(decoding: line, as: UTF8.self)
            return "not XML: it starts with \"\(text)\", where XML starts with '<' (\(rejection))"
        }
        if rejection.notAFeed == true || rejection.message.hasPrefix(FeedVerifier.noSongsMessage) {
            return workload == .songs
                ? "XML, but not a feed: it has no RSS `item` or Atom `entry` (for any other XML, use --workload document)"
                : "XML, but \(rejection.parser) could not walk it: \(rejection.message)"
        }
        let lines = bytes.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        let atTheEnd = rejection.line >= lines && rejection.line > 0
        return
            (atTheEnd
            ? "not well-formed XML: it ends before its root element is closed (cut short?): "
            : "not well-formed XML: ") + "\(rejection)"
    }

    /// The name of a binary format `bytes` starts like, if any.
    static func binaryFormat(_ bytes: [UInt8]) -> String? {
        let signatures: [([UInt8], String)] = [
            ([0x89, 0x50, 0x4E, 0x47], "a PNG image"), ([0xFF, 0xD8, 0xFF], "a JPEG image"),
            (Array("GIF8".utf8), "a GIF image"), (Array("%PDF".utf8), "a PDF document"),
            ([0x50, 0x4B, 0x03, 0x04], "a ZIP archive (an .xlsx or .docx is one: unzip it first)"),
            ([0x1F, 0x8B], "gzip-compressed data (gunzip it first)"), ([0x7F, 0x45, 0x4C, 0x46], "an ELF executable"),
            (Array("SQLite format 3".utf8), "an SQLite database"), ([0x28, 0xB5, 0x2F, 0xFD], "zstd-compressed data"),
            ([0x42, 0x5A, 0x68], "bzip2-compressed data"), ([0xFD, 0x37, 0x7A, 0x58, 0x5A], "xz-compressed data"),
        ]
        return signatures.first { bytes.starts(with: $0.0) }?.1
    }
}
