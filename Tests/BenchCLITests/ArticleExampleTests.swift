import BenchTestSupport
import Foundation
import Testing

/// The DocC article "Measuring your own parser" shows the complete example.
///
/// Its Swift blocks are the files of `Examples/AppFeedParser`, which CI builds as a package of its
/// own against the public API only: held equal here, the article's code is code that builds.
@Suite("The article's example")
struct ArticleExampleTests {
    static let article = "Sources/BenchCLI/BenchCLI.docc/MeasuringYourOwnParser.md"

    /// The article's top-level ```swift blocks (a list item's indented ones are sketches).
    static func swiftBlocks() throws -> [String] {
        let page = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent(article), encoding: .utf8)
        var blocks: [String] = []
        var current: [Substring]?
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if let lines = current, line == "```" {
                blocks.append(lines.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test(arguments: [
        "app-bench/main.swift", "app-bench-worker/main.swift", "AppParsers/AppParsers.swift",
        "AppParsers/AppFeedParser.swift",
    ])
    func theArticleShowsTheExamplesFile(_ file: String) throws {
        let path = "Examples/AppFeedParser/Sources/\(file)"
        let source = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent(path), encoding: .utf8)
        let shown = try Self.swiftBlocks().contains(source.trimmingCharacters(in: .newlines))
        #expect(shown, "\(Self.article) does not show \(path) as it is: copy the file into the article")
    }
}
