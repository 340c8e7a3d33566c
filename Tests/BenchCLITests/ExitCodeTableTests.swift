import BenchTestSupport
import Foundation
import Testing

@testable import BenchCLI

/// The exit statuses are a contract: docs/commands.md holds the table `BenchExitCode` makes, and
/// `bench --help` lists every code.
@Suite("The exit-code table")
struct ExitCodeTableTests {
    @Test func theDocumentedTableIsTheToolsOwn() throws {
        let commands = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/commands.md"), encoding: .utf8)
        let begin = "<!-- exit-codes: generated from BenchExitCode; a test holds them equal -->\n"
        let end = "\n<!-- /exit-codes -->"
        let start = try #require(commands.range(of: begin), "docs/commands.md has no exit-code table")
        let stop = try #require(commands.range(of: end, range: start.upperBound..<commands.endIndex))
        #expect(String(commands[start.upperBound..<stop.lowerBound]) == BenchExitCode.markdownTable)
        #expect(Set(BenchExitCode.allCases.map(\.rawValue)).count == BenchExitCode.allCases.count)
        let help = try runBench(["--help"])
        for code in BenchExitCode.allCases {
            #expect(help.standardOutput.contains("\(code.rawValue) "), "\(code)")
        }
    }
}
