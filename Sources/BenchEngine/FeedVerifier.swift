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
