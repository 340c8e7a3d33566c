import BenchResults
import Foundation
import SongFeed

/// A whole run as a store holds it: its row and its samples, for copying between stores.
public struct StoredRun: Sendable {
    var record: RunRecord
    var sampleRecords: [SampleRecord]
    /// When retention removed the run's raw samples, and how many (`nil`: the store holds them all).
    public internal(set) var prunedSamples: PrunedSamples?
    /// A counted run's profiles (``StatsStoring/profiles(of:)``), carried with it from store to store.
    public internal(set) var profiles: [StoredProfile] = []

    init(record: RunRecord, samples: [SampleRecord], pruned: PrunedSamples? = nil) {
        self.record = record
        self.sampleRecords = samples
        self.prunedSamples = pruned
    }

    /// The runs of `runIDs` that `records` hold, in that order, each with its samples (any order
    /// of runs, each run's in order) and what retention removed of them.
    static func assemble(
        _ runIDs: [String], records: [RunRecord], samples: [SampleRecord], pruned: [String: PrunedSamples]
    ) -> [StoredRun] {
        let byID = Dictionary(records.map { ($0.runID, $0) }, uniquingKeysWith: { first, _ in first })
        let samplesByRun = Dictionary(grouping: samples, by: \.runID)
        return runIDs.compactMap { id in
            byID[id].map { StoredRun(record: $0, samples: samplesByRun[id] ?? [], pruned: pruned[id]) }
        }
    }

    /// A run from a run file (`<run-id>.json`): what `bench run` wrote when the store failed.
    public init(_ result: RunResult) {
        record = RunRecord(result.environment, settings: result.settings)
        record.noisy = result.noise?.noisy
        record.noise = result.noise.flatMap { try? JSONEncoder().encode($0) }.map {
            String(decoding: $0, as: UTF8.self)
        }
        record.documents = try? RunRecord.documentsText(result.documents)
        record.notTimed = try? RunRecord.notTimedText(result.cells)
        sampleRecords = result.samples.map { SampleRecord($0, runID: result.environment.runID) }
    }

    public var environment: RunEnvironment { record.environment }
    public var settings: RunSettings? { record.settings }
    public var noise: NoiseReport? {
        record.noise.flatMap { try? JSONDecoder().decode(NoiseReport.self, from: Data($0.utf8)) }
    }
    /// The measured shapes of a document-workload run's documents (`nil` for other runs and runs
    /// stored before the store kept them).
    public var documents: [DocumentProfile]? { record.documentProfiles }
    /// The summaries of the cells the agreement check kept from being timed, each with why (its
    /// `outcome`), as the run's own file has them; `[]` when every parser was timed, and for runs
    /// stored before the store kept them.
    public var notTimed: [CellSummary] { record.notTimedCells }
    public var samples: [Sample] { sampleRecords.map(\.sample) }
    public var runID: String { record.runID }
}

extension StoredRun {
    /// What copying this run into a store that holds `existing` (under the same ID) must write.
    ///
    /// The same run (same row but for how it ended, same samples) is skipped, or marked ended when
    /// only this copy is. A stored copy that is incomplete and holds a part of these samples (the
    /// store failed halfway, the run's file kept everything) gets the rest. Anything else is a
    /// different run under the same ID: an error, never a duplicate.
    func merge(into existing: StoredRun?) throws -> MergeAction {
        guard let existing else { return .insert }
        let differences = try Self.differences(record, existing.record)
        guard differences.isEmpty else {
            throw StatsStoreError(
                description: "run \(runID) differs from the run of that ID already in the store "
                    + "(\(differences.joined(separator: ", "))): not copied")
        }
        // Retention removed the raw samples of one copy (its summaries and row are kept): the store
        // holds the run, and samples that were pruned on purpose are not brought back.
        if prunedSamples != nil || existing.prunedSamples != nil { return .skip }
        var missing: [SampleRecord] = []
        var extra = 0
        let stored = existing.samples
        let mine = samples
        if stored.count <= mine.count && zip(stored, mine).allSatisfy(==) {
            // The usual case, and a quick one: the stored samples are these, or the first of these in
            // the order they were recorded (a store that failed partway).
            missing = Array(sampleRecords[stored.count...])
        } else {
            // Else compare as bags of rows, whatever their order.
            var remaining = try Self.counts(existing.sampleRecords)
            for sample in sampleRecords {
                let key = try Self.key(sample)
                if let count = remaining[key], count > 0 {
                    remaining[key] = count - 1
                } else {
                    missing.append(sample)
                }
            }
            extra = remaining.values.reduce(0, +)
        }
        let ended = record.complete && !existing.record.complete
        if missing.isEmpty && (!ended || extra > 0) {
            // Same samples (or the store holds more): nothing to add.
            return extra > 0 && record.complete
                ? try Self.conflict(runID, "the store holds \(extra) sample(s) this copy does not")
                : .skip
        }
        guard extra == 0 else {
            return try Self.conflict(
                runID, "\(missing.count) sample(s) differ from the \(existing.sampleRecords.count) stored")
        }
        guard !existing.record.complete else {
            return try Self.conflict(
                runID, "the stored run is complete, yet this copy has \(missing.count) more sample(s)")
        }
        return .add(missing, finish: record)
    }

    /// Copies this run into a store (see ``merge(into:)``), with that store's own reads and writes.
    ///
    /// A run whose `storedDigest` (the store's `content_digest` of this run ID) is this run's
    /// ``contentDigest()`` is there already: its samples are not read. Otherwise `existing` reads what
    /// the store holds, the copy writes what it lacks, and `setDigest` records the digest of what the
    /// store holds now.
    ///
    /// - Parameters:
    ///   - storedDigest: the digest stored with this run ID, if any.
    ///   - existing: reads the store's run of this ID, with its samples.
    ///   - insertRun: inserts a run's row.
    ///   - insertSamples: inserts samples.
    ///   - updateRun: rewrites the row of a run that has now ended.
    ///   - setDigest: stores the digest of the run the store now holds.
    ///   - markPruned: records that a run inserted without its raw samples had them pruned.
    /// - Returns: what the copy did.
    /// - Throws: ``StatsStoreError`` for a different run under this ID, or what the store throws.
    func copy(
        storedDigest: String?, existing: () throws -> StoredRun?, insertRun: (RunRecord) throws -> Void,
        insertSamples: ([SampleRecord]) throws -> Void, updateRun: (RunRecord) throws -> Void,
        setDigest: (String?) throws -> Void, markPruned: (PrunedSamples) throws -> Void
    ) throws -> ImportOutcome {
        let digest = try contentDigest()
        if storedDigest == digest { return .alreadyThere }
        let stored = try existing()
        let outcome: ImportOutcome
        switch try merge(into: stored) {
        case .insert:
            try insertRun(record)
            try insertSamples(sampleRecords)
            if let prunedSamples { try markPruned(prunedSamples) }
            outcome = .added
        case .skip:
            outcome = .alreadyThere
        case .add(let samples, let finish):
            try insertSamples(samples)
            try updateRun(finish)
            outcome = .completed(addedSamples: samples.count)
        }
        // What the store holds now: this run, or (when nothing was written) its own copy.
        try setDigest(outcome == .alreadyThere ? try stored?.contentDigest() : digest)
        return outcome
    }

    private static func conflict(_ runID: String, _ why: String) throws -> MergeAction {
        throw StatsStoreError(
            description: "run \(runID) differs from the run of that ID already in the store (\(why)): not copied")
    }

    /// The row of a run without how it ended (a copy made before its end has none of it).
    private static func identity(_ record: RunRecord) -> RunRecord {
        var record = record
        record.endedAt = nil
        record.complete = false
        record.noisy = nil
        record.noise = nil
        // Rounds asked when it began; rounds run when a stopping rule or a signal ended it.
        record.rounds = nil
        // Recorded just after the run began: a store that failed between the two lacks them.
        record.documents = nil
        record.notTimed = nil
        return record
    }

    /// The columns in which two rows of one run ID differ, but for how the run ended.
    static func differences(_ a: RunRecord, _ b: RunRecord) throws -> [String] {
        let x = try identity(a).databaseDictionary
        let y = try identity(b).databaseDictionary
        return Set(x.keys).union(y.keys).filter { x[$0] != y[$0] }.sorted()
    }

    /// The run's content as one SHA-256 (hex).
    ///
    /// Its row and its samples as a bag (their order and the store's row IDs aside), so that two
    /// stores holding the same run give the same digest. Stored
    /// with a run a copy brought (`content_digest`), it lets the next copy of that run find it
    /// there without reading its samples.
    func contentDigest() throws -> String {
        let row = try record.databaseDictionary.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        var content = Array(row.joined(separator: "\u{1F}").utf8)
        for key in try sampleRecords.map(Self.key).sorted() {
            content.append(contentsOf: ("\u{1E}" + key).utf8)
        }
        return SHA256Digest.hex(of: content)
    }

    /// A sample as its stored columns (without the store's own row ID).
    static func key(_ sample: SampleRecord) throws -> String {
        var sample = sample
        sample.id = nil
        return try sample.databaseDictionary.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
            separator: "\u{1F}")
    }

    static func counts(_ samples: [SampleRecord]) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for sample in samples { counts[try key(sample), default: 0] += 1 }
        return counts
    }
}
