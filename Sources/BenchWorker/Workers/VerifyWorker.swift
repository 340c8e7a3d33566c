import FeedParsers
import Foundation
import SongFeed

/// The worker side of `FeedVerifier`: runs in the worker process.
package enum VerifyWorker {
    /// Parses the feed with the parser once per chunk size.
    ///
    /// - Throws: ``FeedFileError`` for an unreadable feed, ``VerifyWorkerError`` for an unknown parser.
    package static func run(_ job: VerifyJob) throws -> VerifyWorkerReport {
        if job.workload == .document { return try runDocument(job) }
        let parser = try ParserRegistry.worker(job.parser)
        let bytes = try FeedFile.bytes(at: job.feed)
        var runs: [VerifyWorkerReport.Run] = []
        var seen: Set<String> = []
        for size in job.chunkSizes {
            do {
                let songs = try parser.parse(bytes, chunkSize: size == 0 ? nil : size)
                let digest = SongDigest.sha256(of: songs)
                let isNew = seen.insert(digest).inserted
                runs.append(.init(chunkSize: size, songCount: songs.count, digest: digest, songs: isNew ? songs : nil))
            } catch let error as FeedParseError {
                runs.append(.init(chunkSize: size, error: error))
            }
        }
        return VerifyWorkerReport(
            parser: job.parser, feedBytes: bytes.count, runs: runs,
            peakResidentBytes: PeakMemory.currentProcessPeakBytes())
    }

    private static func writeCanonicalForm(_ events: [DocumentEvent], to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(CanonicalXML.write(events))) else {
            throw VerifyWorkerError(description: "cannot write the canonical form to \(path)")
        }
    }

    /// Walks the document into the canonical sink once per chunk size: the events' count and digest,
    /// and the events of each new digest when the job asks.
    static func runDocument(_ job: VerifyJob) throws -> VerifyWorkerReport {
        let parser = try ParserRegistry.documentWorker(job.parser)
        let bytes = try FeedFile.bytes(at: job.feed)
        let sink = try DocumentSink()
        var runs: [VerifyWorkerReport.Run] = []
        var seen: Set<String> = []
        for size in job.chunkSizes {
            let recording = job.reportEvents == true || (job.canonicalOutput != nil && runs.isEmpty)
            do {
                try parser.walk(bytes, chunkSize: size == 0 ? nil : size, into: sink, recording: recording)
                if let output = job.canonicalOutput, runs.isEmpty {
                    try writeCanonicalForm(sink.recordedEvents(), to: output)
                }
                let digest = sink.digestText
                let isNew = seen.insert(digest).inserted
                runs.append(
                    .init(
                        chunkSize: size, songCount: sink.eventCount, digest: digest,
                        events: job.reportEvents == true && isNew ? sink.recordedEvents() : nil))
            } catch let error as FeedParseError {
                runs.append(.init(chunkSize: size, error: error))
            }
        }
        return VerifyWorkerReport(
            parser: job.parser, workload: .document, feedBytes: bytes.count, runs: runs,
            peakResidentBytes: PeakMemory.currentProcessPeakBytes())
    }
}

extension ParserRegistry {
    /// The parser a worker job names.
    ///
    /// - Throws: ``VerifyWorkerError`` naming the known parsers when there is none by that name.
    package static func worker(_ name: String) throws -> any SongFeedParser.Type {
        guard let parser = parser(named: name) else {
            throw VerifyWorkerError(description: "unknown parser '\(name)'; known: \(names.joined(separator: ", "))")
        }
        return parser
    }

    /// The document parser a worker job names.
    ///
    /// - Throws: ``VerifyWorkerError`` saying why the parser has no document workload, or naming
    ///   the parsers that have one.
    static func documentWorker(_ name: String) throws -> any DocumentParser.Type {
        if let parser = documentParser(named: name) { return parser }
        if let reason = documentNotApplicable[name] {
            throw VerifyWorkerError(description: "\(name) has no document workload: \(reason)")
        }
        let known = documentParsers.map { $0.name }.joined(separator: ", ")
        throw VerifyWorkerError(description: "unknown document parser '\(name)'; known: \(known)")
    }
}
