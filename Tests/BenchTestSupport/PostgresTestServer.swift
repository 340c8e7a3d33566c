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
