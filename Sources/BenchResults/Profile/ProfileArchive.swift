import Foundation

/// A run's kept profiles as bytes: gzip-compressed JSON, the form of the file beside the run's
/// files (`<run-id>-profiles.json.gz`) and of each cell's row in the store.
public struct ProfileArchive: Codable, Sendable, Equatable {
    /// 1: the first form.
    public var formatVersion: Int
    public var runID: String
    public var profiles: [CellProfile]

    public init(runID: String, profiles: [CellProfile]) {
        self.formatVersion = 1
        self.runID = runID
        self.profiles = profiles
    }

    /// A profile file or row that cannot be read: which, and why.
    public struct Damaged: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The file name of a run's profiles beside its other files.
    public static func fileName(runID: String) -> String { "\(runID)-profiles.json.gz" }

    /// The archive as compressed JSON.
    public func encoded() throws -> [UInt8] {
        try Gzip.compress(Array(Self.encoder.encode(self)))
    }

    /// An archive from compressed JSON; `source` names it in the error.
    ///
    /// - Throws: ``Damaged`` naming `source`, for bytes that are not a whole archive.
    public static func decode(_ bytes: [UInt8], source: String) throws -> ProfileArchive {
        try decode(ProfileArchive.self, bytes, source: source)
    }

    /// One cell's profile as compressed JSON (a row of the store).
    public static func encode(_ profile: CellProfile) throws -> [UInt8] {
        try Gzip.compress(Array(encoder.encode(profile)))
    }

    /// One cell's profile from compressed JSON; `source` names it in the error.
    public static func decodeCell(_ bytes: [UInt8], source: String) throws -> CellProfile {
        try decode(CellProfile.self, bytes, source: source)
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8], source: String) throws -> T {
        let json: [UInt8]
        do {
            json = try Gzip.decompress(bytes)
        } catch {
            throw Damaged(description: "\(source) is damaged: \(error)")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(json))
        } catch {
            throw Damaged(description: "\(source) is not a profile of `bench run --counter instructions` (\(error))")
        }
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
