import BenchResults
import BenchTestSupport
import Foundation
import GRDB
@testable import StatsStore
import Testing

/// What every stats store must do, whichever database holds it: the same checks on an SQLite
/// file and on a PostgreSQL database.
enum StoreContract {
    static func environment(_ id: String, host: String = "alpha", cpu: String = "AMD EPYC 7763", minute: Int = 0)
        -> RunEnvironment
    {
        RunEnvironment(
            runID: id, startedAt: String(format: "2026-11-22T10:%02d:00Z", minute), commandLine: "bench run",
            buildConfiguration: "release",
            gitCommit: "abc", host: host, os: "Linux", cpuModel: cpu, cores: 2, swiftVersion: "Swift version 6.3.1",
            libxml2Version: "2.9.14", expatVersion: "2.5.0")
    }

    static func samples(_ parser: String, walls: [Int], round: Int = 1) -> [Sample] {
        let cell = CellKey(
            parser: parser, scenario: .parse, feedPath: "Data/top300.rss.xml", feedSHA256: "sha", feedBytes: 901_440,
            chunkSize: 16_384)
        return walls.enumerated().map { index, wall in
            var sample = Sample(
                cell: cell, songs: 300, round: round, iteration: index + 1, wallNs: wall, cpuNs: wall - 1,
                firstSongNs: 10,
                peakResidentBytes: 30 << 20, error: nil, debug: false)
            sample.preempted = index == 0 ? false : nil
            sample.allocations = 743
            return sample
        }
    }

    static let settings = RunSettings(
        iterations: 3, warmup: 1, rounds: 2, chunkSize: 16_384, timeoutSeconds: 30.5, retryPreempted: true)

    /// Records a run as `bench run` does, reads it back whole, filters by machine.
    static func recordsAndReads(_ store: any StatsStoring) throws {
        let a = environment("20261122T100000Z-000a", host: "alpha", minute: 0)
        let b = environment("20261122T100100Z-000b", host: "beta", cpu: "Intel(R) Xeon(R) Platinum", minute: 1)
        for (environment, walls) in [(a, [3, 1, 2]), (b, [6, 5])] {
            try store.beginRun(environment, settings: settings)
            try store.record(samples("expat", walls: walls), runID: environment.runID)
            try store.record(samples("libxml2", walls: walls.map { $0 * 2 }, round: 2), runID: environment.runID)
        }
        let noise = NoiseReport(
            noisy: true, warnings: ["the machine was busy"], unranked: [], preemptedShare: 0.25, largestSpread: 0.1,
            load: nil)
        try store.finishRun(a.runID, endedAt: "2026-11-22T10:00:30Z", noise: noise, rounds: nil)

        let runs = try store.runs()
        #expect(runs.map(\.runID) == [b.runID, a.runID])
        #expect(runs.last?.complete == true && runs.first?.complete == false)
        let stored = try store.samples(matching: SampleFilter())
        #expect(
            stored.map(\.sample) == samples("expat", walls: [3, 1, 2]) + samples("libxml2", walls: [6, 2, 4], round: 2)
                + samples("expat", walls: [6, 5]) + samples("libxml2", walls: [12, 10], round: 2))
        #expect(stored.first?.machine == Machine(a))
        // What bench report says it pooled: the commit of each run's build, and whether it flagged lost parses.
        #expect(stored.first?.runGitCommit == "abc" && stored.first?.runRetriesPreempted == true)
        #expect(stored.first?.runNoisy == true && stored.last?.runComplete == false)
        let details = try #require(try store.details(of: a.runID))
        #expect(
            details.settings
                == RunSettings(
                    iterations: 3, warmup: 1, rounds: 2, chunkSize: 16_384, timeoutSeconds: 30.5, retryPreempted: true))
        #expect(details.noise?.warnings == ["the machine was busy"])

        #expect(
            try store.samples(matching: SampleFilter(hosts: ["beta"])).map(\.runID)
                == Array(repeating: b.runID, count: 4))
        #expect(
            try store.samples(matching: SampleFilter(cpus: ["epyc"])).map(\.runID)
                == Array(repeating: a.runID, count: 6))
        #expect(try store.samples(matching: SampleFilter(excludeIncomplete: true, hosts: ["beta"])).isEmpty)
        // --feed: the path, its end or the digest, case-sensitive on every store; `%` and `_` are
        // plain characters; --scenario "parse" is the scenario, not a prefix of another name.
        for (feed, count) in [
            ("Data/top300.rss.xml", 10), ("top300.rss.xml", 10), ("sha", 10), ("TOP300.rss.xml", 0), ("top300%", 0),
            ("top300_rss.xml", 0), ("%", 0), ("a/Data/top300.rss.xml", 0),
        ] {
            #expect(try store.samples(matching: SampleFilter(feed: feed)).count == count, "--feed \(feed)")
        }
        #expect(try store.samples(matching: SampleFilter(scenarios: ["parse"])).count == 10)
        #expect(try store.samples(matching: SampleFilter(scenarios: ["Parse", "pars"])).isEmpty)
        #expect(
            try store.samples(matching: SampleFilter(parsers: ["libxml2"], lastRuns: 1)).map(\.sample.wallNs) == [
                12, 10,
            ])
        // A run that stopped on its own (--precision) replaces its most rounds with the rounds it ran.
        try store.finishRun(b.runID, endedAt: "2026-11-22T10:01:30Z", noise: nil, rounds: 7)
        #expect(try store.details(of: b.runID)?.settings?.rounds == 7)
        #expect(try store.details(of: a.runID)?.settings?.rounds == 2)
    }

    /// The host's calibration history: its newest runs, not the run asked about, not other hosts,
    /// debug builds or the gate's injected slowdowns; grouped by run and document.
    static func calibrationsOfAHost(_ store: any StatsStoring) throws {
        func record(
            _ id: String, host: String, minute: Int, calibrations: [Int], debug: Bool = false, slowdown: Int? = nil
        )
            throws
        {
            let environment = environment(id, host: host, minute: minute)
            var settings = settings
            settings.slowdownPercent = slowdown
            try store.beginRun(environment, settings: settings)
            var samples = samples("expat", walls: calibrations.map { $0 * 3 })
            for index in samples.indices {
                samples[index].calibrationNs = calibrations[index]
                samples[index].debug = debug
            }
            var other = samples[0]
            other.cell.feedSHA256 = "other"
            other.calibrationNs = 9_999
            try store.record(samples + [other], runID: id)
        }
        try record("a1", host: "alpha", minute: 1, calibrations: [1_000, 1_100])
        try record("b1", host: "beta", minute: 2, calibrations: [5_000])
        try record("a2", host: "alpha", minute: 3, calibrations: [1_200, 1_300, 1_250])
        try record("a3", host: "alpha", minute: 4, calibrations: [700], debug: true)
        try record("a4", host: "alpha", minute: 5, calibrations: [1_500], slowdown: 10)
        try record("a5", host: "alpha", minute: 6, calibrations: [1_400])
        let all = try store.calibrations(host: "alpha", excluding: "a5", lastRuns: 30)
        #expect(all.map(\.runID) == ["a1", "a1", "a2", "a2"])
        #expect(all.map(\.feedSHA256) == ["sha", "other", "sha", "other"])
        #expect(all.first?.calibrationNs == [1_000, 1_100] && all[2].calibrationNs == [1_200, 1_300, 1_250])
        #expect(all.first?.startedAt == "2026-11-22T10:01:00Z")
        // The newest run only (a4, a slowdown, is not a run of the host's usual work; a3's samples are debug).
        #expect(Set(try store.calibrations(host: "alpha", excluding: nil, lastRuns: 1).map(\.runID)) == ["a5"])
        #expect(try store.calibrations(host: "gamma", excluding: nil, lastRuns: 30).isEmpty)
        // The same runs' parse samples, on the documents asked for: the run-to-run history.
        let parses = try store.parseHistory(host: "alpha", excluding: "a5", lastRuns: 30, feeds: ["sha"])
        #expect(parses.map(\.runID) == ["a1", "a1", "a2", "a2", "a2"])
        #expect(parses.map(\.sample.wallNs) == [3_000, 3_300, 3_600, 3_900, 3_750])
        #expect(parses.first?.runStartedAt == "2026-11-22T10:01:00Z")
        #expect(
            try store.parseHistory(host: "alpha", excluding: "a5", lastRuns: 30, feeds: ["sha", "other"]).count == 7)
        #expect(try store.parseHistory(host: "alpha", excluding: nil, lastRuns: 30, feeds: []).isEmpty)
        #expect(try store.parseHistory(host: "beta", excluding: nil, lastRuns: 30, feeds: ["sha"]).count == 1)
    }

    /// Runs read back several at once (the backfill's batches) are the runs read one by one, in
    /// the order asked, without the IDs the store does not hold; summaries recorded for several
    /// runs in one transaction are each run's, and a run the store no longer holds is skipped.
    static func readsAndSummarisesRunsInBatches(_ store: any StatsStoring) throws {
        let ids = ["20261122T100000Z-000a", "20261122T100100Z-000b", "20261122T100200Z-000c"]
        for (minute, id) in ids.enumerated() {
            try store.beginRun(environment(id, minute: minute), settings: settings)
            try store.record(
                samples("expat", walls: [3, 1, 2].map { $0 * (minute + 1) }) + samples("libxml2", walls: [7, 8]),
                runID: id)
        }
        let asked = [ids[2], "no-such-run", ids[0]]
        let batch = try store.storedRuns(asked)
        #expect(batch.map(\.runID) == [ids[2], ids[0]])
        for run in batch {
            let alone = try #require(try store.storedRun(run.runID))
            #expect(run.samples == alone.samples && run.environment == alone.environment)
            #expect(run.samples.count == 5)
        }
        #expect(try store.storedRuns([]).isEmpty)
        func cells(_ run: StoredRun) -> [CellRecord] {
            let keys = Dictionary(grouping: run.samples, by: \.cell).keys.sorted { $0.parser < $1.parser }
            let summaries = keys.map { cell in
                CellSummary.summarise(
                    cell, samples: run.samples.filter { $0.cell == cell }, peakResidentBytes: nil,
                    baselinePeakBytes: nil, outcome: nil)
            }
            return CellRecord.of(summaries, samples: run.samples)
        }
        try store.recordSummaries(batch.map { ($0.runID, cells($0)) } + [("no-such-run", cells(batch[0]))])
        for run in batch {
            #expect(try store.cellRecords(of: run.runID)?.map(\.summary) == cells(run).map(\.summary))
        }
        #expect(try store.cellRecords(of: "no-such-run") == nil)
        #expect(try store.unsummarisedRuns() == [ids[1]])
    }

    /// A document-workload run's shapes are kept with the run, read back by document (the newest
    /// run's), and travel with a copy of the run.
    static func keepsDocumentShapes(_ store: any StatsStoring, copy: any StatsStoring) throws {
        func shape(_ path: String, _ sha256: String, elements: Int) -> DocumentProfile {
            DocumentProfile(
                document: path, bytes: 1_000, elements: elements, attributes: 3, textBytes: 400, maximumDepth: 4,
                namespaces: 1, references: 2, sha256: sha256)
        }
        let old = environment("20261122T100000Z-000a", minute: 0)
        let new = environment("20261122T100100Z-000b", minute: 1)
        #expect(try store.documentShapes().isEmpty)
        try store.beginRun(old, settings: settings)
        try store.recordDocuments(
            [shape("a.xml", "sha-a", elements: 10), shape("b.xml", "sha-b", elements: 20)], runID: old.runID)
        try store.beginRun(new, settings: settings)
        try store.recordDocuments([shape("a-moved.xml", "sha-a", elements: 11)], runID: new.runID)
        try store.record(samples("expat", walls: [3]), runID: new.runID)
        // A run of the song workload has none.
        let songs = environment("20261122T100200Z-000c", minute: 2)
        try store.beginRun(songs, settings: settings)

        let shapes = try store.documentShapes()
        #expect(shapes.keys.sorted() == ["sha-a", "sha-b"])
        #expect(shapes["sha-a"] == shape("a-moved.xml", "sha-a", elements: 11), "the newest run's")
        #expect(shapes["sha-b"]?.elements == 20)
        #expect(try store.storedRun(old.runID)?.documents?.map(\.document) == ["a.xml", "b.xml"])
        #expect(try store.storedRun(songs.runID)?.documents == nil)

        let run = try #require(try store.storedRun(new.runID))
        #expect(try copy.importRun(run) == .added)
        #expect(try copy.storedRun(new.runID)?.documents == [shape("a-moved.xml", "sha-a", elements: 11)])
        #expect(try copy.importRun(run) == .alreadyThere)
    }

    /// A parser that the agreement check kept from being timed on a feed, as `bench run` summarises it.
    static func notTimed(_ parser: String, why: String, feed: String = "Data/top300.rss.xml") -> CellSummary {
        var summary = CellSummary.notTimed(
            parser: parser, feedPath: feed, feedSHA256: "sha-\(feed)", feedBytes: 901_440, chunkSize: 16_384, why: why)
        summary.kind = "push/event"
        return summary
    }

    /// The cells a run did not time are kept with the run, each with why.
    ///
    /// They are its parsers that disagreed, failed or crashed in the agreement check, kept from
    /// before anything is timed; they read back as the run's own summaries of them, and travel with
    /// a copy of the run, from a store or from the run's file. A run that timed every parser has none.
    static func keepsNotTimedCells(_ store: any StatsStoring, copy: any StatsStoring) throws {
        let cells = [
            notTimed("expat", why: "DISAGREE: expat built 299 songs, libxml2 built 300"),
            notTimed("foundation", why: "FAILED: undefined entity (line 3, column 12)", feed: "Data/entities.xml"),
        ]
        let id = "20261122T100000Z-000a"
        try store.beginRun(environment(id), settings: settings)
        try store.recordNotTimed(cells, runID: id)
        #expect(try store.storedRun(id)?.notTimed == cells, "kept before anything is timed")
        try store.record(samples("libxml2", walls: [3, 1, 2]), runID: id)
        try store.finishRun(id, endedAt: "2026-11-22T10:00:30Z", noise: nil, rounds: nil)
        let run = try #require(try store.storedRun(id))
        #expect(run.notTimed == cells)
        #expect(run.samples == samples("libxml2", walls: [3, 1, 2]))

        let everyParser = "20261122T100100Z-000b"
        try store.beginRun(environment(everyParser, minute: 1), settings: settings)
        try store.record(samples("expat", walls: [4]), runID: everyParser)
        #expect(try store.storedRun(everyParser)?.notTimed == [])

        #expect(try copy.importRun(run) == .added)
        #expect(try copy.storedRun(id)?.notTimed == cells)
        #expect(try copy.importRun(run) == .alreadyThere)

        // A store that failed before it kept them (the run incomplete there) is completed from the
        // run's file, not-timed cells and all.
        let failed = "20261122T100200Z-000c"
        try copy.beginRun(environment(failed, minute: 2), settings: settings)
        var finished = environment(failed, minute: 2)
        finished.endedAt = "2026-11-22T10:02:30Z"
        finished.complete = true
        let timed = samples("libxml2", walls: [5, 6])
        let file = RunResult(
            environment: finished, settings: settings,
            cells: [
                CellSummary.summarise(
                    timed[0].cell, samples: timed, peakResidentBytes: nil, baselinePeakBytes: nil, outcome: nil)
            ] + cells, samples: timed)
        #expect(StoredRun(file).notTimed == cells)
        #expect(try copy.importRun(StoredRun(file)) == .completed(addedSamples: 2))
        #expect(try copy.storedRun(failed)?.notTimed == cells)
        #expect(try copy.runs().first { $0.runID == failed }?.complete == true)
    }

    /// A store made before the not-timed cells were kept (`old`, a run recorded then) is migrated
    /// when opened: its runs have none, and runs recorded since keep theirs.
    static func olderRunsHaveNoNotTimedCells(_ store: any StatsStoring, old: String) throws {
        let run = try #require(try store.storedRun(old))
        #expect(run.notTimed == [])
        #expect(run.samples.map(\.cell.parser) == ["expat"])
        try store.recordNotTimed([notTimed("expat", why: "CRASHED: signal 11")], runID: old)
        #expect(try store.storedRun(old)?.notTimed == [notTimed("expat", why: "CRASHED: signal 11")])
    }

    /// A run a store held before migration v10 (``oldRunSQL``).
    static let oldRunID = "20261122T090000Z-0old"

    /// The row and one sample of ``oldRunID`` as a store before migration v10 held them (SQL of both stores).
    static let oldRunSQL = """
        INSERT INTO runs (run_id, started_at, command_line, build_configuration, host, os, cpu_model, cores,
            swift_version, libxml2_version, expat_version, complete)
        VALUES ('\(oldRunID)', '2026-11-22T09:00:00Z', 'bench run', 'release', 'alpha', 'Linux', 'CPU', 2, '6.3.1',
            '2.9.14', '2.5.0', TRUE);
        INSERT INTO samples (run_id, parser, scenario, feed_path, feed_sha256, feed_bytes, songs, chunk_size, round,
            iteration, wall_ns, debug)
        VALUES ('\(oldRunID)', 'expat', 'parse', 'Data/top300.rss.xml', 'sha', 901440, 300, 16384, 1, 1, 1000, FALSE)
        """

    /// Copying runs in: added once, skipped again, a different run under the same ID refused, an
    /// incomplete copy completed.
    static func importsRuns(from source: any StatsStoring, into target: any StatsStoring) throws {
        let id = "20261122T100000Z-000a"
        try source.beginRun(environment(id), settings: settings)
        try source.record(samples("expat", walls: [3, 1, 2]), runID: id)
        // The target holds the run as a store that failed after the first cell holds it.
        try target.beginRun(environment(id), settings: settings)
        try target.record(samples("expat", walls: [3, 1, 2]), runID: id)
        try source.record(samples("libxml2", walls: [4, 5]), runID: id)
        try source.finishRun(id, endedAt: "2026-11-22T10:00:30Z", noise: nil, rounds: nil)

        let run = try #require(try source.storedRun(id))
        #expect(try target.importRun(run) == .completed(addedSamples: 2))
        #expect(try target.importRun(run) == .alreadyThere)
        #expect(try target.storedRun(id)?.samples == run.samples)
        #expect(try target.runs().first?.complete == true)

        let other = "20261122T100100Z-000b"
        try source.beginRun(environment(other, host: "beta", minute: 1), settings: nil)
        try source.record(samples("expat", walls: [9]), runID: other)
        #expect(try target.importRun(#require(try source.storedRun(other))) == .added)
        #expect(try target.importRun(#require(try source.storedRun(other))) == .alreadyThere)
        #expect(try target.samples(matching: SampleFilter(hosts: ["beta"])).count == 1)
        #expect(try target.runs().first { $0.runID == other }?.complete == false)

        // The same ID, another machine: refused, nothing written.
        var impostor = try #require(try source.storedRun(other))
        impostor.record.host = "gamma"
        #expect(throws: StatsStoreError.self) { try target.importRun(impostor) }
        // The same ID and machine, a sample that differs: refused.
        var altered = run
        altered.sampleRecords[0].sample.wallNs = 99
        let error = #expect(throws: StatsStoreError.self) { try target.importRun(altered) }
        #expect(error?.description.contains("differs") == true)
        #expect(try target.storedRun(id)?.samples == run.samples)
        #expect(try target.samples(matching: SampleFilter()).count == 6)
    }
}

extension StoreContract {
    /// A run copied in carries its content digest: copied again, it is found by the digest alone
    /// (`deleteOneSample` takes a sample away behind the store's back, which a read of the samples
    /// would see); written to by anything else, the digest is dropped and the samples read again.
    static func aCopiedRunIsKnownByItsDigest(
        from source: any StatsStoring, into target: any StatsStoring, deleteOneSample: () throws -> Void
    ) throws {
        let id = "20261122T100000Z-000d"
        try source.beginRun(environment(id), settings: settings)
        try source.record(samples("expat", walls: [3, 1, 2]), runID: id)
        try source.finishRun(id, endedAt: "2026-11-22T10:00:30Z", noise: nil, rounds: nil)
        let run = try #require(try source.storedRun(id))
        #expect(try target.importRun(run) == .added)
        try deleteOneSample()
        #expect(try target.importRun(run) == .alreadyThere)
        try target.record(samples("expat", walls: [7], round: 2), runID: id)
        let error = #expect(throws: StatsStoreError.self) { try target.importRun(run) }
        #expect(error?.description.contains("differs") == true, "\(String(describing: error))")
    }
}

@Suite("Stats store contract: SQLite")
struct SQLiteStoreContractTests {
    @Test func recordsAndReads() throws {
        let directory = try TemporaryDirectory()
        try StoreContract.recordsAndReads(try StatsStores.open(directory.path("stats.sqlite")))
    }

    @Test func calibrationsOfAHost() throws {
        let directory = try TemporaryDirectory()
        try StoreContract.calibrationsOfAHost(try StatsStores.open(directory.path("stats.sqlite")))
    }

    @Test func readsAndSummarisesRunsInBatches() throws {
        let directory = try TemporaryDirectory()
        try StoreContract.readsAndSummarisesRunsInBatches(try StatsStores.open(directory.path("stats.sqlite")))
    }

    @Test func keepsDocumentShapes() throws {
        let directory = try TemporaryDirectory()
        try StoreContract.keepsDocumentShapes(
            try StatsStores.open(directory.path("a.sqlite")), copy: try StatsStores.open(directory.path("b.sqlite")))
    }

    @Test func keepsNotTimedCells() throws {
        let directory = try TemporaryDirectory()
        try StoreContract.keepsNotTimedCells(
            try StatsStores.open(directory.path("a.sqlite")), copy: try StatsStores.open(directory.path("b.sqlite")))
    }

    @Test func olderRunsHaveNoNotTimedCells() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("old.sqlite")
        do {
            let queue = try DatabaseQueue(path: path)
            try StatsDatabase.migrator.migrate(queue, upTo: "v9: warm-ups of download workers")
            try queue.write { db in try db.execute(sql: StoreContract.oldRunSQL) }
        }
        try StoreContract.olderRunsHaveNoNotTimedCells(try StatsStores.open(path), old: StoreContract.oldRunID)
        let applied = try DatabaseQueue(path: path).read {
            try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations")
        }
        #expect(applied.contains("v10: the cells not timed and why"))
    }

    @Test func importsRuns() throws {
        let directory = try TemporaryDirectory()
        try StoreContract.importsRuns(
            from: try StatsStores.open(directory.path("a.sqlite")),
            into: try StatsStores.open(directory.path("b.sqlite")))
    }

    @Test func aCopiedRunIsKnownByItsDigest() throws {
        let directory = try TemporaryDirectory()
        let target = directory.path("b.sqlite")
        try StoreContract.aCopiedRunIsKnownByItsDigest(
            from: try StatsStores.open(directory.path("a.sqlite")), into: try StatsStores.open(target),
            deleteOneSample: {
                try DatabaseQueue(path: target).write { db in
                    try db.execute(sql: "DELETE FROM samples WHERE id = (SELECT max(id) FROM samples)")
                }
            })
    }
}

// The PostgreSQL store: in a build with the suite's trait SharedStore.
#if SharedStore
    @Suite("Stats store: PostgreSQL locations without a server")
    struct PostgresLocationTests {
        @Test func theSameNamedMigrationsAsSQLite() {
            #expect(PostgresStatsStore.migrations.map(\.identifier) == StatsDatabase.migrator.migrations)
        }

        @Test func aPasswordInTheURLIsRefused() {
            for url in [
                "postgres://bench:secret@127.0.0.1:1/bench", "postgresql://bench@127.0.0.1:1/bench?password=secret",
            ] {
                let error = #expect(throws: StatsStoreError.self) { try StatsStores.open(url) }
                #expect(error?.description.contains("PGPASSWORD") == true)
                #expect(error?.description.contains("secret") == false)
            }
        }

        @Test func anUnreachableServerIsAClearError() throws {
            let error = #expect(throws: StatsStoreError.self) {
                try StatsStores.open("postgres://bench@127.0.0.1:1/bench?connect_timeout=5")
            }
            #expect(
                error?.description.contains("cannot connect to the stats store postgres://bench@127.0.0.1:1/bench")
                    == true)
            #expect(error?.description.contains("refused") == true)
            #expect(throws: StatsStoreError.self) { try StatsStores.open("mysql://bench@127.0.0.1/bench") }
        }
    }

    @Suite(
        "Stats store contract: PostgreSQL", .serialized,
        .enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.missing)))
    struct PostgresStoreContractTests {
        @Test func recordsAndReads() throws {
            let database = try PostgresTestServer.Database()
            try StoreContract.recordsAndReads(try StatsStores.open(database.url))
        }

        @Test func calibrationsOfAHost() throws {
            let database = try PostgresTestServer.Database()
            try StoreContract.calibrationsOfAHost(try StatsStores.open(database.url))
        }

        @Test func readsAndSummarisesRunsInBatches() throws {
            let database = try PostgresTestServer.Database()
            try StoreContract.readsAndSummarisesRunsInBatches(try StatsStores.open(database.url))
        }

        @Test func keepsDocumentShapes() throws {
            let database = try PostgresTestServer.Database()
            let directory = try TemporaryDirectory()
            try StoreContract.keepsDocumentShapes(
                try StatsStores.open(database.url), copy: try StatsStores.open(directory.path("b.sqlite")))
        }

        @Test func keepsNotTimedCells() throws {
            let database = try PostgresTestServer.Database()
            let directory = try TemporaryDirectory()
            try StoreContract.keepsNotTimedCells(
                try StatsStores.open(database.url), copy: try StatsStores.open(directory.path("b.sqlite")))
            let back = try PostgresTestServer.Database()
            try StoreContract.keepsNotTimedCells(
                try StatsStores.open(directory.path("c.sqlite")), copy: try StatsStores.open(back.url))
        }

        @Test func olderRunsHaveNoNotTimedCells() throws {
            let database = try PostgresTestServer.Database()
            // A database as a bench before migration v10 left it.
            _ = try StatsStores.open(database.url)
            try database.psql(
                "ALTER TABLE runs DROP COLUMN not_timed; "
                    + "DELETE FROM grdb_migrations WHERE identifier = 'v10: the cells not timed and why'; "
                    + StoreContract.oldRunSQL)
            try StoreContract.olderRunsHaveNoNotTimedCells(
                try StatsStores.open(database.url), old: StoreContract.oldRunID)
            #expect(
                try database.psql(
                    "SELECT count(*) FROM grdb_migrations WHERE identifier = 'v10: the cells not timed and why'") == "1"
            )
        }

        @Test func importsRunsBothWays() throws {
            let database = try PostgresTestServer.Database()
            let directory = try TemporaryDirectory()
            try StoreContract.importsRuns(
                from: try StatsStores.open(directory.path("a.sqlite")), into: try StatsStores.open(database.url))
            let back = try PostgresTestServer.Database()
            try StoreContract.importsRuns(
                from: try StatsStores.open(back.url), into: try StatsStores.open(directory.path("b.sqlite")))
        }

        @Test func aCopiedRunIsKnownByItsDigest() throws {
            let database = try PostgresTestServer.Database()
            let directory = try TemporaryDirectory()
            try StoreContract.aCopiedRunIsKnownByItsDigest(
                from: try StatsStores.open(directory.path("a.sqlite")), into: try StatsStores.open(database.url),
                deleteOneSample: { try database.psql("DELETE FROM samples WHERE id = (SELECT max(id) FROM samples)") })
        }

        /// A server that does not answer (here, a statement that sleeps; to the client, the same as a
        /// dead network) is cut by the statement timeout, as a lost connection; the connection is then
        /// made again and works.
        @Test func aStatementWithNoAnswerIsCutByTheTimeout() throws {
            let database = try PostgresTestServer.Database()
            let connection = try PostgresConnection(url: database.url, location: database.url, queryTimeout: 1)
            let error = #expect(throws: StatsStoreError.self) { try connection.execute("SELECT pg_sleep(60)") }
            #expect(error?.connectionLost == true)
            #expect(error?.description.contains("no answer within 1 s") == true, "\(String(describing: error))")
            #expect(throws: StatsStoreError.self) { try connection.execute("SELECT 1") }
            try connection.reconnect()
            let row = try #require(try connection.execute("SELECT 41 + 1 AS answer").first)
            #expect(row["answer"] as Int64? == 42)
        }

        @Test func theSameColumnsAsSQLite() throws {
            let database = try PostgresTestServer.Database()
            _ = try StatsStores.open(database.url)
            let directory = try TemporaryDirectory()
            _ = try StatsStores.open(directory.path("stats.sqlite"))
            let sqlite = try DatabaseQueue(path: directory.path("stats.sqlite"))
            for table in ["runs", "samples"] {
                let columns = try sqlite.read { db in try db.columns(in: table).map(\.name) }.sorted()
                let server = try database.psql(
                    "SELECT column_name FROM information_schema.columns WHERE table_name = '\(table)' ORDER BY column_name"
                )
                let names: [String] = server.split(separator: "\n").map { String($0) }
                #expect(names == columns)
            }
        }

        /// A role that may only `SELECT` reads the store (`bench report`, `history`, `compare --store`
        /// open it to read): they tried to migrate it first, and a read-only role may not even check a
        /// table's existence by `CREATE TABLE IF NOT EXISTS`.
        @Test func aRoleThatMayOnlyReadReadsTheStore() throws {
            let database = try PostgresTestServer.Database()
            let store = try StatsStores.open(database.url)
            let run = StoreContract.environment("20261122T100000Z-000a")
            try store.beginRun(run, settings: nil)
            try store.record(StoreContract.samples("expat", walls: [3, 1, 2]), runID: run.runID)
            try store.finishRun(run.runID, endedAt: "2026-11-22T10:00:30Z", noise: nil, rounds: nil)
            try database.grantReading()

            let reader = try StatsStores.open(database.readerURL, mustExist: true, readOnly: true)
            #expect(try reader.runs().map(\.runID) == [run.runID])
            #expect(try reader.samples(matching: SampleFilter()).count == 3)
            #expect(try reader.storedRun(run.runID) != nil)
            // The role may not write: opening the store to write is refused, and so is a write.
            #expect(throws: StatsStoreError.self) { try StatsStores.open(database.readerURL) }
            #expect(throws: StatsStoreError.self) { try reader.removeRun(run.runID) }

            // A store that lacks a schema step cannot be read by a role that may not make it: an error
            // names the step, and nothing is changed.
            let last = try #require(PostgresStatsStore.migrations.last?.identifier)
            try database.psql(
                "DELETE FROM grdb_migrations WHERE identifier = '\(last.replacingOccurrences(of: "'", with: "''"))'")
            let error = #expect(throws: StatsStoreError.self) {
                try StatsStores.open(database.readerURL, mustExist: true, readOnly: true)
            }
            #expect(
                error?.description.contains("needs 1 schema step(s) (\(last))") == true, "\(String(describing: error))")
            #expect(try database.psql("SELECT count(*) FROM grdb_migrations WHERE identifier = '\(last)'") == "0")
        }

        @Test func aNewerSchemaIsRefusedUntouched() throws {
            let database = try PostgresTestServer.Database()
            _ = try StatsStores.open(database.url)
            try database.psql("INSERT INTO grdb_migrations VALUES ('v99: from the future')")
            let before = try database.psql("SELECT count(*) FROM grdb_migrations")
            let error = #expect(throws: StatsStoreError.self) { try StatsStores.open(database.url) }
            #expect(error?.description.contains("made by a newer bench") == true)
            #expect(error?.description.contains("v99: from the future") == true)
            #expect(try database.psql("SELECT count(*) FROM grdb_migrations") == before)
        }

        @Test func manyOpenAFreshDatabaseAtOnceAndImportOneRunOnce() async throws {
            let database = try PostgresTestServer.Database()
            let directory = try TemporaryDirectory()
            let source = try StatsStores.open(directory.path("a.sqlite"))
            try source.beginRun(StoreContract.environment("20261122T100000Z-000a"), settings: nil)
            try source.record(StoreContract.samples("expat", walls: [1, 2]), runID: "20261122T100000Z-000a")
            let run = try #require(try source.storedRun("20261122T100000Z-000a"))
            let url = database.url
            let outcomes = try await withThrowingTaskGroup(of: ImportOutcome.self) { group in
                for _ in 0..<6 {
                    group.addTask { try StatsStores.open(url).importRun(run) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .added }.count == 1)
            #expect(outcomes.filter { $0 == .alreadyThere }.count == 5)
            #expect(try database.psql("SELECT count(*) FROM samples") == "2")
            #expect(
                try database.psql("SELECT count(*) FROM grdb_migrations") == String(PostgresStatsStore.migrations.count)
            )
        }
    }
#endif
