import Foundation

/// What one `read` iteration measured: a session of an app's screens over the stored songs.
public struct ReadMeasurement: Codable, Sendable, Equatable {
    /// Screens shown (`SongShelf.visitsPerIteration`).
    public var visits: Int
    /// The whole session, every visit's connection, query and decoding included, ns.
    public var ns: Int
    /// Pages SQLite read from the file (its page cache's misses) during the session.
    public var pagesRead: Int
    /// Statements run during the session.
    public var queries: Int
    /// What the session asked of `malloc` (a worker that counts allocations; its times mean nothing).
    public var allocations: AllocationCounter.Counts?

    /// The time per visit, ns.
    public var visitNs: Int { visits > 0 ? ns / visits : ns }
}
