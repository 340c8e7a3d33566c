import Foundation

/// Why a download failed: what happened, and at which byte.
public struct DownloadError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        case connectionFailed, httpStatus, truncated, timedOut, parse, cancelled, loop, other
    }

    public var kind: Kind
    public var message: String
    /// Body bytes received before it failed.
    public var bytesReceived: Int

    public var description: String { "\(message) (after \(bytesReceived) body bytes)" }
}
