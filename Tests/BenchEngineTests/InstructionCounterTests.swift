import BenchTestSupport
import Foundation
import Testing

@testable import BenchEngine

@Suite("Instruction counter: what a counted worker is given")
struct InstructionCounterTests {
    /// Cells run in parallel and all name the same feed: every counted worker must get the same job
    /// bytes, the feed named through the one link. (The link was removed and re-made by each cell; the
    /// cell that lost the race named the feed by its own path, and its count moved by ~300 instructions.)
    @Test func parallelCellsGetTheSameJobThroughOneLink() throws {
        let directory = try TemporaryDirectory()
        let feed = try directory.write("feed.xml", "<rss/>")
        let counter = InstructionCounter(
            valgrind: "/usr/bin/valgrind", setarch: nil, faketimeLibrary: "/nowhere/libfaketime.so.1",
            executable: "/nowhere/bench", symbol: "region", directory: directory.path("counter"))
        try FileManager.default.createDirectory(atPath: counter.directory, withIntermediateDirectories: true)
        let job = MeasureJob(parser: "libxml2", feed: feed, iterations: 2, warmup: 1, chunkSize: 16384)
        let inputs = Results()
        for round in 0..<20 {
            if round > 0 {
                // A stale link (to another file) is replaced, not followed.
                let link = try counter.feedLink(feed)
                try FileManager.default.removeItem(atPath: link)
                try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/nowhere/else.xml")
            }
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                inputs.add(Result { try counter.command(job, outputPrefix: "out").input ?? [] })
            }
        }
        let all = try inputs.values.map { try $0.get() }
        #expect(all.count == 160)
        #expect(Set(all).count == 1)
        let sent = try JSONDecoder().decode(WorkerJob.self, from: Data(all.first ?? []))
        guard case .measure(let measured) = sent else {
            Issue.record("not a measure job: \(sent)")
            return
        }
        #expect(measured.feed != feed && measured.feed.hasPrefix(counter.directory + "/feed-"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: measured.feed) == feed)
        // No temporary link is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: counter.directory).count == 1)
    }

    /// What the parallel calls returned.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [Result<[UInt8], any Error>] = []
        func add(_ result: Result<[UInt8], any Error>) { lock.withLock { stored.append(result) } }
        var values: [Result<[UInt8], any Error>] { lock.withLock { stored } }
    }
}
