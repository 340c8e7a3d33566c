import BenchResults
import BenchTestSupport
import Foundation
import GRDB
import SongFeed
import SongStore
import Testing

/// `bench run --scenario paged,fields,gzip,queue,store`, end to end, and the song store.
@Suite("The practices, end to end", .serialized)
struct PracticeCommandTests {
    /// Rows of a CSV document (no quoted commas in the columns read here).
    func rows(_ text: String) -> [[String: String]] {
        let lines = text.split(separator: "\r\n").map(String.init)
        guard let first = lines.first else { return [] }
        let header = first.split(separator: ",").map(String.init)
        return lines.dropFirst().map { line in
            Dictionary(
                uniqueKeysWithValues: zip(
                    header, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
        }
    }

    @Test func everyPracticeRunsRecordsAndReports() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("stats.sqlite")
        let output = directory.path("out")
        let result = try runBench([
            "run", "--scenario", "paged,fields,gzip,queue,store", "--page-size", "50,300", "--max-concurrent", "1,3",
            "--network", "loopback", "--parsers", "expat,libxml2-dom", "--iterations", "1", "--warmup", "0",
            "--download-rounds", "1", "--store", store, "--output-dir", output,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        for heading in [
            "paging on top300", "fields on top300", "compression on top300", "queue on top300", "cancel on top300",
            "store on top300",
        ] {
            #expect(result.standardOutput.contains(heading), "no \(heading) table")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: output)
        #expect(files.contains { $0.hasSuffix("-practices.csv") })
        let jsonName = try #require(files.first { $0.hasSuffix("-practices.json") })
        let figures = try JSONDecoder().decode(
            [PracticeFigures].self, from: Data(contentsOf: URL(fileURLWithPath: output + "/" + jsonName))
        )
        .filter { $0.parser != "null" }
        #expect(
            Set(figures.map(\.scenario)) == [
                "paged-50", "paged-300", "fields-all", "fields-songs", "gzip-off", "gzip-on", "queue-1", "queue-3",
                "cancel-1",
                "cancel-3", "store-song-ordered", "store-song-shuffled", "store-batch-ordered", "store-batch-shuffled",
            ])
        for f in figures {
            #expect(f.failed == 0 && f.outcome == nil, "\(f)")
            #expect(f.songs == (f.practice == .cancel ? 25 : 300), "\(f)")
        }
        func row(_ scenario: String, _ parser: String = "expat") throws -> PracticeFigures {
            try #require(figures.first { $0.scenario == scenario && $0.parser == parser })
        }
        #expect(try row("paged-50").requests == 6)
        #expect(try row("queue-3").requests == 12)
        #expect(try row("cancel-3").startedAfterCancel == 0)
        #expect(try row("cancel-3").afterCancelParseNs == 0)
        // Bytes on the wire: the selection and gzip send far less than the whole feed.
        let all = try row("fields-all").wireBytes ?? 0
        #expect(all == 901_440)
        #expect(try (row("fields-songs").wireBytes ?? .infinity) < all * 0.3)
        #expect(try (row("gzip-on").wireBytes ?? .infinity) < all * 0.2)
        #expect(try row("gzip-on").bytes == 901_440)
        #expect(try row("store-batch-ordered").storeNs != nil)

        // The store holds the new figures; the HTML has a section per practice.
        let queue = try DatabaseQueue(path: store)
        let stored = try queue.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM samples WHERE requests IS NOT NULL AND wire_bytes IS NOT NULL") ?? 0
        }
        #expect(stored > 0)
        let html = try String(contentsOfFile: output + "/latest.html", encoding: .utf8)
        for section in [
            "Paging", "Partial response", "Compression", "A bounded fetch queue", "Cancel when the user leaves",
            "Storing the songs",
        ] {
            #expect(html.contains("<h2>\(section)</h2>"), "no \(section) section")
        }
    }

    @Test func theReadPracticeRunsOneParserPairsItsChoicesAndCountsAllocations() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("stats.sqlite")
        let output = directory.path("out")
        let result = try runBench([
            "run", "--scenario", "read", "--parsers", "expat,libxml2", "--iterations", "2", "--warmup", "1",
            "--download-rounds", "2", "--store", store, "--output-dir", output,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardOutput.contains("read on top300.rss.xml (300 songs stored, parsed by libxml2)"),
            "\(result.standardOutput)")
        let files = try FileManager.default.contentsOfDirectory(atPath: output)
        let jsonName = try #require(files.first { $0.hasSuffix("-practices.json") })
        let figures = try JSONDecoder().decode(
            [PracticeFigures].self, from: Data(contentsOf: URL(fileURLWithPath: output + "/" + jsonName)))
        // One parser: the reading does not depend on it.
        #expect(figures.map(\.parser) == Array(repeating: "libxml2", count: 6))
        #expect(
            figures.map(\.scenario) == [
                "read-shared", "read-per-screen", "read-batch", "read-faults", "read-cache-table", "read-cache-default",
            ])
        for f in figures {
            #expect(f.failed == 0 && f.outcome == nil && f.n == 4 && f.songs == 300 && f.visits == 50, "\(f)")
            #expect((f.totalLowNs ?? .infinity) <= (f.totalNs ?? 0) && (f.totalNs ?? .infinity) <= (f.totalHighNs ?? 0))
            #expect((f.allocatedBytesPerVisit ?? 0) > 0 && f.pagesReadPerVisit != nil, "\(f)")
        }
        let pairs = figures.compactMap { f in f.pairRatio.map { (f.scenario, $0.reference, $0.rounds) } }
        #expect(pairs.map(\.0) == ["read-per-screen", "read-faults", "read-cache-default"])
        #expect(pairs.map(\.1) == ["read-shared", "read-batch", "read-cache-table"])
        #expect(pairs.allSatisfy { $0.2 == 2 })
        // A new connection per screen reads its pages again every visit; the kept one from its cache.
        let perScreen = try #require(figures.first { $0.scenario == "read-per-screen" })
        #expect((perScreen.pagesReadPerVisit ?? 0) >= 1)
        #expect(figures.first { $0.scenario == "read-batch" }?.pagesReadPerVisit == 0)
        // The store keeps the visits and pages read; the HTML has the section.
        let queue = try DatabaseQueue(path: store)
        let stored = try queue.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM samples WHERE visits = 50 AND pages_read IS NOT NULL AND wall_ns > 0")
                ?? 0
        }
        #expect(stored == 24)
        let html = try String(contentsOfFile: output + "/latest.html", encoding: .utf8)
        #expect(html.contains("<h2>Reading the stored songs</h2>"))
    }

    @Test(arguments: [
        (["--scenario", "paged", "--page-size", "0"], "--page-size: '0' is not a whole number"),
        (["--scenario", "queue", "--max-concurrent", "two"], "--max-concurrent: 'two' is not a whole number"),
        (["--scenario", "fields", "--url", "http://127.0.0.1:9/feed.xml"], "measured against the embedded server"),
        (["--scenario", "pages"], "unknown scenario 'pages'"),
    ])
    func badPracticeOptionsAreRefusedWithAMessage(arguments: [String], message: String) throws {
        let directory = try TemporaryDirectory()
        let result = try runBench(["run", "--no-store", "--output-dir", directory.path("out")] + arguments)
        #expect(result.status != 0)
        #expect(words(result.standardError).contains(message), "\(result.standardError)")
    }

    @Test func aFeedTheServerCannotPageStopsTheRunBeforeAnyPractice() throws {
        let directory = try TemporaryDirectory()
        // Well-formed XML, but neither RSS nor Atom: no songs, no pages. No parser can be timed on
        // it, so the run stops after the check (issue 43: it ran the practices' empty cells, wrote
        // their files and exited 1).
        let feed = try directory.write("plain.xml", "<?xml version=\"1.0\"?><songs><song/></songs>")
        let result = try runBench([
            "run", "--scenario", "paged,store", "--page-size", "10", "--network", "loopback", "--parsers", "expat",
            "--iterations", "1", "--warmup", "0", "--download-rounds", "1", "--no-store", "--output-dir",
            directory.path("out"),
            "--feed", feed,
        ])
        #expect(result.status == 5, "\(result.standardError)")
        #expect(
            words(result.standardError).contains("Unusable input: \(feed): XML, but not a feed"),
            "\(result.standardError)")
        #expect(result.standardOutput.isEmpty, "\(result.standardOutput)")
    }

    @Test(arguments: SongStore.Plan.all)
    func theStoreWritesEverySongWithAnAppsDefaults(plan: SongStore.Plan) throws {
        let directory = try TemporaryDirectory()
        let songs = (0..<300).map {
            Song(title: "t\($0)", category: "c", artist: "a\($0 % 17)", album: "b", releaseDate: nil)
        }
        let queue = try SongStore.create(at: directory.path("songs.sqlite"), plan: plan, songs: songs.count)
        let ordered = SongStore.ordered(songs, plan: plan)
        #expect(Set(ordered) == Set(songs))
        #expect(plan.inIndexOrder == (ordered == songs.sorted { ($0.artist, $0.title) < ($1.artist, $1.title) }))
        try SongStore.write(ordered, to: queue, plan: plan)
        #expect(try SongStore.count(queue) == 300)
        let settings = try SongStore.settings(queue)
        #expect(settings.journalMode == "delete" && settings.synchronous == "FULL")
        #expect(SongStore.Plan(cellName: plan.description) == plan)
    }
}
