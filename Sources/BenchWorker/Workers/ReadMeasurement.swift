import Foundation

/// What one `read` iteration measured: a session of an app's screens over the stored songs.
package struct ReadMeasurement: Codable, Sendable, Equatable {
    /// Screens shown (`SongShelf.visitsPerIteration`).
    package var visits: Int
    /// The whole session, every visit's connection, query and decoding included, ns.
    package var ns: Int
    /// Pages SQLite read from the file (its page cache's misses) during the session.
    package var pagesRead: Int
    /// Statements run during the session.
    package var queries: Int
    /// What the session asked of `malloc` (a worker that counts allocations; its times mean nothing).
    package var allocations: AllocationCounter.Counts?

    /// The time per visit, ns.
    package var visitNs: Int { visits > 0 ? ns / visits : ns }
}
