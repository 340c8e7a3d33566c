import BenchResults
import FeedParsers
import Foundation
import SongFeed
import Testing

@testable import BenchEngine
@testable import BenchWorker

@Suite("A scenario's input: the hook the measuring worker calls for its bytes")
struct ParseInputTests {
    /// An input that hands the parses other bytes than the feed's: what they parse shows whose they were.
    struct OtherFeed: ParseInput {
        let other: [UInt8]

        func withBytes<R>(_ bytes: [UInt8], path: String, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
            try other.withUnsafeBytes { try body($0) }
        }
    }

    /// The worker's parses consume what the scenario's input holds, made once around all of them.
    @Test func theWorkerParsesWhatItsScenarioInputHolds() throws {
        let feed = FeedGenerator(songs: 20).generate()
        let other = FeedGenerator(songs: 3).generate()
        let measured = try MeasureWorker.measure(
            .songs(ExpatFeedParser.self), bytes: feed.bytes, input: OtherFeed(other: other.bytes), path: "",
            iterations: 2, warmup: 1, chunkSize: 4_096, progressDescriptor: nil, slowdownPercent: 0,
            retryPreempted: false, countingOnly: false, countAllocations: false)
        #expect(measured.iterations.map(\.songs) == [3, 3])
        #expect(measured.digest == SongDigest.sha256(of: other.songs))
        // The default input is the feed's own bytes.
        let copied = try MeasureWorker.measure(
            .songs(ExpatFeedParser.self), bytes: feed.bytes, input: AlignedCopy(), path: "", iterations: 1,
            warmup: 0, chunkSize: 4_096, progressDescriptor: nil, slowdownPercent: 0, retryPreempted: false,
            countingOnly: false, countAllocations: false)
        #expect(copied.iterations.map(\.songs) == [20])
    }

    /// `parse` and `document` jobs name no scenario (their bytes are as they were); the worker then
    /// copies the feed.
    @Test func theParseScenariosJobsNameNoScenario() {
        #expect(ScenarioID.parse.parseInput is AlignedCopy)
        #expect(ScenarioID.document.parseInput is AlignedCopy)
        let job = MeasureJob(parser: "expat", feed: "f", iterations: 1, warmup: 0, chunkSize: 1)
        #expect(job.scenario == nil)
        #expect(String(decoding: WorkerJob.measure(job).encoded(), as: UTF8.self).contains("scenario") == false)
    }
}
