import BenchEngine
import BenchTestSupport
import FeedParsers
import Foundation
import Testing

/// The document workload against its oracle: each parser's events, written in James Clark's
/// canonical form, against the W3C suite's expected outputs.
@Suite(
    "The W3C suite's canonical forms",
    .enabled(if: TestPaths.hasSharedData, Comment(rawValue: TestPaths.sharedDataMissing)))
struct CanonicalFormTests {
    static var suite: String { TestPaths.sharedData?.appendingPathComponent("xmlconf").path ?? "" }

    /// The parsers that report events (the floor and the baseline do not).
    static let walkers = ParserRegistry.documentParsers.filter { $0.reportsEvents }.map { $0.name }

    @Test("Each parser reproduces the expected canonical forms, but for its pinned differences", arguments: walkers)
    func oracle(parser: String) throws {
        let cases = try CanonicalOracle.cases(suite: Self.suite, executable: TestPaths.workerExecutable)
        #expect(cases.count > 100)
        var options = ConformanceRunner.Options(executable: TestPaths.workerExecutable)
        options.chunkSize = 7
        let outcome = CanonicalOracle.run(parser: parser, suite: Self.suite, cases: cases, options: options)
        let pinned = CanonicalFormDifferences.pinned(parser)
        var unexplained: [String] = []
        for (item, verdict) in outcome.verdicts {
            switch verdict {
            case .reproduced:
                if let reason = pinned[item.id] { unexplained.append("\(item.id) reproduced, but pinned: \(reason)") }
            case .differs(let difference), .rejected(let difference), .failed(let difference):
                if pinned[item.id] == nil { unexplained.append("\(item.id) \(verdict.label): \(difference)") }
            }
        }
        print(
            "canonical forms: \(parser) reproduced \(outcome.reproduced) of \(cases.count) "
                + "(\(outcome.accepted) accepted)")
        if ["libxml2", "expat", "c-libxml2", "c-expat"].contains(parser) {
            #expect(
                Double(outcome.reproduced) >= 0.95 * Double(outcome.accepted),
                "\(parser) reproduced \(outcome.reproduced) of the \(outcome.accepted) it accepted")
        }
        #expect(unexplained.isEmpty, "\(parser):\n\(unexplained.joined(separator: "\n"))")
    }
}

extension CanonicalOracle.Verdict {
    var label: String {
        switch self {
        case .reproduced: return "reproduced"
        case .differs: return "differs"
        case .rejected: return "rejected"
        case .failed: return "failed"
        }
    }
}
