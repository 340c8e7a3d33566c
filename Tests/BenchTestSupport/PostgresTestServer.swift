import Foundation

/// The PostgreSQL server of the shared-store tests.
///
/// `BENCH_TEST_POSTGRES_URL` names it (a role that
/// may create databases; its password in PGPASSWORD or PGPASSFILE), as
/// `scripts/postgres-test-server.sh start` prints and `.ci/run` sets. Without it those tests are
/// skipped with ``missing``.
public enum PostgresTestServer {
    /// The server's URL, when one is named.
    public static var url: String? {
        let url = ProcessInfo.processInfo.environment["BENCH_TEST_POSTGRES_URL"] ?? ""
        return url.isEmpty ? nil : url
    }

    public static var isAvailable: Bool { url != nil }

    /// The role that may only read (`scripts/postgres-test-server.sh` makes it).
    public static let reader = "bench_test_reader"

    public static let missing =
        "needs a PostgreSQL server: run `eval \"$(scripts/postgres-test-server.sh start)\"` (it installs Debian's postgresql "
        + "when missing and sets BENCH_TEST_POSTGRES_URL and PGPASSFILE), then swift test"

    /// A new, empty database on the server, dropped when the value is released.
    public final class Database: @unchecked Sendable {
        public let url: String
        public let name: String

        public init() throws {
            guard let server = PostgresTestServer.url, let components = URLComponents(string: server) else {
                throw Failure(description: PostgresTestServer.missing)
            }
            name = "bench_t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
            try PostgresTestServer.psql(server, "CREATE DATABASE \(name)")
            var copy = components
            copy.path = "/" + name
            url = copy.string ?? server
        }

        /// The URL of this database for the role that may only read what ``grantReading()`` grants
        /// (`bench_test_reader`, which `scripts/postgres-test-server.sh` makes, its password beside
        /// the other's).
        public var readerURL: String {
            guard var components = URLComponents(string: url) else { return url }
            components.user = PostgresTestServer.reader
            return components.string ?? url
        }

        /// Lets the reader role `SELECT` from every table there is now, and nothing else.
        public func grantReading() throws {
            try psql(
                "REVOKE CREATE ON SCHEMA public FROM PUBLIC; "
                    + "GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(PostgresTestServer.reader)")
        }

        /// Runs SQL in this database.
        @discardableResult
        public func psql(_ sql: String) throws -> String {
            try PostgresTestServer.psql(url, sql)
        }

        deinit {
            if let server = PostgresTestServer.url {
                _ = try? PostgresTestServer.psql(server, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
            }
        }
    }

    /// Runs SQL with psql (unaligned, tuples only) and returns what it printed.
    @discardableResult
    public static func psql(_ url: String, _ sql: String) throws -> String {
        let result = try runProgram(
            "/usr/bin/env", ["psql", url, "-v", "ON_ERROR_STOP=1", "-X", "-q", "-A", "-t", "-c", sql])
        guard result.status == 0 else {
            throw Failure(description: "psql \(sql): \(result.standardError)")
        }
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }
}
