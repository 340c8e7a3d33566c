import CLibPQ
import Foundation
import GRDB

/// One connection to a PostgreSQL server through libpq, used from one thread at a time (a lock
/// serialises callers): statements with parameters, rows as GRDB `Row`s, transactions.
///
/// Parameters and results travel as text, as psql's do; a result's columns are turned back into
/// integers, reals and booleans by their types, so the stats store's GRDB records decode them as
/// they decode SQLite's rows.
final class PostgresConnection: @unchecked Sendable {
    /// libpq's connection; `nil` once closed.
    ///
    /// Every use holds `lock`.
    private var connection: OpaquePointer?
    private let lock = NSRecursiveLock()
    /// The URL without any password, for messages.
    let location: String

    /// Connects, with libpq's own reading of the URL and of PGPASSWORD, ~/.pgpass, PGSSLMODE….
    init(url: String, location: String) throws {
        self.location = location
        // A server that does not answer is an error after 10 s, not a hang (unless PGCONNECT_TIMEOUT
        // or the URL's connect_timeout says otherwise).
        setenv("PGCONNECT_TIMEOUT", "10", 0)
        guard let connection = PQconnectdb(url) else {
            throw StatsStoreError(description: "cannot connect to the stats store \(location): out of memory")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.message(PQerrorMessage(connection))
            PQfinish(connection)
            var hint = ""
            if message.contains("password")
                && (message.contains("no password supplied") || message.contains("authentication failed"))
            {
                hint =
                    "; the password comes from PGPASSWORD or a ~/.pgpass line (host:port:database:user:password), never from the URL"
            }
            throw StatsStoreError(description: "cannot connect to the stats store \(location): \(message)\(hint)")
        }
        self.connection = connection
        // Times and messages that do not depend on the server's locale; no notices on stderr.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        _ = try execute("SET client_min_messages = warning")
    }

    deinit {
        if let connection { PQfinish(connection) }
    }

    /// Runs one statement; `$1`, `$2`… are `parameters`.
    ///
    /// - Throws: ``StatsStoreError`` with the server's message (and whether the connection was lost).
    @discardableResult
    func execute(_ sql: String, _ parameters: [DatabaseValue] = []) throws -> [Row] {
        lock.lock()
        defer { lock.unlock() }
        guard let connection else {
            throw StatsStoreError(description: "the connection to the stats store \(location) is closed")
        }
        let texts: [String?] = parameters.map(Self.text)
        let result = Self.withCStrings(texts) { values in
            PQexecParams(connection, sql, Int32(values.count), nil, values, nil, nil, 0)
        }
        defer { PQclear(result) }
        let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK, let result else {
            throw error(result)
        }
        return Self.rows(result)
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    /// The error of a failed statement, in words: the server's message, or a lost connection.
    private func error(_ result: OpaquePointer?) -> StatsStoreError {
        guard let connection else {
            return StatsStoreError(description: "the connection to the stats store \(location) is closed")
        }
        if PQstatus(connection) != CONNECTION_OK {
            return StatsStoreError(
                description:
                    "lost the connection to the stats store \(location): \(Self.message(PQerrorMessage(connection)))",
                connectionLost: true)
        }
        let message = result.map { Self.message(PQresultErrorMessage($0)) } ?? Self.message(PQerrorMessage(connection))
        return StatsStoreError(description: "stats store \(location): \(message)")
    }

    /// Closes the connection (the server rolls back what was not committed).
    func close() {
        lock.lock()
        defer { lock.unlock() }
        if let connection { PQfinish(connection) }
        connection = nil
    }

    // MARK: Values

    /// A parameter as PostgreSQL's text input (booleans as 1/0, which a boolean column takes).
    private static func text(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .null: return nil
        case .int64(let number): return String(number)
        case .double(let number):
            return number.isFinite ? "\(number)" : (number.isNaN ? "NaN" : (number > 0 ? "Infinity" : "-Infinity"))
        case .string(let string): return string
        case .blob(let data): return "\\x" + data.map { String(format: "%02x", $0) }.joined()
        }
    }

    private static let booleanType: Oid = 16
    private static let integerTypes: Set<Oid> = [20, 21, 23, 26]  // int8, int2, int4, oid
    private static let realTypes: Set<Oid> = [700, 701, 1700]  // float4, float8, numeric

    /// A result's rows, each column as the type its PostgreSQL type maps to.
    private static func rows(_ result: OpaquePointer) -> [Row] {
        let columns = (0..<PQnfields(result)).map { column in
            (name: PQfname(result, column).map { String(cString: $0) } ?? "?column?", type: PQftype(result, column))
        }
        return (0..<PQntuples(result)).map { row in
            var values: [String: (any DatabaseValueConvertible)?] = [:]
            for (index, column) in columns.enumerated() {
                let field = Int32(index)
                guard PQgetisnull(result, row, field) == 0, let pointer = PQgetvalue(result, row, field) else {
                    values[column.name] = DatabaseValue.null
                    continue
                }
                let text = String(cString: pointer)
                if column.type == booleanType {
                    values[column.name] = text == "t" ? 1 : 0
                } else if integerTypes.contains(column.type), let number = Int64(text) {
                    values[column.name] = number
                } else if realTypes.contains(column.type), let number = Double(text) {
                    values[column.name] = number
                } else {
                    values[column.name] = text
                }
            }
            return Row(values)
        }
    }

    private static func message(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "unknown error" }
        return String(cString: pointer).trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "\n", with: "; ")
    }

    /// Calls `body` with the strings as C strings (`nil` stays a null pointer: SQL NULL).
    private static func withCStrings<T>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
        let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.flatMap { strdup($0) } }
        defer { copies.forEach { free($0) } }
        return body(copies.map { $0.map { UnsafePointer($0) } })
    }
}
