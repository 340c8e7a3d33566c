import BenchResults
import Foundation
import GRDB

/// The profiles part of a store (``StatsStoring/profiles(of:)``): one row a counted cell.
enum ProfileRows {
    /// The columns of a row, in the order of the statements below.
    static let columns = "run_id, parser, scenario, feed, chunk_size, network, parse, data"

    static func insert(placeholder: (Int) -> String) -> String {
        "INSERT INTO profiles (\(columns)) VALUES (\((1...8).map(placeholder).joined(separator: ", "))) "
            + "ON CONFLICT (run_id, parser, scenario, feed, chunk_size, network, parse) DO UPDATE SET data = excluded.data"
    }

    /// The values of a profile's row in run `runID`: its cell, its parse, `data` its compressed bytes.
    static func values(_ key: ComparisonKey, parse: Int, runID: String, data: [UInt8]) -> [DatabaseValue] {
        [
            runID.databaseValue, key.parser.databaseValue, key.scenario.name.databaseValue, key.feed.databaseValue,
            key.chunkSize.databaseValue, key.network.databaseValue, parse.databaseValue, Data(data).databaseValue,
        ]
    }

    /// The key of a row read back.
    static func key(parser: String, scenario: String, feed: String, chunkSize: Int, network: String) -> ComparisonKey {
        ComparisonKey(
            parser: parser, scenario: CellScenario(name: scenario), feed: feed, chunkSize: chunkSize, network: network)
    }

    /// The bytes of PostgreSQL's hex output of a BYTEA (`\\x1f8b…`); empty for text of another form
    /// (the profile is then refused as damaged, naming its row).
    static func bytes(hex text: String) -> [UInt8] {
        let digits = Array(text.utf8.dropFirst(2))
        guard text.hasPrefix("\\x"), digits.count % 2 == 0 else { return [] }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return [] }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Where a stored profile is, for messages.
    static func source(_ key: ComparisonKey, parse: Int, runID: String, location: String) -> String {
        "the profile of \(key.parser) (\(key.scenario.name), \(key.feed), parse \(parse)) of run \(runID) in \(location)"
    }
}
