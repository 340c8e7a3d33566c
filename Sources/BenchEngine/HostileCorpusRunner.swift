import BenchWorker
import BenchResults
import FeedParsers
import Foundation
import SongFeed

/// Runs the ``HostileCorpus`` against a song parser in worker processes (through
/// ``ConformanceRunner``: a crash or a hang costs one document, settled by running it alone) with a
/// limit of time and of memory, and judges what each document ended in (`bench hostile`).
///
/// A parser holds when every document ends in a typed error or in the songs allowed, and the
/// secret of the local file that two documents name is in no song and no error.
package enum HostileCorpusRunner {
    /// The limits of a run.
    package struct Options: Sendable {
        /// The executable that runs the workers (this one by default: a package's own finds its
        /// parsers).
        package var executable: String
        /// Seconds a worker may go without finishing a document.
        package var timeLimit: Double
        /// Seconds the 1,000,000 attributes may take.
        package var manyAttributesTimeLimit: Double
        /// Each worker's data limit (`RLIMIT_DATA`), MiB.
        package var memoryLimitMiB: Int
        /// Bytes pushed at a time (the 1,000,000 attributes: ``HostileCorpus/manyAttributesChunkSize``).
        package var chunkSize = 16_384

        package init(
            executable: String = WorkerProcess.workerExecutable(), timeLimit: Double = HostileCorpus.timeLimit,
            manyAttributesTimeLimit: Double = HostileCorpus.manyAttributesTimeLimit,
            memoryLimitMiB: Int = HostileCorpus.memoryLimitMiB
        ) {
            self.executable = executable
            self.timeLimit = timeLimit
            self.manyAttributesTimeLimit = manyAttributesTimeLimit
            self.memoryLimitMiB = memoryLimitMiB
        }
    }

    /// Runs `parser` over `corpus`; `progress` gets the number of documents settled so far.
    package static func run(
        parser: String, corpus: HostileCorpus, options: Options = Options(), progress: ((Int) -> Void)? = nil
    ) -> HostileParserResult {
        func cases(_ documents: [HostileCorpus.Document]) -> [ConformanceCase] {
            documents.map {
                ConformanceCase(id: $0.name, expectation: .notWellFormed, path: $0.path, sections: "", summary: $0.name)
            }
        }
        var conformance = ConformanceRunner.Options(
            executable: options.executable, chunkSize: options.chunkSize, caseTimeout: options.timeLimit,
            memoryLimitMiB: options.memoryLimitMiB)
        conformance.reportSongs = true
        let (table, songs) = ConformanceRunner.run(
            parser: parser, suite: corpus.directory, cases: cases(corpus.documents), options: conformance,
            progress: progress)
        conformance.caseTimeout = options.manyAttributesTimeLimit
        conformance.chunkSize = HostileCorpus.manyAttributesChunkSize
        let (manyTable, manySongs) = ConformanceRunner.run(
            parser: parser, suite: corpus.directory, cases: cases([corpus.manyAttributes]), options: conformance)
        let outcomes = table.results + manyTable.results
        let built = songs + manySongs
        let entries = corpus.all.enumerated().map { index, document in
            HostileParserResult.Entry(
                name: document.name, truncatedAt: document.truncatedAt,
                verdict: index < outcomes.count
                    ? judge(
                        outcomes[index], songs: index < built.count ? built[index] : nil,
                        expectation: document.expectation, secret: corpus.secret)
                    : .failed("no result"))
        }
        progress?(entries.count)
        return HostileParserResult(parser: parser, kind: table.kind, entries: entries)
    }

    /// What a document whose worker reported `result` (and `songs`, when it accepted it) ended in.
    package static func judge(
        _ result: ConformanceResult, songs: [Song]?, expectation: HostileCorpus.Expectation, secret: String
    ) -> HostileVerdict {
        switch result.outcome {
        case .crashed:
            return .crashed(result.signal.map(signalName) ?? result.detail ?? "a signal")
        case .hung:
            return .timedOut(result.detail ?? "no result within the time limit")
        case .failed where ConformanceRunner.exceededMemory(result):
            return .outOfMemory(result.detail ?? "over the memory limit")
        case .failed:
            return .failed(result.detail ?? "no result")
        case .rejected:
            return result.detail?.contains(secret) == true ? .readSecret : .typedError
        case .accepted:
            let built = songs ?? []
            if built.contains(where: { $0.fieldValues.contains { $0.contains(secret) } }) { return .readSecret }
            switch expectation {
            case .error:
                return .acceptedMalformed(built.count)
            case .errorOr(let expected):
                return built == expected ? .correctSongs(built.count) : .wrongSongs(difference(built, expected))
            case .errorOrBounded:
                let longest = built.flatMap { $0.fieldValues.map(\.utf8.count) }.max() ?? 0
                guard longest <= SongAssembler.maximumFieldBytes else {
                    return .wrongSongs("a field of \(longest) bytes, over the 1 MiB limit")
                }
                return .boundedSongs(built.count)
            }
        }
    }

    /// What differs between the songs built and those expected, in a few words.
    static func difference(_ built: [Song], _ expected: [Song]) -> String {
        guard built.count == expected.count else {
            return "\(built.count) song\(built.count == 1 ? "" : "s"), not \(expected.count)"
        }
        for (song, wanted) in zip(built, expected) where song != wanted {
            for (index, field) in Song.fieldNames.enumerated()
            where song.fieldValues[index] != wanted.fieldValues[index] {
                let value = song.fieldValues[index]
                let shown = value.count > 24 ? String(value.prefix(24)) + "…" : value
                return "\(field) \(shown.debugDescription), not \(wanted.fieldValues[index].debugDescription)"
            }
        }
        return "the songs differ"
    }
}
