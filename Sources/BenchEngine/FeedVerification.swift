import BenchResults
import Foundation
import SongFeed

/// The outcome of ``FeedVerifier/verify(feed:parsers:chunkSizes:executable:timeout:workload:canonicalDirectory:confirming:progress:)`` for one feed.
package struct FeedVerification: Sendable {
    /// The feed's path.
    package var path: String
    /// The feed's size in bytes.
    package var bytes: Int
    /// The feed's SHA-256.
    package var sha256: String
    /// The chunk sizes used; 0 is the whole feed.
    package var chunkSizes: [Int]
    /// What the parsers built: songs, or the document's events (a verdict's count is then of events).
    package var workload: Workload = .songs
    /// One verdict per parser, in the order asked.
    package var verdicts: [ParserVerdict]
    /// The verdicts of the parsers checked beside those asked, to confirm their answer (the asked
    /// ones had fewer than two parsers that meet the whole contract on this input); never timed.
    package var confirmers: [ParserVerdict] = []
    /// The digest of the reference songs, when at least one parser succeeded.
    package var referenceDigest: String?
    /// The reference songs, when at least one parser succeeded.
    package var referenceSongs: [Song]?

    /// Whether every parser that builds songs built the reference songs (and at least one did).
    package var allAgree: Bool {
        verdicts.contains { $0.status == .agrees } && !verdicts.contains(where: \.status.isProblem)
    }
}
