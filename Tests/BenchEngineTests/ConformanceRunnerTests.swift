import BenchEngine
import BenchResults
import BenchTestSupport
import Foundation
import Testing

/// How `bench conformance` and `bench hostile` settle a document that ends its worker.
@Suite("Documents that end their worker")
struct ConformanceRunnerTests {
    /// A document that crashes a worker of several is run again alone; one that was its worker's
    /// only document is not (a hang would cost its time limit twice, the 1,000,000 attributes
    /// ten seconds more per parser that hangs on them).
    @Test func aDocumentIsRunAloneOnceAtMost() throws {
        let directory = try TemporaryDirectory()
        let runs = directory.path("runs")
        // A worker that crashes on its first document, whatever it was given.
        let worker = try directory.write("crash.sh", "#!/bin/sh\necho run >> '\(runs)'\nkill -SEGV $$\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: worker)
        let cases = (0..<3).map {
            ConformanceCase(id: "c\($0)", expectation: .notWellFormed, path: "c\($0).xml", sections: "", summary: "")
        }
        let (table, lines) = ConformanceRunner.runLines(
            parser: "libxml2", suite: directory.path(""), cases: cases,
            options: ConformanceRunner.Options(executable: worker, batchSize: 2))
        #expect(table.results.map(\.outcome) == [.crashed, .crashed, .crashed])
        #expect(table.results.map(\.caseID) == ["c0", "c1", "c2"])
        #expect(table.results.allSatisfy { $0.signal == SIGSEGV })
        #expect(table.notReproducedAlone.isEmpty)
        #expect(lines.allSatisfy { $0 == nil })
        // c0 and c1, then c0 alone; c1 and c2, then c1 alone; c2 alone, once.
        let started = try String(contentsOfFile: runs, encoding: .utf8).split(separator: "\n").count
        #expect(started == 5)
    }
}
