import BenchResults
import FeedParsers
import Foundation
import SongFeed

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The worker side of `ConformanceRunner`.
package enum ConformanceWorker {
    /// What the worker reports for one document: one JSON object per line.
    package struct Line: Codable, Sendable {
        /// The document's position among the worker's arguments.
        package var index: Int
        package var result: ConformanceResult
        /// The songs, when asked for and the document was accepted.
        package var songs: [Song]?
        /// The document workload: the canonical form of the accepted document's events.
        package var canonical: String?
        /// The document workload, when the job asks: the accepted document's events.
        package var events: [DocumentEvent]?
    }

    /// Parses each of the job's documents (relative to its suite) and calls `report` with each line
    /// (then writes one byte on the progress descriptor when it is open; one more once its parser is
    /// ready, before the first document).
    ///
    /// - Throws: ``VerifyWorkerError`` for an unknown parser.
    package static func run(_ job: ConformanceJob, report: (Data) throws -> Void) throws {
        let parser = try ParserRegistry.worker(job.parser)
        let walker = job.workload == .document ? try ParserRegistry.documentWorker(job.parser) : nil
        let sink = try DocumentSink()
        let (suite, chunkSize, reportSongs) = (job.suite, job.chunkSize, job.reportSongs)
        if let memoryLimitMiB = job.memoryLimitMiB { limitData(toMiB: memoryLimitMiB) }
        let progress = fcntl(WorkerProcess.progressDescriptor, F_GETFD) >= 0
        func tick() {
            guard progress else { return }
            var byte: UInt8 = 0x2E
            _ = write(WorkerProcess.progressDescriptor, &byte, 1)
        }
        let encoder = JSONEncoder()
        // Started: the first document's time limit runs from here, not from the worker's spawn
        // (ConformanceRunner.startGrace).
        tick()
        for (index, path) in job.paths.enumerated() {
            let full = (suite as NSString).appendingPathComponent(path)
            let result: ConformanceResult
            var songs: [Song]?
            var canonical: String?
            var events: [DocumentEvent]?
            if let data = FileManager.default.contents(atPath: full) {
                do {
                    if let walker {
                        try walker.walk(
                            [UInt8](data), chunkSize: chunkSize == 0 ? nil : chunkSize, into: sink, recording: true)
                        let recorded = sink.recordedEvents()
                        canonical = String(decoding: CanonicalXML.write(recorded), as: UTF8.self)
                        if job.reportEvents == true { events = recorded }
                    } else {
                        let parsed = try parser.parse([UInt8](data), chunkSize: chunkSize == 0 ? nil : chunkSize)
                        if reportSongs { songs = parsed }
                    }
                    result = ConformanceResult(caseID: path, outcome: .accepted)
                } catch let error as FeedParseError where error.notAFeed == true {
                    result = ConformanceResult(
                        caseID: path, outcome: .accepted, detail: "well-formed, not a feed: \(error.message)")
                } catch let error as FeedParseError {
                    result = ConformanceResult(
                        caseID: path, outcome: .rejected,
                        detail: "\(error.message)\(error.position)")
                } catch {
                    result = ConformanceResult(caseID: path, outcome: .rejected, detail: "\(error)")
                }
            } else {
                result = ConformanceResult(caseID: path, outcome: .failed, detail: "cannot read \(full)")
            }
            var line = try encoder.encode(
                Line(index: index, result: result, songs: songs, canonical: canonical, events: events))
            line.append(UInt8(ascii: "\n"))
            try report(line)
            tick()
        }
    }

    /// Limits this process's data (heap and private mappings) to `mebibytes`: a parser that asks
    /// for more gets no memory instead of the machine's.
    package static func limitData(toMiB mebibytes: Int) {
        let bytes = rlim_t(max(1, mebibytes)) * 1_048_576
        var limit = rlimit(rlim_cur: bytes, rlim_max: bytes)
        #if os(Linux)
            _ = setrlimit(__rlimit_resource_t(RLIMIT_DATA.rawValue), &limit)
        #else
            _ = setrlimit(RLIMIT_DATA, &limit)
        #endif
    }
}
