import BenchResults
import BenchTestSupport
import FeedParsers
import Foundation
import StatsStore
import Testing

/// The command line as users expect it (issue 43, item 6): a version, negative numbers that reach
/// their option's check, lists that leave the files alone, a suggestion for a mistyped command,
/// help that lists what each command takes and says each default once, and a commands page that is
/// the tool's own help.
@Suite("The command line")
struct CommandLineTests {
    @Test func versionNamesTheVersionAndTheBuild() throws {
        let result = try runBench(["--version"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("bench 0."), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("libxml2 2.") && result.standardOutput.contains("expat 2."))
        // Within a terminal's 100 columns (one line was 115, 117 in a release build).
        #expect(result.standardOutput.split(separator: "\n").allSatisfy { $0.count <= 100 }, "\(result.standardOutput)")
    }

    /// Every option that takes a number, given a negative one: its own check, with the range.
    @Test(arguments: [
        ["run", "--rounds", "-1"], ["run", "--iterations", "-3"], ["run", "--warmup", "-1"],
        ["run", "--chunk-size", "-5"], ["run", "--timeout", "-1"], ["run", "--songs", "-5"],
        ["run", "--download-rounds", "-2"], ["run", "--downloads-at-once", "-1"], ["run", "--queue-page-size", "-1"],
        ["run", "--max-time", "-1"],
        ["run", "--precision", "-2%"], ["run", "--page-size", "-25"], ["run", "--max-concurrent", "-1"],
        ["run", "--network", "custom", "--bandwidth-kbps", "-1", "--rtt-ms", "5"],
        ["sweep", "--rounds", "-1"], ["sweep", "--chunk-sizes", "-5"], ["sweep", "--songs", "-300"],
        ["sweep", "--chunk-songs", "-1"], ["sweep", "--instructions-up-to", "-1"],
        ["sweep", "--shape", "wide", "--chunk-bytes", "-1"], ["report", "--last", "-1"],
        ["history", "--significance", "-0.5"], ["compare", "a.json", "b.json", "--threshold", "-5"],
        ["compare", "a.json", "b.json", "--confidence", "-95"], ["verify", "--timeout", "-1"],
        ["generate", "--songs", "-1", "--output", "/dev/null"],
        ["generate", "--shape", "deep", "--bytes", "-1", "--output", "/dev/null"], ["serve", "--port", "-1"],
        ["conformance", "--case-timeout", "-1"],
    ])
    func aNegativeNumberGetsItsOptionsRange(_ arguments: [String]) throws {
        let result = try runBench(arguments)
        let option = arguments.last { $0.hasPrefix("--") && !["--output", "--rtt-ms", "--shape"].contains($0) } ?? ""
        #expect(result.status == 1, "\(arguments): \(result.standardError)")
        #expect(!words(result.standardError).contains("Missing value"), "\(arguments): \(result.standardError)")
        #expect(!words(result.standardError).contains("Unexpected argument"), "\(arguments): \(result.standardError)")
        #expect(words(result.standardError).contains(option), "\(arguments): \(result.standardError)")
        // The message itself, not the usage after it ("for more information" said "or more").
        let message = result.standardError.components(separatedBy: "Usage:")[0]
        #expect(
            message.range(of: #"at least|or more|positive|between|above|from [0-9.]+ to"#, options: .regularExpression)
                != nil,
            "\(arguments): no range in \(result.standardError)")
    }

    /// A time limit past what the clock's nanoseconds hold ended `bench` by a trap (SIGILL, exit 132:
    /// "Double value cannot be converted to UInt64") once its first worker started (issue 68, item 8):
    /// each is refused before anything runs, with its range.
    @Test(arguments: [
        ["run", "--timeout", "1e10"], ["run", "--timeout", "inf"], ["sweep", "--timeout", "1e10"],
        ["verify", "--timeout", "1e300"], ["hostile", "--case-timeout", "1e308"],
        ["conformance", "--case-timeout", "1e308"],
    ])
    func aTimeLimitTooLongGetsItsOptionsRange(_ arguments: [String]) throws {
        let directory = try TemporaryDirectory()
        // Were it taken, as little as can run, and nothing written into the checkout.
        let small: [String] =
            switch arguments[0] {
            case "run", "sweep":
                [
                    "--parsers", "libxml2", "--rounds", "1", "--iterations", "1", "--no-store", "--output-dir",
                    directory.path("out"),
                ]
            case "verify", "hostile": ["--parsers", "libxml2"]
            default: ["--parsers", "libxml2", "--output-dir", directory.path("out")]
            }
        let result = try runBench(arguments + small, environment: ["TMPDIR": directory.path("")])
        #expect(result.status == 1, "\(arguments): \(result.status) \(result.standardError)")
        #expect(
            words(result.standardError).contains("\(arguments[1]) must be from 0.001 to 86400 seconds (a day)"),
            "\(arguments): \(result.standardError)")
    }

    /// A scenario that is none of this build's would select nothing: `report` and `history` refuse
    /// it (a report of nothing exited 0), and take a cell's name.
    @Test(arguments: ["report", "history"])
    func anUnknownScenarioIsRefusedByTheReaders(_ command: String) throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("none.sqlite")
        let result = try runBench([command, "--scenario", "parse,bogus", "--store", store])
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains("unknown scenario 'bogus'"), "\(result.standardError)")
        #expect(result.standardError.contains("conditional-304"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: store), "refused before the store is opened")
        let cell = try runBench([command, "--scenario", "conditional-304", "--store", store])
        #expect(!cell.standardError.contains("unknown scenario"), "\(cell.standardError)")
    }

    @Test func precisionNamesItsRange() throws {
        let result = try runBench(["run", "--precision", "200%"])
        #expect(result.status == 1)
        #expect(words(result.standardError).contains("above 0% and below 100%"), "\(result.standardError)")
    }

    @Test func aListOptionLeavesTheFilesAfterItAlone() throws {
        let directory = try TemporaryDirectory()
        let feed = try directory.write("feed.xml", Samples.feed([Samples.item(title: "One")]))
        let result = try runBench(["verify", "--parsers", "libxml2,expat", feed])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains(feed), "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("Data/top300.rss.xml"))
        let checked = result.standardOutput.split(separator: "\n").filter { $0.hasSuffix("agree") }.map {
            $0.split(separator: " ").first.map(String.init) ?? ""
        }
        #expect(checked == ["libxml2", "expat"], "\(result.standardOutput)")
    }

    @Test(arguments: [("rnu", "run"), ("comapre", "compare"), ("histroy", "history"), ("verfy", "verify")])
    func aMistypedCommandGetsTheRightOne(_ typed: String, _ meant: String) throws {
        let result = try runBench([typed])
        #expect(result.status == 1)
        #expect(words(result.standardError).contains("Did you mean '\(meant)'"), "\(result.standardError)")
        #expect(!words(result.standardError).contains("Unexpected argument"))
    }

    /// The help text of one option: its line and the lines under it, up to the next option.
    static func optionHelp(_ help: String, _ option: String) -> String {
        var lines: [Substring] = []
        for line in help.split(separator: "\n") {
            if line.hasPrefix("  -") || line.hasPrefix("  <") {
                if !lines.isEmpty { break }
                if line.hasPrefix("  \(option) ") { lines.append(line) }
            } else if !lines.isEmpty {
                lines.append(line)
            }
        }
        return lines.joined(separator: " ")
    }

    /// `bench report` and `bench history` read the same runs by the same two flags, declared once:
    /// their help is the same words (it had drifted apart).
    @Test func theFlagsThatPickRunsReadTheSameInReportAndHistory() throws {
        let report = try runBench(["report", "--help"], environment: ["COLUMNS": "100"]).standardOutput
        let history = try runBench(["history", "--help"], environment: ["COLUMNS": "100"]).standardOutput
        for flag in ["--include-gate-tests", "--exclude-incomplete"] {
            let text = Self.optionHelp(report, flag)
            #expect(text.count > flag.count + 10, "\(flag): \(report)")
            #expect(text == Self.optionHelp(history, flag), "\(flag)")
        }
    }

    @Test func eachCommandsFormatHelpListsWhatItAccepts() throws {
        for (command, refused) in [("history", ["csv", "html", "jmh", "bmf"]), ("compare", ["jmh"])] {
            let help = try runBench([command, "--help"], environment: ["COLUMNS": "100"]).standardOutput
            let format = Self.optionHelp(help, "--format <format>")
            #expect(format.contains("table") && format.contains("json"), "\(command): \(format)")
            for name in refused {
                #expect(
                    format.range(of: "\\b\(name)\\b", options: .regularExpression) == nil,
                    "\(command) --help lists \(name): \(format)")
            }
        }
        let jmh = try runBench(["compare", "a.json", "b.json", "--format", "jmh"])
        #expect(jmh.status == 1 && words(jmh.standardError).contains("'jmh' is invalid"), "\(jmh.standardError)")
    }

    /// The visible commands, as `bench --help` lists them, with their subcommands.
    static func commands() throws -> [[String]] {
        func listed(_ arguments: [String]) throws -> [String] {
            let help = try runBench(arguments + ["--help"], environment: ["COLUMNS": "100"]).standardOutput
            guard let start = help.range(of: "\nSUBCOMMANDS:\n") else { return [] }
            return help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
                .prefix { !$0.isEmpty }.filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
                .compactMap { $0.split(separator: " ").first.map(String.init) }
        }
        return try listed([]).flatMap { command in
            [[command]] + (try listed([command])).map { [command, $0] }
        }
    }

    @Test func everyDefaultIsSaidOnce() throws {
        let commands = try Self.commands()
        #expect(commands.count >= 12, "\(commands)")
        for command in commands {
            let help = try runBench(command + ["--help"], environment: ["COLUMNS": "100"]).standardOutput
            let flat = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(
                flat.range(of: #"\(default:? [^)]*\)\.? \(default: "#, options: .regularExpression) == nil,
                "\(command): \(flat)")
        }
    }

    @Test func theOverviewIsTrue() throws {
        let help = try runBench(["--help"], environment: ["COLUMNS": "100"]).standardOutput
        let flat = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("Measures \(ParserRegistry.names.count) parsers"), "\(flat)")
        for name in ParserRegistry.names { #expect(flat.contains(name), "\(name) missing from the overview") }
        #expect(flat.contains("CSV, JSON and HTML") && flat.contains("Results/stats.sqlite"))
    }

    /// docs/commands.md holds, after its marker line, exactly what scripts/commands-doc.sh writes
    /// from the tool's help: `scripts/commands-doc.sh` rewrites it when this fails.
    @Test func theCommandsPageIsTheToolsOwnHelp() throws {
        let page = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/commands.md"), encoding: .utf8)
        let marker =
            "<!-- Everything below is written by scripts/commands-doc.sh from `bench <command> --help`: do not edit. -->\n"
        let start = try #require(page.range(of: marker), "docs/commands.md has no marker line")
        var expected = ""
        for command in try Self.commands() {
            let help = try runBench(command + ["--help"], environment: ["COLUMNS": "100"]).standardOutput
            expected += "\n### `bench \(command.joined(separator: " "))`\n\n```text\n\(help)```\n"
        }
        #expect(
            String(page[start.upperBound...]) == expected,
            "docs/commands.md differs from the tool's help: run scripts/commands-doc.sh")
    }
}
