import BenchResults
import BenchTestSupport
import Foundation
import GRDB
import StatsStore
import Testing

/// The stats store and the result files when things go wrong: a killed run, two runs at once, a
/// store that is not one, a full or read-only disk.
@Suite("Faults: kill -9, two writers, bad stores, full disks", .endToEnd)
struct StoreFaultTests {
    /// The processes whose parent is `pid` (Linux's /proc).
    static func children(of pid: pid_t) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry -> pid_t? in
            guard let child = pid_t(entry),
                let status = try? String(contentsOfFile: "/proc/\(entry)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("PPid:") }),
                pid_t(line.dropFirst(5).trimmingCharacters(in: .whitespaces)) == pid
            else { return nil }
            return child
        }
    }

    static func isAlive(_ pid: pid_t) -> Bool {
        // A zombie has ended; only a process that still runs counts.
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
        return !status.contains("State:\tZ")
    }

    static func start(_ arguments: [String]) throws -> Process {
        try start(arguments, environment: [:])
    }

    static func start(_ arguments: [String], environment: [String: String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.benchExecutable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.currentDirectoryURL = TestPaths.packageRoot
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Whether this machine lets a test mount a small tmpfs in a user namespace of its own.
    static let canMountTmpfs: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        let probe = try? TemporaryDirectory()
        guard let probe else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["-Urm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs '\(probe.path(""))'"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()
    static let noTmpfs = "needs unshare(1) and user namespaces, to mount a small tmpfs"

    /// Runs `script` (sh) in a user and mount namespace of its own, where it may mount.
    static func inMountNamespace(_ script: String) throws -> CommandResult {
        try runProgram("/usr/bin/unshare", ["-Urm", "sh", "-c", script])
    }

    /// A run killed in the middle of a cell keeps the cells it finished.
    ///
    /// The null baseline's cell runs first and must finish; libxml2's must be long. Pushed a byte at
    /// a time, a debug build's libxml2 parse takes 10 times the null baseline's (its 1-byte pushes
    /// and the calibration before each parse): 100 parses make a null cell of a few CPU-s and a
    /// libxml2 cell of half a minute, killed 0.3 s in. At 4,000 parses of 16 KiB, the null cell
    /// alone took 80 CPU-s (the calibration workload's) before libxml2's worker began.
    @Test func killNineInTheMiddleOfACell() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("stats.sqlite")
        let run = try Self.start([
            "run", "--scenario", "parse", "--parsers", "libxml2", "--iterations", "100", "--chunk-size", "1",
            "--warmup", "0", "--rounds", "1", "--no-allocation-counts", "--store", store, "--output-dir",
            directory.path("out"),
        ])
        // Wait for the first cell (the null baseline) in the store and libxml2's worker at work.
        var stored = 0
        var worker: pid_t?
        let deadline = Date().addingTimeInterval(TestWaits.condition)
        while Date() < deadline && run.isRunning {
            if stored == 0, FileManager.default.fileExists(atPath: store),
                let count = try? StatsDatabase(path: store).samples(matching: SampleFilter(includeDebug: true)).count
            {
                stored = count
            }
            if stored > 0, let child = Self.children(of: run.processIdentifier).first {
                worker = child
                break
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        let measuring = try #require(worker, "no worker measuring after the first cell")
        Thread.sleep(forTimeInterval: 0.3)
        kill(run.processIdentifier, SIGKILL)
        run.waitUntilExit()
        // The worker ends with its parent instead of finishing its 100 parses.
        var gone = false
        for _ in 0..<200 where !gone {
            gone = !Self.isAlive(measuring)
            if !gone { Thread.sleep(forTimeInterval: 0.01) }
        }
        #expect(gone, "the worker outlived its killed parent")

        let database = try StatsDatabase(path: store)
        let runs = try database.runs()
        #expect(runs.count == 1 && runs.first?.complete == false)
        #expect(try database.samples(matching: SampleFilter(includeDebug: true)).count == stored)

        // The next run works, and the report says what it includes (its null cell the killed run's:
        // the same chunk size).
        let next = try runBench(
            [
                "run", "--scenario", "parse", "--parsers", "expat", "--iterations", "1", "--chunk-size", "1",
                "--warmup", "0", "--rounds", "1", "--no-allocation-counts", "--store", store, "--output-dir",
                directory.path("out"), "--quiet",
            ], environment: AnyMachine.environment)
        #expect(next.status == 0, "\(next.standardError)")
        let after = try StatsDatabase(path: store).runs()
        #expect(after.count == 2 && after.filter(\.complete).count == 1)
        let report = try runBench(["report", "--store", store, "--include-debug"])
        #expect(report.status == 0)
        // Its notes are wrapped at the terminal's width (100 off a terminal).
        #expect(
            report.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains(
                "of runs that did not finish (interrupted); --exclude-incomplete leaves them out"))
        let complete = try runBench([
            "report", "--store", store, "--include-debug", "--exclude-incomplete", "--format", "csv",
        ])
        #expect(complete.status == 0)
        // The killed run's finished cell (null) counts in the first report, not in the second.
        func nullRow(_ csv: String) -> [String: String] {
            let lines = csv.split(separator: "\r\n").map {
                $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            }
            guard let header = lines.first, let column = header.firstIndex(of: "parser"),
                let row = lines.dropFirst().first(where: { $0.count > column && $0[column] == "null" })
            else { return [:] }
            return Dictionary(zip(header, row), uniquingKeysWith: { a, _ in a })
        }
        let all = try runBench(["report", "--store", store, "--include-debug", "--format", "csv"])
        #expect(
            nullRow(all.standardOutput)["runs"] == "2" && nullRow(all.standardOutput)["incomplete_runs"] == "1",
            "\(all.standardOutput)")
        #expect(
            nullRow(complete.standardOutput)["runs"] == "1"
                && nullRow(complete.standardOutput)["incomplete_runs"] == "0")
    }

    @Test func twoRunsWriteToOneStoreAtOnce() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("stats.sqlite")
        let arguments = { (parser: String) in
            [
                "run", "--scenario", "parse", "--parsers", parser, "--iterations", "2", "--warmup", "0", "--rounds",
                "3",
                "--no-allocation-counts", "--store", store, "--output-dir", directory.path("out-\(parser)"),
            ]
        }
        // The store is the point, not the figures: a busy machine must not fail the runs.
        let first = try Self.start(arguments("libxml2"), environment: AnyMachine.environment)
        let second = try Self.start(arguments("expat"), environment: AnyMachine.environment)
        first.waitUntilExit()
        second.waitUntilExit()
        #expect(first.terminationStatus == 0 && second.terminationStatus == 0)
        let database = try StatsDatabase(path: store)
        let runs = try database.runs()
        #expect(runs.count == 2 && runs.allSatisfy(\.complete))
        let samples = try database.samples(matching: SampleFilter(includeDebug: true))
        for run in runs {
            let parsers = Set(samples.filter { $0.runID == run.runID }.map(\.sample.cell.parser))
            #expect(parsers.count == 2, "run \(run.runID): \(parsers)")
            // 3 rounds of at least 2 parses for the parser and for the null baseline (a parse that lost
            // the CPU to the other run is measured again, up to a bound, and stored flagged).
            let own = samples.filter { $0.runID == run.runID }.map(\.sample)
            #expect(own.allSatisfy { $0.error == nil })
            for parser in parsers {
                for round in 1...3 {
                    #expect(
                        own.filter { $0.cell.parser == parser && $0.round == round }.count >= 2,
                        "\(parser), round \(round)")
                }
            }
        }
    }

    @Test func aStoreThatIsNotADatabaseIsLeftAlone() throws {
        let directory = try TemporaryDirectory()
        let text = "these are notes, not a database\n"
        let store = try directory.write("notes.sqlite", text)
        let result = try runBench([
            "run", "--scenario", "parse", "--parsers", "expat", "--store", store, "--output-dir", directory.path("out"),
        ])
        #expect(result.status == 1)
        #expect(words(result.standardError).contains("not an SQLite database"), "\(result.standardError)")
        #expect(try String(contentsOfFile: store, encoding: .utf8) == text)
        #expect(!FileManager.default.fileExists(atPath: store + "-wal"))
        let report = try runBench(["report", "--store", store])
        #expect(report.status == 1 && words(report.standardError).contains("not an SQLite database"))
    }

    /// A damaged store is refused before anything is written, with the way out.
    ///
    /// Issue 68, item 10: with 8 KB of garbage in its middle, `bench run` said "Recorded" and wrote
    /// into it, and `bench compare` then failed with "SQLite error 11". Now `PRAGMA quick_check`
    /// refuses it, and the file is left as it was.
    @Test func aDamagedStoreIsRefusedBeforeAnythingIsWritten() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("stats.sqlite")
        do {
            let database = try StatsDatabase(path: store)
            for index in 0..<10 {
                let runID = String(format: "20261120T1%05dZ-dm", index)
                let result = SyntheticRuns.run(
                    id: runID, started: String(format: "2026-11-20T10:%02d:00Z", index),
                    rounds: ["expat": Array(repeating: 3e6, count: 20), "libxml2": Array(repeating: 2e6, count: 20)])
                try database.beginRun(result.environment, settings: result.settings)
                try database.record(
                    result.samples, cells: CellRecord.of(result.cells, samples: result.samples), runID: runID)
                try database.finishRun(runID, endedAt: result.environment.startedAt, noise: nil, rounds: nil)
            }
        }
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: store))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size / 2)
        var random = SystemRandomNumberGenerator()
        try handle.write(contentsOf: (0..<8_192).map { _ in UInt8.random(in: 0...255, using: &random) })
        try handle.close()
        var readOnly = Configuration()
        readOnly.readonly = true
        // Immutable: nothing made beside it.
        let check = try? DatabaseQueue(path: "file:\(store)?immutable=1", configuration: readOnly).read {
            try String.fetchAll($0, sql: "PRAGMA quick_check")
        }
        try #require(check != ["ok"], "the garbage landed where SQLite does not look")
        let before = try Data(contentsOf: URL(fileURLWithPath: store))

        let result = try runBench(
            [
                "run", "--scenario", "parse", "--parsers", "expat", "--iterations", "1", "--warmup", "0", "--rounds",
                "1", "--no-allocation-counts", "--store", store, "--output-dir", directory.path("out"), "--quiet",
            ], environment: AnyMachine.environment)
        #expect(result.status == 1, "\(result.standardOutput) \(result.standardError)")
        let message = words(result.standardError)
        #expect(message.contains("the stats store \(store) is damaged"), "\(result.standardError)")
        #expect(message.contains("PRAGMA quick_check") && message.contains("integrity_check"), "\(message)")
        #expect(message.contains("nothing was written to it"), "\(message)")
        #expect(message.contains("sqlite3 \(store) .recover"), "\(message)")
        #expect(!result.standardOutput.contains("Recorded"), "\(result.standardOutput)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        for suffix in ["-wal", "-shm"] { #expect(!FileManager.default.fileExists(atPath: store + suffix)) }
    }

    @Test(.enabled(if: StoreFaultTests.canMountTmpfs, Comment(rawValue: StoreFaultTests.noTmpfs)))
    func aReadOnlyStoreIsAClearError() throws {
        let directory = try TemporaryDirectory()
        let seed = directory.path("seed.sqlite")
        let made = try runBench(
            [
                "run", "--scenario", "parse", "--parsers", "expat", "--iterations", "1", "--warmup", "0", "--rounds",
                "1", "--no-allocation-counts", "--store", seed, "--output-dir", directory.path("out"), "--quiet",
            ], environment: AnyMachine.environment)
        #expect(made.status == 0, "\(made.standardError)")
        let before = try Data(contentsOf: URL(fileURLWithPath: seed))
        let mount = directory.path("ro")
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        let result = try Self.inMountNamespace(
            """
            mount -t tmpfs -o size=8m tmpfs '\(mount)' && cp '\(seed)' '\(mount)/stats.sqlite' && mount -o remount,ro '\(mount)' \
            && '\(TestPaths.benchExecutable)' run --scenario parse --parsers expat --iterations 1 --rounds 1 \
               --store '\(mount)/stats.sqlite' --output-dir '\(directory.path("out"))'; echo "status=$?"; \
            cmp '\(seed)' '\(mount)/stats.sqlite' && echo unchanged
            """)
        #expect(result.standardOutput.contains("status=1"), "\(result.standardOutput) \(result.standardError)")
        #expect(
            words(result.standardError).contains("cannot be written")
                || words(result.standardError).contains("read-only"),
            "\(result.standardError)")
        #expect(result.standardOutput.contains("unchanged"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: seed)) == before)
    }

    @Test(.enabled(if: StoreFaultTests.canMountTmpfs, Comment(rawValue: StoreFaultTests.noTmpfs)))
    func aFullDiskForTheResultFiles() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("stats.sqlite")
        let mount = directory.path("full")
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        // 16 KiB: room for the check before the run, not for the run's files.
        let result = try Self.inMountNamespace(
            """
            mount -t tmpfs -o size=16k tmpfs '\(mount)' && '\(TestPaths.benchExecutable)' run --scenario parse --parsers expat \
            --iterations 1 --warmup 0 --rounds 2 --no-allocation-counts --store '\(store)' --output-dir '\(mount)'; echo "status=$?"; \
            ls -a '\(mount)'
            """)
        #expect(result.standardOutput.contains("status=1"), "\(result.standardOutput) \(result.standardError)")
        #expect(words(result.standardError).contains("No space left on device"), "\(result.standardError)")
        #expect(words(result.standardError).contains("the run is recorded whole in \(store)"))
        let runs = try StatsDatabase(path: store).runs()
        #expect(runs.count == 1 && runs.first?.complete == true)
        #expect(!result.standardOutput.contains(".bench-write-check"))
    }

    @Test(.enabled(if: StoreFaultTests.canMountTmpfs, Comment(rawValue: StoreFaultTests.noTmpfs)))
    func aReadOnlyOutputDirectoryFailsBeforeMeasuring() throws {
        let directory = try TemporaryDirectory()
        let mount = directory.path("ro")
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        let result = try Self.inMountNamespace(
            """
            mount -t tmpfs -o ro,size=16k tmpfs '\(mount)' && '\(TestPaths.benchExecutable)' run --scenario parse --parsers expat \
            --store '\(directory.path("stats.sqlite"))' --output-dir '\(mount)'; echo "status=$?"
            """)
        #expect(result.standardOutput.contains("status=1"), "\(result.standardOutput) \(result.standardError)")
        #expect(
            words(result.standardError).contains("cannot write in the output directory \(mount)"),
            "\(result.standardError)")
        // Nothing was measured: no run in the store.
        #expect(!FileManager.default.fileExists(atPath: directory.path("stats.sqlite")))
    }
}
