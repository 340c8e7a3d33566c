// The shared store (libpq): in a build with the suite's trait `SharedStore` (on by default).
#if SharedStore
    import CLibPQ
    import Foundation
    import GRDB

    /// One connection to a PostgreSQL server through libpq, used from one thread at a time (a lock
    /// serialises callers): statements with parameters, rows as GRDB `Row`s, transactions.
    ///
    /// Parameters and results travel as text, as psql's do; a result's columns are turned back into
    /// integers, reals and booleans by their types, so the stats store's GRDB records decode them as
    /// they decode SQLite's rows.
    ///
    /// A statement that gets no answer within ``queryTimeout`` (a dead network, a server that stopped)
    /// ends with a lost connection, not with TCP's own give-up minutes later; ``reconnect()`` makes a
    /// new one, a bounded number of times.
    final class PostgresConnection: @unchecked Sendable {
        /// libpq's connection; `nil` once closed or lost.
        ///
        /// Every use holds `lock`.
        private var connection: OpaquePointer?
        private let lock = NSRecursiveLock()
        /// What it connects to (never holding a password: the store refuses one in a URL).
        private let url: String
        /// The URL without any password, for messages.
        let location: String
        /// Seconds a statement may wait for the server's answer.
        let queryTimeout: Double
        /// Whether `close()` was called (a closed connection is not made again).
        private var closed = false

        /// The seconds of ``queryTimeout`` unless `BENCH_STORE_TIMEOUT` names others.
        static var defaultQueryTimeout: Double {
            ProcessInfo.processInfo.environment["BENCH_STORE_TIMEOUT"].flatMap(Double.init).flatMap {
                $0 > 0 ? $0 : nil
            }
                ?? 60
        }

        /// Connects, with libpq's own reading of the URL and of PGPASSWORD, ~/.pgpass, PGSSLMODE….
        init(url: String, location: String, queryTimeout: Double = PostgresConnection.defaultQueryTimeout) throws {
            self.url = url
            self.location = location
            self.queryTimeout = queryTimeout
            connection = try Self.connect(url: url, location: location)
            try prepareSession()
        }

        deinit {
            if let connection { PQfinish(connection) }
        }

        /// A new libpq connection: the server that does not answer is an error after 10 s, not a hang,
        /// and TCP gives up on unacknowledged data after 20 s and on a silent peer after about 25 s
        /// (unless PGCONNECT_TIMEOUT or the URL's own parameters say otherwise: the URL's win).
        private static func connect(url: String, location: String) throws -> OpaquePointer {
            let settings: [(String, String)] = [
                ("connect_timeout", ProcessInfo.processInfo.environment["PGCONNECT_TIMEOUT"] ?? "10"),
                ("keepalives", "1"), ("keepalives_idle", "10"), ("keepalives_interval", "5"), ("keepalives_count", "3"),
                ("tcp_user_timeout", "20000"),
                // Last: expanded, the URL's own parameters override the ones above.
                ("dbname", url),
            ]
            let connection: OpaquePointer? = withCStrings(settings.map(\.0) + [nil]) { keywords in
                withCStrings(settings.map(\.1) + [nil]) { values in PQconnectdbParams(keywords, values, 1) }
            }
            guard let connection else {
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
            return connection
        }

        /// Times and messages that do not depend on the server's locale; no notices on stderr.
        private func prepareSession() throws {
            guard let connection else { return }
            PQsetNoticeProcessor(connection, { _, _ in }, nil)
            _ = try execute("SET client_min_messages = warning")
        }

        /// The server's version as libpq gives it (150004 for 15.4; 0 when not connected).
        var serverVersion: Int {
            lock.lock()
            defer { lock.unlock() }
            return connection.map { Int(PQserverVersion($0)) } ?? 0
        }

        /// Makes the connection again after it was lost: up to `attempts` tries, 1 s, 2 s, 4 s… apart.
        ///
        /// - Throws: ``StatsStoreError`` (a lost connection) with the last try's reason when none
        ///   succeeds, or when the connection was closed on purpose.
        func reconnect(attempts: Int = 3) throws {
            lock.lock()
            defer { lock.unlock() }
            guard !closed else {
                throw StatsStoreError(description: "the connection to the stats store \(location) is closed")
            }
            if let connection { PQfinish(connection) }
            connection = nil
            var last: StatsStoreError?
            for attempt in 0..<max(1, attempts) {
                if attempt > 0 { Thread.sleep(forTimeInterval: Double(1 << (attempt - 1))) }
                do {
                    connection = try Self.connect(url: url, location: location)
                    try prepareSession()
                    return
                } catch let error as StatsStoreError {
                    last = error
                    if let connection { PQfinish(connection) }
                    connection = nil
                }
            }
            throw StatsStoreError(
                description: "lost the connection to the stats store \(location) and could not make it again in "
                    + "\(attempts) tries (\(last?.description ?? "no reason given"))",
                connectionLost: true)
        }

        /// Runs one statement; `$1`, `$2`… are `parameters`.
        ///
        /// - Throws: ``StatsStoreError`` with the server's message, or a lost connection: the server or
        ///   the network went, or no answer came within ``queryTimeout``.
        @discardableResult
        func execute(_ sql: String, _ parameters: [DatabaseValue] = []) throws -> [Row] {
            var rows: [Row] = []
            try run(sql, parameters) { rows = Self.rows($0) }
            return rows
        }

        /// Runs one statement and hands each row of its answer to `body`, read where libpq holds it
        /// (``PostgresColumns``: valid during the call only), with no `Row` made.
        ///
        /// - Throws: what ``execute(_:_:)`` throws, and what `body` throws (once the answer is read).
        func forEachRow(_ sql: String, _ parameters: [DatabaseValue], _ body: (PostgresColumns) throws -> Void) throws {
            try run(sql, parameters) { result in
                let columns = PostgresColumns(result: result)
                for row in 0..<PQntuples(result) {
                    var current = columns
                    current.row = row
                    try body(current)
                }
            }
        }

        /// Sends a statement and gives each result with rows (or a command's) to `take`; the first
        /// error `take` throws is thrown once every result is read.
        private func run(_ sql: String, _ parameters: [DatabaseValue], _ take: (OpaquePointer) throws -> Void) throws {
            lock.lock()
            defer { lock.unlock() }
            guard let connection else {
                throw StatsStoreError(
                    description: closed
                        ? "the connection to the stats store \(location) is closed"
                        : "lost the connection to the stats store \(location)",
                    connectionLost: !closed)
            }
            let texts: [String?] = parameters.map(Self.text)
            let sent = Self.withCStrings(texts) { values in
                PQsendQueryParams(connection, sql, Int32(values.count), nil, values, nil, nil, 0)
            }
            guard sent == 1 else { throw lost(Self.message(PQerrorMessage(connection))) }
            try awaitAnswer(connection)
            // Every result of the statement; the last one tells how it went.
            var failure: (any Error)?
            while let result = PQgetResult(connection) {
                let status = PQresultStatus(result)
                if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK {
                    do {
                        try take(result)
                    } catch {
                        if failure == nil { failure = error }
                    }
                } else if failure == nil {
                    let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
                    let message = Self.message(PQresultErrorMessage(result))
                    // Class 08 (connection exceptions) and 57P01–57P03 (the server shutting down, or
                    // ending this session): the connection is gone even while libpq still calls it good.
                    if PQstatus(connection) != CONNECTION_OK || state.hasPrefix("08")
                        || ["57P01", "57P02", "57P03"].contains(state)
                    {
                        PQclear(result)
                        throw lost(message)
                    }
                    failure = StatsStoreError(description: "stats store \(location): \(message)")
                }
                PQclear(result)
            }
            if PQstatus(connection) != CONNECTION_OK { throw lost(Self.message(PQerrorMessage(connection))) }
            if let failure { throw failure }
        }

        /// Waits for the whole answer to the statement just sent, at most ``queryTimeout`` seconds.
        private func awaitAnswer(_ connection: OpaquePointer) throws {
            let deadline = Date().addingTimeInterval(queryTimeout)
            while true {
                let flushed = PQflush(connection)
                if flushed < 0 { throw lost(Self.message(PQerrorMessage(connection))) }
                if flushed == 0 && PQisBusy(connection) == 0 { return }
                let remaining = deadline.timeIntervalSinceNow
                guard remaining > 0 else {
                    throw lost(
                        "no answer within \(Self.seconds(queryTimeout)) (the server or the network is down; "
                            + "BENCH_STORE_TIMEOUT sets the wait)")
                }
                var descriptor = pollfd(
                    fd: PQsocket(connection), events: Int16(POLLIN | (flushed == 1 ? POLLOUT : 0)), revents: 0)
                let ready = poll(&descriptor, 1, Int32(min(remaining, 1) * 1000) + 1)
                if ready < 0 && errno != EINTR { throw lost(String(cString: strerror(errno))) }
                if ready > 0 && descriptor.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                    guard PQconsumeInput(connection) == 1 else { throw lost(Self.message(PQerrorMessage(connection))) }
                }
            }
        }

        /// The connection is gone: drop it (the next ``reconnect()`` makes another) and say why.
        private func lost(_ why: String) -> StatsStoreError {
            if let connection { PQfinish(connection) }
            connection = nil
            return StatsStoreError(
                description: "lost the connection to the stats store \(location): \(why)", connectionLost: true)
        }

        private static func seconds(_ value: Double) -> String {
            value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
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
                if connection != nil { _ = try? execute("ROLLBACK") }
                throw error
            }
        }

        /// Closes the connection (the server rolls back what was not committed).
        func close() {
            lock.lock()
            defer { lock.unlock() }
            if let connection { PQfinish(connection) }
            connection = nil
            closed = true
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

    /// A row of a PostgreSQL result, its columns read by position from libpq's text, as
    /// ``PostgresConnection`` turns them into values for a `Row` (booleans `t`/`f`, numbers in
    /// PostgreSQL's output).
    struct PostgresColumns: ResultColumns {
        let result: OpaquePointer
        var row: Int32 = 0

        init(result: OpaquePointer) {
            self.result = result
        }

        func isNull(_ column: Int32) -> Bool { PQgetisnull(result, row, column) != 0 }

        func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8> {
            guard let pointer = PQgetvalue(result, row, column) else {
                return UnsafeBufferPointer(start: nil, count: 0)
            }
            return UnsafeBufferPointer(
                start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                count: Int(PQgetlength(result, row, column)))
        }

        func integer(_ column: Int32) -> Int {
            guard let pointer = PQgetvalue(result, row, column) else { return 0 }
            return strtol(pointer, nil, 10)
        }

        func real(_ column: Int32) -> Double { Double(text(column)) ?? .nan }

        func boolean(_ column: Int32) -> Bool { PQgetvalue(result, row, column)?.pointee == CChar(UInt8(ascii: "t")) }
    }
#endif
