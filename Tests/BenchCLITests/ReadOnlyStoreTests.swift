import BenchResults
import BenchTestSupport
import Foundation
import GRDB
import StatsStore
import Testing

/// A store one may only read (issue 43, item 4): `bench report`, `history` and `compare --store`
/// read it; a store that needs a schema update says so; a refused `bench run` leaves nothing beside it.
///
/// The tests run as root here, and root ignores permission bits: a read-only volume is a read-only
/// bind mount in a user and mount namespace of the test's own (what root cannot write either), and a
/// file without write permission is read by the `nobody` user (`setpriv`), as a user meets it.
@Suite("A read-only stats store", .endToEnd)
struct ReadOnlyStoreTests {
    static let runIDs = ["20261120T100000Z-ro", "20261120T110000Z-ro"]

    /// A store of two small runs, closed (no -wal, no -shm beside it).
    static func seed(_ path: String) throws {
        do {
            let store = try StatsDatabase(path: path)
            for (index, runID) in runIDs.enumerated() {
                var walls: [String: [Double]] = [:]
                for (offset, parser) in ["expat", "libxml2"].enumerated() {
                    walls[parser] = SyntheticRuns.noisy(
                        3_000_000, count: 6, noise: 0.01, seed: UInt64(index * 2 + offset + 1) &* 0x9E37_79B9_7F4A_7C15)
                }
                let result = SyntheticRuns.run(
                    id: runID, started: String(format: "2026-11-20T1%d:00:00Z", index), rounds: walls)
                try store.beginRun(result.environment, settings: result.settings)
                try store.record(
                    result.samples, cells: CellRecord.of(result.cells, samples: result.samples), runID: runID)
                try store.finishRun(runID, endedAt: result.environment.startedAt, noise: nil, rounds: nil)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
    }

    /// The commands that only read, with what each must print.
    static func readers(_ store: String) -> [(arguments: [String], expected: String)] {
        [
            (["report", "--store", store], "expat"),
            (["history", "--store", store, "--metric", "wall"], "expat, parse"),
            (["compare", "--store", store, runIDs[0], runIDs[1]], "libxml2"),
        ]
    }

    static func shellQuote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    @Test(.enabled(if: StoreFaultTests.canMountTmpfs, Comment(rawValue: StoreFaultTests.noTmpfs)))
    func theReadingCommandsReadAStoreOnAReadOnlyVolume() throws {
        let directory = try TemporaryDirectory()
        let volume = directory.path("volume")
        try FileManager.default.createDirectory(atPath: volume, withIntermediateDirectories: true)
        let store = volume + "/stats.sqlite"
        try Self.seed(store)
        // A second store an older bench made: its last schema step not applied yet.
        let older = volume + "/older.sqlite"
        try Self.seed(older)
        do {
            let queue = try DatabaseQueue(path: older)
            try queue.write { db in
                try db.execute(
                    sql: "DELETE FROM grdb_migrations WHERE rowid = (SELECT max(rowid) FROM grdb_migrations)")
            }
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let bench = Self.shellQuote(TestPaths.benchExecutable)
        let commands = (Self.readers(store).map(\.arguments) + [["report", "--store", older]]).map {
            "\(bench) \($0.map(Self.shellQuote).joined(separator: " ")); echo \"status=$?\""
        }
        let result = try StoreFaultTests.inMountNamespace(
            """
            mount --bind \(Self.shellQuote(volume)) \(Self.shellQuote(volume)) \
            && mount -o remount,bind,ro \(Self.shellQuote(volume)) && touch \(Self.shellQuote(volume + "/probe")) \
            2>/dev/null || echo read-only; \(commands.joined(separator: "; echo '----'; "))
            """)
        #expect(result.standardOutput.hasPrefix("read-only"), "\(result.standardOutput) \(result.standardError)")
        let outputs = result.standardOutput.components(separatedBy: "----\n")
        try #require(outputs.count == 4, "\(result.standardOutput) \(result.standardError)")
        for (output, reader) in zip(outputs, Self.readers(store)) {
            #expect(output.contains("status=0"), "\(reader.arguments): \(output) \(result.standardError)")
            #expect(output.contains(reader.expected), "\(reader.arguments): \(output)")
        }
        #expect(!words(result.standardError).contains("cannot be written"), "\(result.standardError)")
        // The older store needs a schema step, which a read-only store cannot take: a clear error.
        #expect(outputs[3].contains("status=1"), "\(outputs[3])")
        #expect(
            words(result.standardError).contains("needs 1 schema step(s)")
                && words(result.standardError).contains("read-only"),
            "\(result.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        for suffix in ["-wal", "-shm"] { #expect(!FileManager.default.fileExists(atPath: store + suffix)) }
    }

    /// The store's schema version (`PRAGMA schema_version`: the file header's schema cookie, bytes 40–43).
    static func schemaVersion(_ file: Data) -> UInt32 {
        file.count < 44 ? 0 : file[40..<44].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// A command that only reads writes nothing to the store, whether or not it may write it.
    ///
    /// Issue 68, item 11: `bench report` opened a store it may write as a writer does, and each call
    /// raised its schema version by 2 (GRDB makes and drops a table on a store without a -wal); as
    /// root (the tests' user here) it wrote to a file without write permission. It never migrates
    /// or summarises either: a store that needs it says so, and is left as it was.
    @Test(arguments: [0o644, 0o444] as [mode_t])
    func theReadingCommandsWriteNothing(mode: mode_t) throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("stats.sqlite")
        try Self.seed(store)
        // One an older bench made (its last schema step not applied), one with a run copied in
        // without its summaries.
        let older = directory.path("older.sqlite")
        let unsummarised = directory.path("unsummarised.sqlite")
        for (path, change) in [
            (older, "DELETE FROM grdb_migrations WHERE rowid = (SELECT max(rowid) FROM grdb_migrations)"),
            (unsummarised, "DELETE FROM summarised_runs WHERE run_id = '\(Self.runIDs[1])'"),
        ] {
            try Self.seed(path)
            try DatabaseQueue(path: path).write { try $0.execute(sql: change) }
        }
        for path in [store, older, unsummarised] { chmod(path, mode) }
        let leftovers = { (path: String) in
            ["-wal", "-shm", "-journal"].filter { FileManager.default.fileExists(atPath: path + $0) }
        }
        let before = try [store, older, unsummarised].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }

        for reader in Self.readers(store) + Self.readers(store) {
            let result = try runBench(reader.arguments)
            #expect(result.status == 0, "\(reader.arguments): \(result.standardError)")
            #expect(result.standardOutput.contains(reader.expected), "\(reader.arguments): \(result.standardOutput)")
            let after = try Data(contentsOf: URL(fileURLWithPath: store))
            #expect(Self.schemaVersion(after) == Self.schemaVersion(before[0]), "\(reader.arguments)")
            #expect(after == before[0], "\(reader.arguments) wrote to the store")
            #expect(leftovers(store).isEmpty, "\(reader.arguments) left \(leftovers(store)) beside the store")
        }
        let old = try runBench(["report", "--store", older])
        #expect(old.status == 1, "\(old.standardOutput)")
        #expect(words(old.standardError).contains("was made by an older bench and needs 1 schema step(s)"))
        #expect(words(old.standardError).contains("nothing was changed"), "\(old.standardError)")
        let copied = try runBench(["report", "--store", unsummarised])
        #expect(copied.status == 1, "\(copied.standardOutput)")
        #expect(words(copied.standardError).contains("holds 1 run(s) without summaries"), "\(copied.standardError)")
        #expect(words(copied.standardError).contains("nothing was changed"), "\(copied.standardError)")
        for (path, data) in zip([older, unsummarised], before.dropFirst()) {
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == data, "\(path) was changed")
            #expect(leftovers(path).isEmpty, "\(leftovers(path)) beside \(path)")
        }
    }

    /// Whether the tests may run a command as the `nobody` user (they run as root, with setpriv).
    static let canRunAsNobody: Bool =
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
    static let notRoot = "needs root and setpriv(1), to run bench as the nobody user"

    static func asNobody(_ arguments: [String], in directory: URL) throws -> CommandResult {
        try runProgram(
            "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=65534", "--clear-groups", TestPaths.benchExecutable] + arguments,
            in: directory)
    }

    @Test(.enabled(if: ReadOnlyStoreTests.canRunAsNobody, Comment(rawValue: ReadOnlyStoreTests.notRoot)))
    func aFileWithoutWritePermissionIsReadAndARefusedRunLeavesNothingBesideIt() throws {
        let directory = try TemporaryDirectory()
        // A directory the user may write (as their own is), holding a store file they may only read.
        let shared = directory.path("shared")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        for path in [directory.path(""), shared] { chmod(path, 0o777) }
        let store = shared + "/stats.sqlite"
        try Self.seed(store)
        chmod(store, 0o444)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let leftovers = { ["-wal", "-shm", "-journal"].filter { FileManager.default.fileExists(atPath: store + $0) } }

        let run = try Self.asNobody(
            [
                "run", "--scenario", "parse", "--parsers", "expat", "--feed", TestPaths.top300, "--rounds", "1",
                "--store", store, "--output-dir", directory.path("out"), "--quiet",
            ], in: directory.url)
        #expect(run.status == 1)
        #expect(words(run.standardError).contains("the store cannot be written (the file:"), "\(run.standardError)")
        #expect(leftovers().isEmpty, "the refused run left \(leftovers()) beside the store")
        for reader in Self.readers(store) {
            let result = try Self.asNobody(reader.arguments, in: directory.url)
            #expect(result.status == 0, "\(reader.arguments): \(result.standardError)")
            #expect(result.standardOutput.contains(reader.expected), "\(reader.arguments): \(result.standardOutput)")
            #expect(leftovers().isEmpty, "\(reader.arguments) left \(leftovers()) beside the store")
        }

        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }
}
