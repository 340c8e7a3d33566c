import BenchWorker
import FeedParsers
import BenchResults
import Foundation
import SongFeed

/// What one parser did with one feed.
package struct ParserVerdict: Sendable {
    /// The outcome.
    package enum Status: Sendable, Equatable {
        /// Not yet compared (successful and consistent across chunk sizes).
        case consistent
        /// Built the reference songs with every chunk size.
        case agrees
        /// Built other songs than the reference; says where they first differ.
        case disagrees(String)
        /// Succeeded, but no parser that meets the whole contract on this input built the same: no
        /// other parser succeeded, none agreed, or only parsers with a gap there (`ContractGap`)
        /// agreed. Not timed unless asked for by name (`--allow-unverified`); never agreement.
        case unverified(String)
        /// Built different songs depending on the chunk size, or failed on some sizes only.
        case inconsistent(String)
        /// Rejected the document.
        case failed(FeedParseError)
        /// The worker crashed (a signal it did not get from the harness).
        case crashed(String)
        /// The worker ran past its time limit, or made no progress for too long, and was killed.
        case timedOut(String)
        /// The worker's memory passed the limit (`WorkerProcess/memoryLimitBytes`) and it was killed.
        case exceededMemory(String)
        /// The worker could not be started or its report could not be read.
        case workerFailed(String)
        /// Builds no songs (the floor), so there is nothing to compare; says what it is.
        case notCompared(String)
        /// Cannot do the workload at all (a `Codable` decoder has no document walk); says why.
        case notApplicable(String)

        /// Whether the verdict is a problem of the parser: it did not agree, though it can do the
        /// workload (a parser with no document workload is not wrong).
        package var isProblem: Bool {
            if case .notApplicable = self { return false }
            return !mayBeTimed
        }

        /// Whether the parser may be timed: it agrees, or it builds no songs to compare.
        package var mayBeTimed: Bool {
            switch self {
            case .agrees, .notCompared: return true
            default: return false
            }
        }
    }

    /// The parser's name.
    package var parser: String
    /// The outcome.
    package var status: Status
    /// The number of songs built, when the parser succeeded.
    package var songCount: Int?
    /// The digest of the songs, when the parser succeeded consistently.
    package var digest: String?
    /// The worker's own peak resident memory in bytes (all chunk sizes in one process); `nil` when
    /// the worker crashed.
    package var peakResidentBytes: Int?

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
        case .consistent, .agrees, .disagrees, .unverified: return digest
        default: return nil
        }
    }

    init(parser: String, outcome: WorkerProcess.Outcome, outputs: inout VerifiedOutputs) {
        self.parser = parser
        guard outcome.termination == .exited(0) else {
            var detail = "worker \(outcome.termination)"
            let lastLine = outcome.standardError.split(separator: "\n").last {
                !$0.trimmingCharacters(in: .whitespaces).isEmpty
            }
            switch outcome.termination {
            case .timedOut, .stalled:
                self.status = .timedOut(detail)
            case .exceededMemory:
                self.status = .exceededMemory(detail)
            default:
                if let lastLine { detail += ": \(lastLine.prefix(300))" }
                self.status = .crashed(detail)
            }
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
        for run in report.runs { outputs.keep(run) }
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
                "chunk size \(ChunkSize.label(other.chunkSize)) gives other \((report.workload ?? .songs).countedNoun) than \(ChunkSize.label(first.chunkSize))"
            if let otherDigest = other.digest, let firstDigest = first.digest,
                let difference = outputs.firstDifference(
                    otherDigest, firstDigest, parser: "size \(ChunkSize.label(other.chunkSize))",
                    reference: "size \(ChunkSize.label(first.chunkSize))")
            {
                detail += ": " + difference
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
    package var description: String {
        switch self {
        case .agrees: return "agree"
        case .consistent: return "not compared"
        case .notCompared(let what): return "not compared (\(what))"
        case .notApplicable(let why): return "not applicable: \(why)"
        case .disagrees(let detail): return "DISAGREE: \(detail)"
        case .unverified(let detail): return "UNVERIFIED: \(detail)"
        case .inconsistent(let detail): return "INCONSISTENT: \(detail)"
        case .failed(let error): return "FAILED: \(error.message)\(error.position)"
        case .crashed(let detail): return "CRASHED: \(detail)"
        case .timedOut(let detail): return "TIMED OUT: \(detail)"
        case .exceededMemory(let detail): return "OUT OF MEMORY: \(detail)"
        case .workerFailed(let detail): return "WORKER FAILED: \(detail)"
        }
    }
}

/// The songs or events the verify workers reported, by digest: what a disagreement is explained with.
struct VerifiedOutputs {
    var songs: [String: [Song]] = [:]
    var events: [String: [DocumentEvent]] = [:]

    /// Keeps a run's songs or events under its digest (the first ones reported).
    mutating func keep(_ run: VerifyWorkerReport.Run) {
        guard let digest = run.digest else { return }
        if let songs = run.songs, self.songs[digest] == nil { self.songs[digest] = songs }
        if let events = run.events, self.events[digest] == nil { self.events[digest] = events }
    }

    /// Where the outputs of two digests first differ, when both are known.
    func firstDifference(_ digest: String, _ expected: String, parser: String, reference: String) -> String? {
        if let ours = songs[digest], let theirs = songs[expected] {
            return OutputDifference.first(ours, theirs, parser: parser, reference: reference)
        }
        if let ours = events[digest], let theirs = events[expected] {
            return OutputDifference.first(ours, theirs, parser: parser, reference: reference)
        }
        return nil
    }
}
