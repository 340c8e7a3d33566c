import BenchEngine
import BenchResults
import BenchTestSupport
import Foundation
import Testing

/// The suite's optional parts (package traits): declared in Package.swift, all in the suite's own
/// build, and what needs one left out refused with a message that names it.
@Suite("The suite's traits")
struct SuiteTraitTests {
    /// The suite's own build (`swift test`, `swift run -c release bench`) has every optional part:
    /// Package.swift's default traits are the trait list, and it declares each `SuiteTrait`.
    @Test func theSuitesOwnBuildHasEveryTrait() throws {
        #expect(SuiteTrait.enabled == SuiteTrait.allCases)
        let manifest = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        for trait in SuiteTrait.allCases {
            #expect(manifest.contains(".trait(\n            name: \"\(trait.rawValue)\""), "\(trait) is not declared")
        }
        let defaults = SuiteTrait.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        #expect(manifest.contains(".default(enabledTraits: [\(defaults)])"))
    }

    /// A run that names a scenario needing the embedded server, in a build without it, is refused
    /// naming the trait; a default run leaves those scenarios out; a `--url` feed needs no server.
    @Test func aRunWithoutTheServer() throws {
        var request = RunRequest(parsers: ["libxml2"], scenarios: [.parse, .download, .paged])
        let refusal = #expect(throws: SuiteTraitMissing.self) { try request.leavingOutServedScenarios(named: true) }
        #expect(refusal?.trait == .feedServer)
        #expect(
            refusal?.description.hasPrefix(
                "the download scenario (the embedded feed server) needs the suite's trait `FeedServer`") == true)
        #expect(try request.leavingOutServedScenarios(named: false).scenarios == [.parse])
        request.url = "http://127.0.0.1:1/feed.xml"
        #expect(try request.leavingOutServedScenarios(named: false).scenarios == [.parse, .download])
    }

    /// The article "Measuring your own parser" shows the refusal as the tool prints it.
    @Test func theArticleQuotesTheRefusal() throws {
        let article = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent(ArticleExampleTests.article), encoding: .utf8)
        let refusal = SuiteTraitMissing(.feedServer, neededBy: "the download scenario (the embedded feed server)")
        #expect(article.contains("Error: \(refusal)\n"), "copy the message into \(ArticleExampleTests.article)")
    }
}
