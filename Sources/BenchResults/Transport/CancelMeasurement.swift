import Foundation

/// What still happened after a fetch queue was cancelled.
public struct CancelMeasurement: Codable, Sendable, Equatable {
    /// Requests running when the cancel came (their bytes were in flight).
    public var runningAtCancel: Int
    /// Fetches the queue started after the cancel (0 is the goal: the queue drops what it has not
    /// started; none of them makes its request).
    public var startedAfterCancel: Int
    /// Body bytes delivered after the cancel (in flight: counted, never parsed).
    public var bytesAfterCancel: Int
    /// Time spent inside parser calls after the cancel (a call already running is counted from the
    /// cancel).
    public var parseNsAfterCancel: Int
    /// Cancel → no request running and the queue empty.
    public var settleNs: Int
    /// Pages whose songs were complete before the cancel, other than the first (their songs are
    /// dropped, not kept).
    public var otherPagesCompleted: Int

    package init(
        runningAtCancel: Int, startedAfterCancel: Int, bytesAfterCancel: Int, parseNsAfterCancel: Int, settleNs: Int,
        otherPagesCompleted: Int
    ) {
        self.runningAtCancel = runningAtCancel
        self.startedAfterCancel = startedAfterCancel
        self.bytesAfterCancel = bytesAfterCancel
        self.parseNsAfterCancel = parseNsAfterCancel
        self.settleNs = settleNs
        self.otherPagesCompleted = otherPagesCompleted
    }

}
