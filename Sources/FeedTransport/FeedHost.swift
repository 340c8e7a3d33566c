import Foundation

/// A local feed server as its clients see it: where each feed is served, and how to stop it.
///
/// `FeedServing.FeedServer` is the one the suite runs (SwiftNIO). The engine holds a run's server as
/// a `FeedHost`, started by a ``FeedHostStarter`` that the tool gives it, so that the engine does not
/// import SwiftNIO: it compiles beside SwiftNIO instead of after it.
public protocol FeedHost: Sendable {
    /// The URL of a served feed, by file name.
    func url(for name: String) -> URL
    /// ``url(for:)`` over link `link` (1 … ``NetworkProfile/mostLinks``) of the profile's bandwidth, a
    /// link that no request naming another shares.
    func url(for name: String, link: Int) -> URL
    /// ``url(for:)`` answered at once, without the profile's round trip and bandwidth: for untimed
    /// warm-ups.
    func unshapedURL(for name: String) -> URL
    /// The entries (RSS items, Atom entries) of a served feed, 0 when it cannot be paged.
    func entryCount(of name: String) -> Int
    /// Stops listening and closes every connection.
    func stop() throws
}

/// Starts a ``FeedHost`` for the feed files `feeds`, shaped by `profile`, on an ephemeral port.
public typealias FeedHostStarter = @Sendable (_ feeds: [String], _ profile: NetworkProfile) throws -> any FeedHost
