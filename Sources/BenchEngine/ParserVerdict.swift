import FeedParsers
import Foundation
import SongFeed

/// What one parser did with one feed.
public struct ParserVerdict: Sendable {
    /// The outcome.
    public enum Status: Sendable, Equatable {
        /// Not yet compared (successful and consistent across chunk sizes).
        case consistent
        /// Built the reference songs with every chunk size.
        case agrees
        /// Built other songs than the reference; says where they first differ.
        case disagrees(String)
        /// Built different songs depending on the chunk size, or failed on some sizes only.
        case inconsistent(String)
        /// Rejected the document.
        case failed(FeedParseError)
        /// The worker crashed, was killed or timed out.
        case crashed(String)
        /// The worker could not be started or its report could not be read.
        case workerFailed(String)
        /// Builds no songs (the floor), so there is nothing to compare; says what it is.
        case notCompared(String)

        /// Whether the parser may be timed: it agrees, or it builds no songs to compare.
        public var mayBeTimed: Bool {
            switch self {
            case .agrees, .notCompared: return true
            default: return false
            }
        }
    }

    /// The parser's name.
    public var parser: String
    /// The outcome.
    public var status: Status
    /// The number of songs built, when the parser succeeded.
    public var songCount: Int?
    /// The digest of the songs, when the parser succeeded consistently.
    public var digest: String?
    /// The worker's own peak resident memory in bytes (all chunk sizes in one process); `nil` when
    /// the worker crashed.
    public var peakResidentBytes: Int?

    init(parser: String, status: Status, songCount: Int? = nil, digest: String? = nil, peakResidentBytes: Int? = nil) {
        self.parser = parser
        self.status = status
        self.songCount = songCount
        self.digest = digest
        self.peakResidentBytes = peakResidentBytes
    }

    /// The digest, when the parser succeeded with every chunk size and always built the same songs.
    var consistentDigest: String? {
        switch status {
        case .consistent, .agrees, .disagrees: return digest
        default: return nil
        }
    }

    init(parser: String, outcome: WorkerProcess.Outcome, songsByDigest: inout [String: [Song]]) {
        self.parser = parser
        guard outcome.termination == .exited(0) else {
            var detail = "worker \(outcome.termination)"
            let lastLine = outcome.standardError.split(separator: "\n").last {
                !$0.trimmingCharacters(in: .whitespaces).isEmpty
            }
            if let lastLine { detail += ": \(lastLine.prefix(300))" }
            self.status = .crashed(detail)
            return
        }
        let report: VerifyWorkerReport
        do {
            report = try JSONDecoder().decode(VerifyWorkerReport.self, from: Data(outcome.result))
        } catch {
            self.status = .workerFailed("unreadable worker report: \(error)")
            return
        }
        self.peakResidentBytes = report.peakResidentBytes
        for run in report.runs {
            if let digest = run.digest, let songs = run.songs, songsByDigest[digest] == nil {
                songsByDigest[digest] = songs
            }
        }
        let failures = report.runs.filter { $0.error != nil }
        let digests = Set(report.runs.compactMap(\.digest))
        if failures.count == report.runs.count, let error = failures.first?.error {
            self.status = .failed(error)
        } else if let failure = failures.first, let error = failure.error {
            self.status = .inconsistent(
                "fails with chunk size \(ChunkSize.label(failure.chunkSize)) (\(error)) but succeeds with others")
        } else if digests.count > 1 {
            let first = report.runs[0]
            let other = report.runs.first { $0.digest != first.digest } ?? first
            var detail =
                "chunk size \(ChunkSize.label(other.chunkSize)) gives other songs than \(ChunkSize.label(first.chunkSize))"
            if let a = other.digest.flatMap({ songsByDigest[$0] }), let b = first.digest.flatMap({ songsByDigest[$0] })
            {
                detail +=
                    ": "
                    + FeedVerifier.firstDifference(
                        a, b, parser: "size \(ChunkSize.label(other.chunkSize))",
                        reference: "size \(ChunkSize.label(first.chunkSize))")
            }
            self.status = .inconsistent(detail)
        } else {
            self.status = .consistent
            self.digest = digests.first
            self.songCount = report.runs.first?.songCount
        }
    }
}

extension ParserVerdict.Status: CustomStringConvertible {
    /// The verdict in words, as `bench verify` prints it.
    public var description: String {
        switch self {
        case .agrees: return "agree"
        case .consistent: return "not compared"
        case .notCompared(let what): return "not compared (\(what))"
        case .disagrees(let detail): return "DISAGREE: \(detail)"
        case .inconsistent(let detail): return "INCONSISTENT: \(detail)"
        case .failed(let error): return "FAILED: \(error.message) (line \(error.line), column \(error.column))"
        case .crashed(let detail): return "CRASHED: \(detail)"
        case .workerFailed(let detail): return "WORKER FAILED: \(detail)"
        }
    }
}
