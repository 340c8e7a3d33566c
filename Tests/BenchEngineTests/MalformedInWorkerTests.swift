import BenchEngine
import BenchTestSupport
import FeedParsers
import ParserTestSupport
import Testing

/// Runs one parser over a document in a worker process, as `bench verify` does: for the parsers that
/// may crash on it (Foundation's `XMLParser` on Linux), or to see what a parse costs its process.
func verifyInWorker(_ name: String, _ bytes: [UInt8], chunkSizes: [Int] = [0], timeout: Double = 120) throws
    -> ParserVerdict
{
    let directory = try TemporaryDirectory()
    let path = try directory.write("doc.xml", bytes)
    let verification = try FeedVerifier.verify(
        feed: path, parsers: [name], chunkSizes: chunkSizes, executable: TestPaths.workerExecutable, timeout: timeout)
    return verification.verdicts[0]
}

/// The malformed documents of `MalformedInputTests` given to the parsers that cannot take them in
/// the test process, each in a worker.
@Suite("Malformed input, in a worker")
struct MalformedInWorkerTests {
    @Test(
        "Foundation-based parsers reject malformed input (in a worker: they may crash)",
        arguments: foundationBasedParsers.filter { !KnownDeviation.errorsNotDetected.contains($0) },
        MalformedDocuments.all.indices)
    func foundationRejects(parser: String, index: Int) throws {
        let (name, bytes) = MalformedDocuments.all[index]
        let verdict = try verifyInWorker(parser, bytes, chunkSizes: [0, 7])
        if KnownDeviation.acceptsMalformed[parser, default: []].contains(name) {
            // It accepts it alone: no parser that meets the contract confirms what it built.
            guard case .unverified = verdict.status else {
                Issue.record("\(name): \(parser) now rejects it (\(verdict.status)): update KnownDeviation")
                return
            }
            return
        }
        guard case .failed(let error) = verdict.status else {
            Issue.record("\(name): \(parser) gave \(verdict.status)")
            return
        }
        #expect(error.parser == parser)
    }
}
