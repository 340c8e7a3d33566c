/// A practice around the parse, as the practice table names it: what reports tell apart when they
/// lay out a practice's rows, and what its figures record (encoded as its name, "paging", …).
///
/// Each practice scenario says which it is (``ScenarioTraits/Practice/name``); reports order the
/// practices as ``ScenarioID`` lists their scenarios (``PracticeFigures/practiceOrder``).
public enum PracticeID: String, Codable, Sendable, Hashable {
    /// Following next links, a page at a time (`paged`).
    case paging
    /// The whole feed against the song fields only (`fields`).
    case fields
    /// Identity and gzip bodies (`gzip`).
    case compression
    /// Requests at once (`queue`).
    case queue
    /// What a cancel lets through (`cancel`).
    case cancel
    /// Writing the songs to SQLite (`store`).
    case store
    /// Reading stored songs for an app's screens (`read`).
    case read
}
