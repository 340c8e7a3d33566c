/// One cell's profile as a store or a run's directory holds it: the cell, where it came from, and
/// its bytes, read only when a comparison explains the cell (a damaged one is refused then, naming
/// ``source``, and the comparison goes on).
public struct StoredProfile: Sendable, Equatable {
    public var key: ComparisonKey
    /// Which measured parse of its worker it is (from 1).
    public var parse: Int
    /// The run it belongs to.
    public var runID: String
    /// Where it is, for messages: a file, or a store's table.
    public var source: String
    /// gzip-compressed JSON of a ``CellProfile`` (``ProfileArchive/encode(_:)``).
    public var data: [UInt8]

    public init(key: ComparisonKey, parse: Int, runID: String, source: String, data: [UInt8]) {
        self.key = key
        self.parse = parse
        self.runID = runID
        self.source = source
        self.data = data
    }

    /// The profile, decoded.
    ///
    /// - Throws: ``ProfileArchive/Damaged`` naming ``source``.
    public func decoded() throws -> CellProfile {
        let profile = try ProfileArchive.decodeCell(data, source: source)
        guard profile.key == key, profile.parse == parse else {
            throw ProfileArchive.Damaged(description: "\(source) holds the profile of another cell")
        }
        return profile
    }
}
