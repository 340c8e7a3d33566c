import BenchWorker
import BenchResults
import FeedParsers
import Foundation
import SongFeed

/// Checks that parsers build the same songs, each parser in a worker process.
///
/// A worker runs one parser over one feed once per chunk size and reports the songs' count and
/// digest for each (`VerifyWorkerReport`). A parser must agree with itself across chunk sizes,
/// then with the others. An answer is confirmed when at least two parsers give it and one of them
/// meets the whole contract on this input (no `ContractGap` of its applies there); the confirmed
/// answer that most parsers share is the reference (ties go to the parser listed first), and every
/// other parser is reported as wrong, with the first song field that differs. With no confirmed
/// answer every parser that succeeded is ``ParserVerdict/Status/unverified(_:)``: a parser alone,
/// or two that share a gap, confirm nothing. When fewer than two of the parsers asked meet the
/// contract on the input, parsers that do are checked beside them (``FeedVerification/confirmers``).
/// A worker that crashes or runs past its time or memory limit is reported as that parser's
/// outcome; the other parsers still run.
package enum FeedVerifier {
    /// What a parser that read a document and built no songs from it is told: it is no feed.
    package static let noSongsMessage =
        "no songs: the document has no RSS `item` or Atom `entry` (for any other XML, use --workload document)"

    /// The chunk sizes `bench verify` uses by default; 0 stands for the whole feed in one chunk.
    package static let defaultChunkSizes = [1, 7, 512, 16_384, 0]

    /// Verifies one feed (or, with the document workload, one document's events).
    ///
    /// A feed from which the parsers build no songs is a failure of each, with a hint: a document
    /// that is not a feed agrees on nothing. With the document workload the parsers' events are
    /// compared by digest; where one differs, it and the reference run again to report their events,
    /// and the first event that differs is named.
    ///
    /// - Parameters:
    ///   - path: the feed.
    ///   - parsers: the parsers' names, in report order.
    ///   - chunkSizes: the chunk sizes to push the feed in; 0 is the whole feed at once.
    ///   - executable: the `bench` executable to run as the worker.
    ///   - timeout: the time limit of one worker, in seconds.
    ///   - workload: what the parsers build: songs, or the document's events.
    ///   - canonicalDirectory: the document workload: where each parser writes its canonical form
    ///     of the document (``canonicalName(document:parser:)``); `nil` for none.
    ///   - confirming: check parsers beside those asked when fewer than two of them meet the whole
    ///     contract on the input, to confirm their answer (``FeedVerification/confirmers``).
    ///   - progress: called with each parser's name and place ("expat (2 of 11)") as its check starts.
    /// - Returns: every parser's verdict and the reference songs.
    /// - Throws: `FeedFileError` when the feed cannot be read.
    package static func verify(
        feed path: String, parsers: [String], chunkSizes: [Int] = defaultChunkSizes,
        executable: String = WorkerProcess.workerExecutable(), timeout: Double = 300, workload: Workload = .songs,
        canonicalDirectory: String? = nil, confirming: Bool = true, progress: (String) -> Void = { _ in }
    ) throws -> FeedVerification {
        let feed = try FeedFile(path: path)
        var started = 0
        var verdicts: [ParserVerdict] = []
        var outputs = VerifiedOutputs()
        func run(_ parser: String, chunkSizes: [Int], reportEvents: Bool = false) -> ParserVerdict {
            var verifyJob = VerifyJob(
                parser: parser, feed: path, chunkSizes: chunkSizes, workload: workload == .songs ? nil : workload,
                reportEvents: reportEvents ? true : nil)
            if let canonicalDirectory, !reportEvents {
                verifyJob.canonicalOutput = (canonicalDirectory as NSString).appendingPathComponent(
                    canonicalName(document: path, parser: parser))
            }
            let job = WorkerJob.verify(verifyJob)
            do {
                let outcome = try WorkerProcess.run(WorkerCommand(executable: executable, job: job), timeout: timeout)
                return ParserVerdict(parser: parser, outcome: outcome, outputs: &outputs)
            } catch {
                return ParserVerdict(parser: parser, status: .workerFailed("\(error)"))
            }
        }
        func check(_ parser: String) -> ParserVerdict {
            if let skipped = notCompared(parser, workload: workload) {
                return ParserVerdict(parser: parser, status: skipped)
            }
            started += 1
            progress("\(parser) (\(started) of \(parsers.count))")
            var verdict = run(parser, chunkSizes: chunkSizes)
            if workload == .songs, verdict.status == .consistent, verdict.songCount == 0 {
                verdict.status = .failed(
                    FeedParseError(parser: parser, message: noSongsMessage, line: 0, column: 0, notAFeed: true))
            }
            return verdict
        }
        verdicts = parsers.map(check)
        let meets = { (parser: String) in Self.meetsContract(parser, on: feed.bytes, workload: workload) }
        var confirmers: [ParserVerdict] = []
        if confirming {
            let needed = 2 - verdicts.filter { meets($0.parser) && $0.status == .consistent }.count
            // At most two tries more than needed: where those fail too, the input is what fails.
            let candidates = Self.confirmingParsers(workload: workload).filter { !parsers.contains($0) && meets($0) }
                .prefix(max(0, needed + 2))
            for parser in candidates where confirmers.filter({ $0.status == .consistent }).count < needed {
                confirmers.append(check(parser))
            }
        }

        // The reference: of the confirmed answers, the one most parsers share; ties go to the first listed.
        let everyone = verdicts + confirmers
        let groups = Dictionary(grouping: everyone.filter { $0.consistentDigest != nil }) { $0.consistentDigest ?? "" }
        let confirmed = groups.filter { $0.value.count >= 2 && $0.value.contains { meets($0.parser) } }
        let reference = everyone.compactMap(\.consistentDigest).filter { confirmed[$0] != nil }
            .max { confirmed[$0, default: []].count < confirmed[$1, default: []].count }
        let referenceParser = everyone.first { $0.consistentDigest == reference && reference != nil }?.parser
        let referenceSongs = reference.flatMap { outputs.songs[$0] }

        for index in verdicts.indices {
            guard let digest = verdicts[index].consistentDigest else { continue }
            guard let reference, let referenceParser else {
                verdicts[index].status = .unverified(
                    Self.unconfirmed(verdicts[index].parser, everyone: everyone, groups: groups))
                continue
            }
            if digest == reference {
                verdicts[index].status = .agrees
                continue
            }
            let parser = verdicts[index].parser
            // A document's events are reported only when two parsers differ: run both again for them.
            if workload == .document, let size = chunkSizes.first {
                // The reference's events are fetched once, however many parsers differ from it.
                if outputs.events[reference] == nil { _ = run(referenceParser, chunkSizes: [size], reportEvents: true) }
                _ = run(parser, chunkSizes: [size], reportEvents: true)
            }
            verdicts[index].status = .disagrees(
                outputs.firstDifference(digest, reference, parser: parser, reference: referenceParser)
                    ?? "\(parser) gives digest \(digest), \(referenceParser) \(reference)")
        }
        for index in confirmers.indices where confirmers[index].consistentDigest != nil {
            confirmers[index].status =
                confirmers[index].consistentDigest == reference
                ? .agrees : .disagrees("differs from the reference (\(referenceParser ?? "none"))")
        }
        var verification = FeedVerification(
            path: path, bytes: feed.bytes.count, sha256: feed.sha256, chunkSizes: chunkSizes, workload: workload,
            verdicts: verdicts, referenceDigest: reference, referenceSongs: referenceSongs)
        verification.confirmers = confirmers
        return verification
    }

    /// Whether `parser` meets the whole contract of `workload` on `document` (no gap of its applies).
    static func meetsContract(_ parser: String, on document: [UInt8], workload: Workload) -> Bool {
        guard let type = ParserRegistry.parser(named: parser), notCompared(parser, workload: workload) == nil else {
            return false
        }
        return type.meetsContract(on: document)
    }

    /// The parsers that may be checked beside those asked, to confirm their answer: those compared
    /// in `workload`, in the registry's order (whether each meets the contract on a document is
    /// asked of it then).
    static func confirmingParsers(workload: Workload) -> [String] {
        ParserRegistry.names.filter { notCompared($0, workload: workload) == nil }
    }

    /// Why `parser`'s answer is not confirmed: nobody else succeeded, nobody gave the same, or only
    /// parsers with a gap on this input did.
    static func unconfirmed(
        _ parser: String, everyone: [ParserVerdict], groups: [String: [ParserVerdict]]
    ) -> String {
        guard let digest = everyone.first(where: { $0.parser == parser })?.consistentDigest,
            let same = groups[digest]
        else { return "no parser confirms its answer" }
        let others = same.map(\.parser).filter { $0 != parser }
        let succeeded = everyone.filter { $0.consistentDigest != nil }.count
        if !others.isEmpty {
            var gaps: Set<String> = []
            for verdict in same {
                guard let type = ParserRegistry.parser(named: verdict.parser) else { continue }
                for gap in type.contractGaps { gaps.insert(gap.rawValue) }
            }
            let named = gaps.sorted().joined(separator: ", ")
            return "only \((others + [parser]).sorted().joined(separator: ", ")) agree, and none of them meets the "
                + "whole contract on this input (\(named)): they confirm nothing between them"
        }
        if succeeded <= 1 {
            return "the only parser that succeeded: no other parser confirms its answer"
        }
        return "no other parser gives the same answer, and no two others agree"
    }

    /// The file `bench verify --canonical DIR` writes a parser's canonical form of a document to:
    /// "hamlet.libxml2.canonical.xml".
    package static func canonicalName(document path: String, parser: String) -> String {
        let base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return "\(base).\(parser).canonical.xml"
    }

    /// Why `parser` is not compared for `workload`: it builds nothing to compare, or cannot do the
    /// workload at all; `nil` when it is compared.
    package static func notCompared(_ parser: String, workload: Workload) -> ParserVerdict.Status? {
        switch workload {
        case .songs:
            guard let type = ParserRegistry.parser(named: parser), !type.buildsSongs else { return nil }
            return .notCompared("\(type.kind.rawValue): builds no songs")
        case .document:
            if let reason = ParserRegistry.documentNotApplicable[parser] { return .notApplicable(reason) }
            guard let type = ParserRegistry.documentParser(named: parser), !type.reportsEvents else { return nil }
            return .notCompared("\(ParserRegistry.kind(of: parser)?.rawValue ?? "floor"): reports no events")
        }
    }
}
