import BenchResults
import BenchTestSupport
import Foundation
import StatsStore
import Testing

/// `bench history` end to end on a store with a known history: 30 runs of two parsers, expat 5%
/// slower from run 21 (commit "slow"), libxml2 unchanged.
@Suite("bench history, end to end")
struct HistoryCommandTests {
    @Test func theShiftIsFoundAtItsRunAndCommitAndNowhereElse() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("stats.sqlite")
        let store = try StatsStores.open(path)
        for run in 0..<30 {
            var walls: [String: [Double]] = [:]
            for (index, parser) in ["expat", "libxml2"].enumerated() {
                let slow = parser == "expat" && run >= 20 ? 1.05 : 1.0
                walls[parser] = SyntheticRuns.noisy(
                    3_000_000 * slow, count: 5, noise: 0.01,
                    seed: UInt64(run * 2 + index + 1) &* 0x9E37_79B9_7F4A_7C15)
            }
            var result = SyntheticRuns.run(
                id: String(format: "20261122T10%02d00Z-h", run), started: String(format: "2026-11-22T10:%02d:00Z", run),
                rounds: walls)
            result.environment.gitCommit = run >= 20 ? "slow" : "fast\(run)"
            try store.beginRun(result.environment, settings: result.settings)
            try store.record(result.samples, runID: result.environment.runID)
            try store.finishRun(
                result.environment.runID, endedAt: result.environment.startedAt, noise: nil, rounds: nil)
        }
        try store.summariseStoredRuns()
        let table = try runBench(["history", "--store", path, "--metric", "wall", "--scenario", "parse"])
        #expect(table.status == 0, "\(table.standardError)")
        let lines = table.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("libxml2, parse") && $0.contains("no change in 30 runs") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("expat, parse") && $0.contains("1 change(s) in 30 runs") })
        // Where (the run and commit), then on the next line how much.
        let at = lines.firstIndex {
            $0.contains(
                "at run 21, 20261122T102000Z-h (commit slow; the run before: 20261122T101900Z-h, commit fast19)")
        }
        #expect(at.map { lines[$0 + 1].hasPrefix("    +") } == true, "\(table.standardOutput)")
        #expect(table.standardOutput.contains("Method: E-Divisive means"))

        let json = try runBench(["history", "--store", path, "--metric", "wall", "--format", "json"])
        let decoded = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(decoded["method"] as? String == "e-divisive-means")

        // Bad input: a metric the runs do not have, a format it does not write.
        let none = try runBench(["history", "--store", path, "--metric", "instructions"])
        #expect(
            none.status == 1
                && words(none.standardError).contains(
                    "the 30 stored runs of that selection have no instructions figures"),
            "\(none.standardError)")
        #expect(try runBench(["history", "--store", path, "--format", "html"]).status == 1)
        // A selection no run has: said as such, not as a lack of calibrated figures.
        for selection in [["--parsers", "c-expat"], ["--scenario", "conditional-304"]] {
            let empty = try runBench(["history", "--store", path] + selection)
            #expect(
                empty.status == 1 && words(empty.standardError).contains("no stored run has a cell of that selection"),
                "\(selection): \(empty.standardError)")
        }

        // A run that did not finish is in the series, and said under the table.
        var unfinished = SyntheticRuns.run(
            id: "20261122T113000Z-h", started: "2026-11-22T11:30:00Z",
            rounds: ["expat": [3_150_000], "libxml2": [3_000_000]])
        unfinished.environment.complete = false  // as a run begins
        try store.beginRun(unfinished.environment, settings: unfinished.settings)
        try store.record(unfinished.samples, runID: unfinished.environment.runID)
        try store.summariseStoredRuns()
        let withIt = try runBench(["history", "--store", path, "--metric", "wall", "--scenario", "parse"])
        #expect(withIt.status == 0, "\(withIt.standardError)")
        #expect(
            words(withIt.standardOutput).contains(
                "1 of the 31 runs searched did not finish (interrupted, failed, or still running)"),
            "\(withIt.standardOutput)")
        // The JSON marks its point, and only its.
        let marked = try runBench([
            "history", "--store", path, "--metric", "wall", "--scenario", "parse", "--format", "json",
        ])
        #expect(marked.status == 0, "\(marked.standardError)")
        struct Document: Decodable { var series: [RunSeries] }
        let points = try JSONDecoder().decode(Document.self, from: Data(marked.standardOutput.utf8)).series
            .flatMap(\.points)
        #expect(points.count == 62, "\(points.count)")
        #expect(
            Set(points.filter { $0.incomplete == true }.map(\.runID)) == ["20261122T113000Z-h"],
            "\(marked.standardOutput)")
        #expect(points.allSatisfy { $0.incomplete == true || $0.incomplete == nil })
        let without = try runBench(["history", "--store", path, "--metric", "wall", "--exclude-incomplete"])
        #expect(without.status == 0 && !without.standardOutput.contains("did not finish"), "\(without.standardOutput)")
        #expect(without.standardOutput.contains("no change in 30 runs"), "\(without.standardOutput)")
    }

    /// A store with too few runs to search: the headline says nothing was searched, never "0 of 2
    /// series shifted" over series it could not tell about.
    @Test func tooFewRunsAreSaidAsNothingSearched() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("stats.sqlite")
        let store = try StatsStores.open(path)
        for run in 0..<3 {
            let result = SyntheticRuns.run(
                id: String(format: "20261122T10%02d00Z-f", run), started: String(format: "2026-11-22T10:%02d:00Z", run),
                rounds: ["expat": [3_000_000, 3_010_000], "libxml2": [2_000_000, 2_010_000]])
            try store.beginRun(result.environment, settings: result.settings)
            try store.record(result.samples, runID: result.environment.runID)
            try store.finishRun(
                result.environment.runID, endedAt: result.environment.startedAt, noise: nil, rounds: nil)
        }
        try store.summariseStoredRuns()
        let history = try runBench(["history", "--store", path, "--metric", "wall"])
        #expect(history.status == 0, "\(history.standardError)")
        #expect(
            words(history.standardOutput).hasPrefix(
                "None of the 2 series has the runs to tell a shift (8 needed): nothing was searched (metric: wall)."),
            "\(history.standardOutput)")
        #expect(!history.standardOutput.contains("series searched shifted"))
    }

    /// The host ran 1.4× slower through runs 6–10 (every parse and its calibration alike), and expat
    /// got 5% slower from run 21: wall time sees the host's slow spell in both parsers, calibrated
    /// time (the default) sees only expat's change, also with `--parsers expat` (the run's
    /// calibration is all its workers'), and the HTML history marks it on its chart.
    @Test func calibratedTimeSeesTheCodeNotTheHostAndTheHTMLMarksIt() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("stats.sqlite")
        let store = try StatsStores.open(path)
        for run in 0..<30 {
            let host = (5..<10).contains(run) ? 1.4 : 1.0
            var walls: [String: [Double]] = [:]
            for (index, parser) in ["expat", "libxml2"].enumerated() {
                let slow = parser == "expat" && run >= 20 ? 1.05 : 1.0
                walls[parser] = SyntheticRuns.noisy(
                    3_000_000 * slow * host, count: 5, noise: 0.01,
                    seed: UInt64(run * 2 + index + 1) &* 0x9E37_79B9_7F4A_7C15)
            }
            var result = SyntheticRuns.run(
                id: String(format: "20261122T10%02d00Z-c", run), started: String(format: "2026-11-22T10:%02d:00Z", run),
                rounds: walls, calibrationNs: Int(600_000 * host))
            result.environment.gitCommit = run >= 20 ? "slow" : "fast\(run)"
            try store.beginRun(result.environment, settings: result.settings)
            try store.record(result.samples, runID: result.environment.runID)
            try store.finishRun(
                result.environment.runID, endedAt: result.environment.startedAt, noise: nil, rounds: nil)
        }
        try store.summariseStoredRuns()
        let wall = try runBench(["history", "--store", path, "--metric", "wall"])
        #expect(
            wall.status == 0 && wall.standardOutput.contains("2 of 2 series searched shifted"),
            "\(wall.standardOutput)")
        #expect(wall.standardOutput.contains("at run 6, 20261122T100500Z-c"), "\(wall.standardOutput)")

        for arguments in [["history", "--store", path], ["history", "--store", path, "--parsers", "expat"]] {
            let calibrated = try runBench(arguments)
            let lines = calibrated.standardOutput.split(separator: "\n").map(String.init)
            #expect(calibrated.status == 0, "\(calibrated.standardError)")
            #expect(
                lines.contains { $0.hasPrefix("expat, parse") && $0.contains("1 change(s) in 30 runs") }, "\(lines)")
            #expect(lines.contains { $0.contains("at run 21, 20261122T102000Z-c (commit slow;") }, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("libxml2, parse") } == !arguments.contains("expat"))
            #expect(!lines.contains { $0.hasPrefix("libxml2, parse") && $0.contains("change(s)") }, "\(lines)")
        }

        let html = try runBench(["report", "--store", path, "--format", "html"])
        #expect(html.status == 0, "\(html.standardError)")
        #expect(html.standardOutput.contains("<g><title>expat: calibrated time +"), "no change point drawn")
        #expect(html.standardOutput.contains("from run 20261122T102000Z-c (commit slow)"))
        #expect(!html.standardOutput.contains("<g><title>libxml2: calibrated time"))

        // The page draws the runs' stored summaries: a store pruned of its samples draws the same charts.
        let pruned = try runBench(["store", "prune", "--store", path, "--keep-runs", "1", "--quiet"])
        #expect(pruned.status == 0, "\(pruned.standardError)")
        let again = try runBench(["report", "--store", path, "--format", "html"])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(again.standardOutput == html.standardOutput)
    }
}
