import FeedParsers
import Foundation
import SongFeed

/// Checks that parsers build the same songs, each parser in a worker process.
///
/// A worker runs one parser over one feed once per chunk size and reports the songs' count and
/// digest for each (``VerifyWorkerReport``). A parser must agree with itself across chunk sizes,
/// then with the others: the digest that most parsers share is the reference (ties go to the parser
/// listed first), and every other parser is reported as wrong, with the first song field that
/// differs. A worker that crashes or runs past its time limit is reported as that parser's outcome;
/// the other parsers still run.
public enum FeedVerifier {
    /// The chunk sizes `bench verify` uses by default; 0 stands for the whole feed in one chunk.
    public static let defaultChunkSizes = [1, 7, 512, 16_384, 0]

    /// Verifies one feed.
    ///
    /// - Parameters:
    ///   - path: the feed.
    ///   - parsers: the parsers' names, in report order.
    ///   - chunkSizes: the chunk sizes to push the feed in; 0 is the whole feed at once.
    ///   - executable: the `bench` executable to run as the worker.
    ///   - timeout: the time limit of one worker, in seconds.
    /// - Returns: every parser's verdict and the reference songs.
    /// - Throws: ``FeedFileError`` when the feed cannot be read.
    public static func verify(
        feed path: String, parsers: [String], chunkSizes: [Int] = defaultChunkSizes,
        executable: String = WorkerProcess.currentExecutable(), timeout: Double = 300
    ) throws -> FeedVerification {
        let feed = try FeedFile(path: path)
        var verdicts: [ParserVerdict] = []
        var songsByDigest: [String: [Song]] = [:]
        for parser in parsers {
            if let type = ParserRegistry.parser(named: parser), !type.buildsSongs {
                verdicts.append(
                    ParserVerdict(parser: parser, status: .notCompared("\(type.kind.rawValue): builds no songs")))
                continue
            }
            let job = WorkerJob.verify(VerifyJob(parser: parser, feed: path, chunkSizes: chunkSizes))
            let verdict: ParserVerdict
            do {
                let outcome = try WorkerProcess.run(WorkerCommand(executable: executable, job: job), timeout: timeout)
                verdict = ParserVerdict(parser: parser, outcome: outcome, songsByDigest: &songsByDigest)
            } catch {
                verdict = ParserVerdict(parser: parser, status: .workerFailed("\(error)"))
            }
            verdicts.append(verdict)
        }

        // The reference: the digest most parsers share; ties go to the first listed.
        var counts: [String: Int] = [:]
        for verdict in verdicts { if let digest = verdict.consistentDigest { counts[digest, default: 0] += 1 } }
        let reference = verdicts.compactMap(\.consistentDigest).max { counts[$0, default: 0] < counts[$1, default: 0] }
        let referenceParser = verdicts.first { $0.consistentDigest == reference && reference != nil }?.parser
        let referenceSongs = reference.flatMap { songsByDigest[$0] }

        for index in verdicts.indices {
            guard let digest = verdicts[index].consistentDigest else { continue }
            if digest == reference {
                verdicts[index].status = .agrees
            } else if let referenceSongs, let songs = songsByDigest[digest], let referenceParser {
                verdicts[index].status = .disagrees(
                    firstDifference(songs, referenceSongs, parser: verdicts[index].parser, reference: referenceParser))
            }
        }
        return FeedVerification(
            path: path, bytes: feed.bytes.count, sha256: feed.sha256, chunkSizes: chunkSizes, verdicts: verdicts,
            referenceDigest: reference, referenceSongs: referenceSongs)
    }

    /// Describes the first difference between two song lists: which song, which field, both values.
    public static func firstDifference(_ songs: [Song], _ expected: [Song], parser: String, reference: String) -> String
    {
        for index in 0..<min(songs.count, expected.count) where songs[index] != expected[index] {
            let ours = songs[index].fieldValues
            let theirs = expected[index].fieldValues
            for field in Song.fieldNames.indices where ours[field] != theirs[field] {
                return "song \(index + 1), field \(Song.fieldNames[field]): \(parser) has \(quoted(ours[field])), "
                    + "\(reference) has \(quoted(theirs[field]))"
            }
        }
        return "\(parser) built \(songs.count) songs, \(reference) built \(expected.count)"
    }

    private static func quoted(_ text: String) -> String {
        let limit = 80
        let shown = text.count > limit ? String(text.prefix(limit)) + "…" : text
        return "\"" + shown.replacingOccurrences(of: "\n", with: "\\n") + "\""
    }
}

/// The outcome of ``FeedVerifier/verify(feed:parsers:chunkSizes:executable:timeout:)`` for one feed.
public struct FeedVerification: Sendable {
    /// The feed's path.
    public var path: String
    /// The feed's size in bytes.
    public var bytes: Int
    /// The feed's SHA-256.
    public var sha256: String
    /// The chunk sizes used; 0 is the whole feed.
    public var chunkSizes: [Int]
    /// One verdict per parser, in the order asked.
    public var verdicts: [ParserVerdict]
    /// The digest of the reference songs, when at least one parser succeeded.
    public var referenceDigest: String?
    /// The reference songs, when at least one parser succeeded.
    public var referenceSongs: [Song]?

    /// Whether every parser that builds songs built the reference songs (and at least one did).
    public var allAgree: Bool {
        verdicts.contains { $0.status == .agrees } && verdicts.allSatisfy(\.status.mayBeTimed)
    }
}

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

/// Chunk sizes as the reports write them.
public enum ChunkSize {
    /// "whole" for 0 (the feed in one chunk), else the number.
    public static func label(_ size: Int) -> String { size == 0 ? "whole" : String(size) }
}

/// What a verify worker reports: one run per chunk size.
public struct VerifyWorkerReport: Codable, Sendable {
    /// One parse of the feed.
    public struct Run: Codable, Sendable {
        /// The chunk size; 0 is the whole feed.
        public var chunkSize: Int
        /// The number of songs, on success.
        public var songCount: Int?
        /// `SongDigest` of the songs, on success.
        public var digest: String?
        /// The songs, on the first run that produced this digest only.
        public var songs: [Song]?
        /// The parse error, on failure.
        public var error: FeedParseError?
    }

    public var parser: String
    public var feedBytes: Int
    public var runs: [Run]
    /// The worker's own peak resident set at its end, bytes (``PeakMemory``).
    public var peakResidentBytes: Int?
}

/// The worker side of ``FeedVerifier``: runs in the worker process.
public enum VerifyWorker {
    /// Parses the feed with the parser once per chunk size.
    ///
    /// - Throws: ``FeedFileError`` for an unreadable feed, ``VerifyWorkerError`` for an unknown parser.
    public static func run(_ job: VerifyJob) throws -> VerifyWorkerReport {
        let parser = try ParserRegistry.worker(job.parser)
        let feed = try FeedFile(path: job.feed)
        var runs: [VerifyWorkerReport.Run] = []
        var seen: Set<String> = []
        for size in job.chunkSizes {
            do {
                let songs = try parser.parse(feed.bytes, chunkSize: size == 0 ? nil : size)
                let digest = SongDigest.sha256(of: songs)
                let isNew = seen.insert(digest).inserted
                runs.append(.init(chunkSize: size, songCount: songs.count, digest: digest, songs: isNew ? songs : nil))
            } catch let error as FeedParseError {
                runs.append(.init(chunkSize: size, error: error))
            }
        }
        return VerifyWorkerReport(
            parser: job.parser, feedBytes: feed.bytes.count, runs: runs,
            peakResidentBytes: PeakMemory.currentProcessPeakBytes())
    }
}

/// A worker was asked for something it cannot do.
public struct VerifyWorkerError: Error, CustomStringConvertible, Sendable {
    public var description: String
}

extension ParserRegistry {
    /// The parser a worker job names.
    ///
    /// - Throws: ``VerifyWorkerError`` naming the known parsers when there is none by that name.
    static func worker(_ name: String) throws -> any SongFeedParser.Type {
        guard let parser = parser(named: name) else {
            throw VerifyWorkerError(description: "unknown parser '\(name)'; known: \(names.joined(separator: ", "))")
        }
        return parser
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
