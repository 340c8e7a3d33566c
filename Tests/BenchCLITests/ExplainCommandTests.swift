import BenchResults
import BenchTestSupport
import Foundation
import GRDB
import SongFeed
import Testing

/// Profiles kept by counted runs and `bench compare`'s explanation, end to end: two counted runs
/// of the built tool, the second with extra parse work injected (`--inject-slowdown`), compared by
/// their files and by their stored run IDs, in every format; pruned and damaged profiles.
@Suite("Why did it regress: profiles and bench compare's explanation", .endToEnd)
struct ExplainCommandTests {
    /// Two counted runs of libxml2 on a feed of 30 songs (4 counted parses each: enough for a 95%
    /// interval of exact counts), into `store`, the second 10% slower; their
    /// run IDs and directories.
    static func countedPair(in directory: TemporaryDirectory, store: String) throws -> [(id: String, dir: String)] {
        let feed = try directory.write("songs-30.rss.xml", FeedGenerator(songs: 30).generate().bytes)
        return try [("base", 0), ("head", 10)].map { name, slowdown in
            let result = try runBench(
                [
                    "run", "--counter", "instructions", "--parsers", "libxml2", "--iterations", "4", "--warmup", "1",
                    "--rounds", "1", "--feed", feed, "--store", store, "--format", "json", "--quiet",
                    "--output-dir", directory.path(name),
                ] + (slowdown > 0 ? ["--inject-slowdown", String(slowdown)] : []))
            try #require(result.status == 0, "\(result.standardError)")
            let run = try JSONDecoder().decode(RunResult.self, from: Data(result.standardOutput.utf8))
            return (run.environment.runID, directory.path(name))
        }
    }

    @Test(InstructionCountTests.countingTools)
    func aCountedRegressionIsExplainedInEveryFormat() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("stats.sqlite")
        let runs = try Self.countedPair(in: directory, store: store)
        // Beside the run's files, one compressed archive.
        let archive = runs[0].dir + "/\(runs[0].id)-profiles.json.gz"
        let bytes = try #require(FileManager.default.contents(atPath: archive))
        let decoded = try ProfileArchive.decode(Array(bytes), source: archive)
        // Each cell: the first two of one worker's four counted parses.
        #expect(Set(decoded.profiles.map(\.key.parser)) == ["libxml2", "null"])
        #expect(decoded.profiles.filter { $0.key.parser == "libxml2" }.map(\.parse) == [1, 2])
        let libxml2 = try #require(decoded.profiles.first { $0.key.parser == "libxml2" })
        #expect(libxml2.profile.functions.contains { $0.object == "libxml2" && $0.name == "xmlParseChunk" })
        #expect(libxml2.profile.functions.contains { $0.object == "bench" && $0.name.contains("LibXML2FeedParser") })
        #expect(libxml2.profile.functions.allSatisfy { !$0.name.hasPrefix("$s") })

        // By the run files.
        let stacks = directory.path("stacks")
        let table = try runBench(
            ["compare", runs[0].dir, runs[1].dir, "--metric", "instructions", "--stacks", stacks],
            environment: ["COLUMNS": "100"])
        #expect(table.status == 2, "\(table.standardOutput)\(table.standardError)")
        #expect(table.standardOutput.contains("Why libxml2 (parse, songs-30.rss.xml"))
        #expect(table.standardOutput.contains("These 5 rows add up to"))
        #expect(table.standardOutput.split(separator: "\n").allSatisfy { $0.count <= 100 })
        // Every folded-stack line is in the grammar flamegraph.pl reads: frames joined by ';', a
        // space, a count (two counts in the differential file, as difffolded.pl writes it).
        let names = try FileManager.default.contentsOfDirectory(atPath: stacks).sorted()
        #expect(
            names == [
                "libxml2-parse-songs-30.rss.xml-16384.baseline.folded",
                "libxml2-parse-songs-30.rss.xml-16384.current.folded",
                "libxml2-parse-songs-30.rss.xml-16384.diff.folded",
            ])
        for name in names {
            let text = try String(contentsOfFile: stacks + "/" + name, encoding: .utf8)
            let pattern =
                name.hasSuffix(".diff.folded")
                ? #"^[^;\n]+(;[^;\n]+)* [0-9]+ [0-9]+$"# : #"^[^;\n]+(;[^;\n]+)* [0-9]+$"#
            let lines = text.split(separator: "\n")
            #expect(!lines.isEmpty)
            #expect(lines.allSatisfy { $0.range(of: pattern, options: .regularExpression) != nil }, "\(name)")
        }

        // By the stored run IDs: the same explanation, from the store's profiles.
        let stored = try runBench(
            ["compare", runs[0].id, runs[1].id, "--metric", "instructions", "--store", store, "--format", "json"])
        #expect(stored.status == 2)
        let comparison = try JSONDecoder().decode(RunComparison.self, from: Data(stored.standardOutput.utf8))
        let explanation = try #require(comparison.explanations?.first)
        #expect(explanation.key.parser == "libxml2")
        #expect(explanation.delta > 0 && explanation.basis == .instructions)
        #expect(explanation.rows.count > 5)
        #expect((explanation.explained(top: explanation.rows.count) ?? 0) > 0.999)

        // CSV: a row a cell, then a row a function.
        let csv = try runBench(["compare", runs[0].dir, runs[1].dir, "--metric", "instructions", "--format", "csv"])
        #expect(csv.status == 2)
        let rows = csv.standardOutput.split(separator: "\r\n")
        #expect(rows.first?.hasPrefix("row,parser,scenario") == true)
        #expect(rows.filter { $0.hasPrefix("cell,") }.count == 2)
        #expect(rows.filter { $0.hasPrefix("function,libxml2,") }.count == explanation.rows.count)
        // HTML: a page of its own, with the differential chart.
        let html = try runBench(["compare", runs[0].dir, runs[1].dir, "--metric", "instructions", "--format", "html"])
        #expect(html.status == 2)
        #expect(html.standardOutput.hasPrefix("<!DOCTYPE html>"))
        #expect(html.standardOutput.contains("<svg class=\"chart\""))
        // Markdown: the top ten.
        let markdown = try runBench([
            "compare", runs[0].dir, runs[1].dir, "--metric", "instructions", "--format", "markdown",
        ])
        #expect(markdown.standardOutput.contains("#### Why it moved"))

        // Pruned: the cell is still judged, its explanation missing, said.
        let prune = try runBench(["store", "prune", "--keep-runs", "1", "--store", store])
        #expect(prune.status == 0, "\(prune.standardError)")
        let queue = try DatabaseQueue(path: store)
        let left = try queue.read {
            try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM profiles WHERE run_id = ?", arguments: [runs[0].id])
        }
        #expect(left == 0)
        try queue.close()
    }

    @Test(InstructionCountTests.countingTools)
    func aDamagedOrMissingProfileIsSaidPerCellAndTheCellIsStillJudged() throws {
        let directory = try TemporaryDirectory()
        let runs = try Self.countedPair(in: directory, store: directory.path("stats.sqlite"))
        let archive = runs[0].dir + "/\(runs[0].id)-profiles.json.gz"
        let bytes = try #require(FileManager.default.contents(atPath: archive))
        // Truncated: refused, naming the file; the comparison goes on.
        try Data(bytes.prefix(bytes.count / 2)).write(to: URL(fileURLWithPath: archive))
        let damaged = try runBench(["compare", runs[0].dir, runs[1].dir, "--metric", "instructions"])
        #expect(damaged.status == 2)
        #expect(damaged.standardOutput.contains("not explained"))
        #expect(damaged.standardOutput.contains("profiles.json.gz"))
        #expect(damaged.standardOutput.contains("truncated"))
        // Missing on one side: said per cell.
        try FileManager.default.removeItem(atPath: archive)
        let missing = try runBench(["compare", runs[0].dir, runs[1].dir, "--metric", "instructions"])
        #expect(missing.status == 2)
        #expect(missing.standardOutput.contains("no profile in the baseline"))
        // --explain with no profile on either side: a clear error.
        try FileManager.default.removeItem(atPath: runs[1].dir + "/\(runs[1].id)-profiles.json.gz")
        let none = try runBench(["compare", runs[0].dir, runs[1].dir, "--metric", "instructions", "--explain"])
        #expect(none.status == 1)
        #expect(none.standardError.contains("--counter instructions"))
    }
}
