import GRDB
import GRDBSQLite

/// A row of an SQLite statement being stepped, its columns read by position with SQLite's own
/// functions: no `Row` copied, no value boxed, no generic decoding a value.
struct SQLiteColumns: ResultColumns {
    let statement: SQLiteStatement

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8> {
        guard let text = sqlite3_column_text(statement, column) else {
            return UnsafeBufferPointer(start: nil, count: 0)
        }
        return UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column)))
    }

    func integer(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }

    func real(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }

    func boolean(_ column: Int32) -> Bool { sqlite3_column_int64(statement, column) != 0 }

    /// Steps `statement` (with its arguments), handing each row to `body` while it is current.
    static func forEachRow(
        _ statement: SummaryRows.Statement, _ db: Database, _ body: (SQLiteColumns) throws -> Void
    ) throws {
        let prepared = try db.makeStatement(sql: statement.sql)
        let cursor = try Row.fetchCursor(prepared, arguments: StatementArguments(statement.arguments))
        let columns = SQLiteColumns(statement: prepared.sqliteStatement)
        while try cursor.next() != nil { try body(columns) }
    }
}
