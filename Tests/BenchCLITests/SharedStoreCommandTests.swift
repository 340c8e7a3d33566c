import BenchResults
import BenchTestSupport
import Foundation
import StatsStore
import Testing

/// One history for many machines, as users meet it: `bench run`, `report`, `compare` and
/// `store push/pull` against a PostgreSQL store, with several hosts, several writers at once and
/// a connection lost mid-run.
@Suite(
    "Shared store: PostgreSQL end to end", .serialized, .endToEnd,
    .enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.missing)))
struct SharedStoreCommandTests {
    /// A short run of one parser (debug builds: its samples are marked debug).
    static func shortRun(store: String, output: String, parsers: String = "libxml2", rounds: Int = 2) -> [String] {
        [
            "run", "--parsers", parsers, "--scenario", "parse", "--iterations", "1", "--warmup", "0", "--rounds",
            String(rounds),
            "--store", store, "--output-dir", output, "--quiet", "--count-preempted",
        ]
    }

    static func runIDs(_ output: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: output)) ?? [])
            .filter { $0.hasSuffix(".json") && $0.first?.isNumber == true && !$0.contains("-practices") }
            .map { String($0.dropLast(5)) }.sorted()
    }

    @Test func threeMachinesPushedIntoOneHistoryAndReportedPerHost() throws {
        let database = try PostgresTestServer.Database()
        let directory = try TemporaryDirectory()
        var ids: [String: String] = [:]
        for host in ["runner-a", "runner-b", "laptop"] {
            // Five parses a worker: on a loaded machine a parse that lost the CPU is left out of the
            // history, and each machine needs one that did not for its line.
            var arguments = Self.shortRun(store: directory.path("\(host).sqlite"), output: directory.path(host))
            arguments[arguments.firstIndex(of: "--iterations").map { $0 + 1 } ?? 0] = "5"
            let result = try runBench(arguments, environment: ["BENCH_HOST": host])
            #expect(result.status == 0, "\(result.standardError)")
            let id = try #require(Self.runIDs(directory.path(host)).first, "\(host) wrote no run file")
            ids[host] = id
        }
        let stores = ["runner-a", "runner-b", "laptop"].map { directory.path("\($0).sqlite") }.joined(separator: ",")
        let push = try runBench(["store", "push", "--from", stores, "--to", database.url])
        #expect(push.status == 0, "\(push.standardError)")
        // The summary wraps at the terminal's width: read it as words.
        #expect(words(push.standardOutput).contains("3 added, 0 completed"), "\(push.standardOutput)")
        // Again: nothing duplicated.
        let again = try runBench(["store", "push", "--from", stores, "--to", database.url])
        #expect(
            words(again.standardOutput).contains("0 added, 0 completed (they were incomplete there), 3 already there"),
            "\(again.standardOutput)")
        #expect(try database.psql("SELECT count(*) FROM runs") == "3")
        #expect(
            try database.psql("SELECT string_agg(DISTINCT host, ',' ORDER BY host) FROM runs")
                == "laptop,runner-a,runner-b")

        let table = try runBench(["report", "--store", database.url, "--include-debug"])
        #expect(table.status == 0, "\(table.standardError)")
        for host in ["runner-a", "runner-b", "laptop"] { #expect(table.standardOutput.contains("On \(host) (")) }
        #expect(table.standardOutput.contains("3 machines"))
        let csv = try runBench([
            "report", "--store", database.url, "--include-debug", "--format", "csv", "--host", "runner-b",
        ])
        let rows = csv.standardOutput.split(whereSeparator: \.isNewline).dropFirst()
        #expect(!rows.isEmpty && rows.allSatisfy { $0.contains(",runner-b,") })
        let html = try runBench(["report", "--store", database.url, "--include-debug", "--format", "html"])
        #expect(html.standardOutput.contains("one line per machine"))
        #expect(html.standardOutput.contains("id=\"history-0\""))
        let unknown = try runBench(["report", "--store", database.url, "--include-debug", "--host", "nobody"])
        #expect(words(unknown.standardError).contains("the store has runs of: laptop"))

        // Stored runs compared by ID: different hosts are said.
        let compare = try runBench([
            "compare", ids["runner-a"] ?? "", ids["runner-b"] ?? "", "--store", database.url, "--metric", "cpu",
        ])
        #expect(
            compare.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains(
                "different host: runner-a (baseline) and runner-b (current)"),
            "\(compare.standardOutput)\(compare.standardError)")
        let missing = try runBench(["compare", "20200101T000000Z-0000", ids["laptop"] ?? "", "--store", database.url])
        #expect(
            missing.status == 1
                && words(missing.standardError).contains("no run 20200101T000000Z-0000 in the stats store"))

        // And back: a pull of one host into a fresh local store.
        let pull = try runBench([
            "store", "pull", "--from", database.url, "--to", directory.path("pulled.sqlite"), "--host", "laptop",
        ])
        #expect(words(pull.standardOutput).contains("1 added"), "\(pull.standardError)")
        let local = try runBench([
            "report", "--store", directory.path("pulled.sqlite"), "--include-debug", "--format", "csv",
        ])
        let pulled = local.standardOutput.split(whereSeparator: \.isNewline).dropFirst()
        #expect(!pulled.isEmpty && pulled.allSatisfy { $0.contains(",laptop,") })
    }

    @Test func twoRunsAndAPushAtOnceLoseNothing() throws {
        let database = try PostgresTestServer.Database()
        let directory = try TemporaryDirectory()
        // Runs to push, made first in a local store.
        for round in 0..<2 {
            let made = try runBench(
                Self.shortRun(store: directory.path("local.sqlite"), output: directory.path("local-\(round)")))
            #expect(made.status == 0, "\(made.standardError)")
        }
        let commands = [
            Self.shortRun(store: database.url, output: directory.path("one"), parsers: "libxml2,expat"),
            Self.shortRun(store: database.url, output: directory.path("two"), parsers: "libxml2,expat"),
            ["store", "push", "--from", directory.path("local.sqlite"), "--to", database.url],
        ]
        let results = try commands.map(StoreFaultTests.start).map { process -> Int32 in
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(results == [0, 0, 0])
        #expect(try database.psql("SELECT count(*) FROM runs WHERE complete") == "4")
        // Every sample of every run: the runs' files and the local store say how many.
        var expected = 0
        for output in ["one", "two"] {
            let id = try #require(Self.runIDs(directory.path(output)).first)
            let data = try Data(contentsOf: URL(fileURLWithPath: directory.path("\(output)/\(id).json")))
            expected += try JSONDecoder().decode(RunResult.self, from: data).samples.count
        }
        for round in 0..<2 {
            let id = try #require(Self.runIDs(directory.path("local-\(round)")).first)
            let data = try Data(contentsOf: URL(fileURLWithPath: directory.path("local-\(round)/\(id).json")))
            expected += try JSONDecoder().decode(RunResult.self, from: data).samples.count
        }
        #expect(try database.psql("SELECT count(*) FROM samples") == String(expected))
    }

    /// Starts a short run recording into `database` and returns it once its first cell is on the server.
    static func startRun(into database: PostgresTestServer.Database, output: String) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.benchExecutable)
        process.arguments = [
            "run", "--parsers", "libxml2,expat,foundation", "--scenario", "parse", "--iterations", "3", "--warmup", "1",
            "--rounds", "6", "--store", database.url, "--output-dir", output, "--quiet", "--count-preempted",
        ]
        process.currentDirectoryURL = TestPaths.packageRoot
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var recorded = 0
        let deadline = Date().addingTimeInterval(TestWaits.condition)
        while recorded == 0 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            recorded = Int((try? database.psql("SELECT count(*) FROM samples")) ?? "") ?? 0
        }
        #expect(recorded > 0)
        return (process, errors)
    }

    /// Ends every connection to `database` but the caller's.
    static func cutConnections(_ database: PostgresTestServer.Database) throws {
        try database.psql(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    }

    @Test func aLostConnectionIsMadeAgainAndEverySampleRecorded() throws {
        let database = try PostgresTestServer.Database()
        let directory = try TemporaryDirectory()
        let (process, errors) = try Self.startRun(into: database, output: directory.path("out"))
        try Self.cutConnections(database)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(message)")
        #expect(
            words(message).contains("was lost 1 time(s) during the run and made again; every sample is recorded"),
            "\(message)"
        )

        let id = try #require(Self.runIDs(directory.path("out")).first)
        let data = try Data(contentsOf: URL(fileURLWithPath: directory.path("out/\(id).json")))
        let result = try JSONDecoder().decode(RunResult.self, from: data)
        #expect(try database.psql("SELECT complete FROM runs WHERE run_id = '\(id)'") == "t")
        #expect(try database.psql("SELECT count(*) FROM samples") == String(result.samples.count))
    }

    @Test func aServerThatStaysAwayStopsTheRecordingAndSaysHowToPushTheRest() throws {
        let database = try PostgresTestServer.Database()
        let directory = try TemporaryDirectory()
        let server = try #require(PostgresTestServer.url)
        let (process, errors) = try Self.startRun(into: database, output: directory.path("out"))
        try PostgresTestServer.psql(server, "ALTER DATABASE \(database.name) ALLOW_CONNECTIONS false")
        defer { _ = try? PostgresTestServer.psql(server, "ALTER DATABASE \(database.name) ALLOW_CONNECTIONS true") }
        try PostgresTestServer.psql(
            server, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '\(database.name)'")
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try PostgresTestServer.psql(server, "ALTER DATABASE \(database.name) ALLOW_CONNECTIONS true")
        #expect(process.terminationStatus != 0)
        #expect(words(message).contains("could not make it again in 5 tries"), "\(message)")
        #expect(words(message).contains("not currently accepting connections"), "\(message)")
        #expect(words(message).contains("bench store push --from"), "\(message)")

        let id = try #require(Self.runIDs(directory.path("out")).first)
        let data = try Data(contentsOf: URL(fileURLWithPath: directory.path("out/\(id).json")))
        let result = try JSONDecoder().decode(RunResult.self, from: data)
        #expect(try database.psql("SELECT complete FROM runs WHERE run_id = '\(id)'") == "f")
        let onServer = Int(try database.psql("SELECT count(*) FROM samples")) ?? 0
        #expect(onServer > 0 && onServer < result.samples.count)

        let push = try runBench(["store", "push", "--from", directory.path("out/\(id).json"), "--to", database.url])
        #expect(push.status == 0, "\(push.standardError)")
        #expect(words(push.standardOutput).contains("1 completed"))
        #expect(try database.psql("SELECT count(*) FROM samples") == String(result.samples.count))
        #expect(try database.psql("SELECT complete FROM runs WHERE run_id = '\(id)'") == "t")
        // Pushed again: recognised by its content digest.
        let again = try runBench(["store", "push", "--from", directory.path("out/\(id).json"), "--to", database.url])
        #expect(again.status == 0 && words(again.standardOutput).contains("1 already there"), "\(again.standardOutput)")
    }
}

@Suite("Shared store: PostgreSQL locations, no server needed")
struct SharedStoreLocationTests {
    @Test func anUnreachableStoreFailsBeforeMeasuringAndMakesNoDirectory() throws {
        let directory = try TemporaryDirectory()
        let result = try runBench(
            [
                "run", "--parsers", "libxml2", "--feed", TestPaths.top300, "--store",
                "postgres://bench@127.0.0.1:1/bench",
                "--output-dir", directory.path("out"),
            ],
            in: directory.url)
        #expect(result.status != 0)
        #expect(
            words(result.standardError).contains("cannot connect to the stats store postgres://bench@127.0.0.1:1/bench")
        )
        #expect(!FileManager.default.fileExists(atPath: directory.path("postgres:")))
        let report = try runBench(
            ["report", "--store", "postgres://bench:hunter2@127.0.0.1:1/bench"], in: directory.url)
        #expect(
            report.status != 0 && words(report.standardError).contains("PGPASSWORD")
                && !words(report.standardError).contains("hunter2"))
    }

    /// Which runs to copy is checked.
    ///
    /// `--since` is a date or a UTC time (it was compared as text, so "yesterday" copied none and "1"
    /// every run, both with exit 0), and a run named by `--run` that is not there is an error, as
    /// `bench store remove` says it. A date no run is after is no error.
    @Test func aSelectionOfRunsIsCheckedAndANamedRunMustBeThere() throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("local.sqlite")
        let store = try StatsStores.open(source)
        let run = SyntheticRuns.run(
            id: "20261122T100000Z-s", started: "2026-11-22T10:00:00Z", rounds: ["expat": [3_000_000]])
        try store.beginRun(run.environment, settings: run.settings)
        try store.record(run.samples, runID: run.environment.runID)
        try store.finishRun(run.environment.runID, endedAt: run.environment.startedAt, noise: nil, rounds: nil)
        let target = directory.path("copy.sqlite")
        let cases: [(String, Int?)] = [("yesterday", nil), ("1", nil), ("2026-11-22T25:00", nil), ("2030-01-01", 0)]
        for (since, copied) in cases {
            let push = try runBench(["store", "push", "--from", source, "--to", target, "--since", since])
            if let copied {
                #expect(push.status == 0 && words(push.standardOutput).contains("Pushed \(copied) run(s)"))
                #expect(words(push.standardError).contains("no runs matched (--host, --since)"))
            } else {
                #expect(push.status != 0, "--since \(since): \(push.standardOutput)")
                #expect(words(push.standardError).contains("--since takes an ISO 8601 date or UTC time"))
            }
        }
        for since in ["2026-11-22", "2026-11-22T09:59:00Z"] {
            let push = try runBench(["store", "push", "--from", source, "--to", target, "--since", since])
            #expect(push.status == 0, "\(push.standardError)")
        }
        let missing = try runBench(["store", "pull", "--from", source, "--to", target, "--run", "nope,20261122T1"])
        #expect(missing.status == 1)
        #expect(
            words(missing.standardError).contains("no run nope, 20261122T1 in \(source)"), "\(missing.standardError)")
        let report = try runBench(["report", "--store", source, "--since", "2026-13-01"])
        #expect(report.status != 0 && words(report.standardError).contains("not '2026-13-01'"))
    }
}

/// The text as single-spaced words: a summary wraps at the terminal's width.
