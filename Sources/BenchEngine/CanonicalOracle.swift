import BenchWorker
import BenchResults
import FeedParsers
import Foundation

/// The oracle of the document workload: the W3C XML Conformance Test Suite's expected canonical
/// forms (James Clark's canonical XML, the `out/` files beside its valid tests), against each
/// parser's events written in that form.
///
/// The documents are the suite's valid tests that name an `OUTPUT` and that ``ConformanceRunner/rules``
/// choose (XML 1.0, fifth edition; no external entity to read, as the suite never loads one). Each
/// parser runs in workers, as `bench conformance` runs it (a crash or a hang is that document's
/// outcome, not the run's end); each document it accepts is compared byte for byte with its
/// expected output. Some outputs are in the second canonical form, which begins with a DOCTYPE that
/// lists the document's notations: notations are not events, so the comparison starts after it.
package enum CanonicalOracle {
    /// A valid test with an expected canonical form.
    package struct Case: Sendable, Hashable {
        package var id: String
        /// The document, relative to the suite's directory.
        package var path: String
        /// The expected canonical form, relative to the suite's directory.
        package var output: String
    }

    /// What one parser did with one case.
    package enum Verdict: Sendable, Hashable {
        /// Its canonical form is the expected one, byte for byte.
        case reproduced
        /// It accepted the document and wrote another canonical form: where they first differ.
        case differs(String)
        /// It rejected the (valid) document: its error.
        case rejected(String)
        /// It crashed, hung or could not run: what happened.
        case failed(String)
    }

    /// One parser over the cases.
    package struct ParserOutcome: Sendable {
        package var parser: String
        /// Each case's verdict, in the order of the cases.
        package var verdicts: [(case: Case, verdict: Verdict)]

        package var reproduced: Int { verdicts.filter { $0.verdict == .reproduced }.count }
        /// The cases it accepted (reproduced or not).
        package var accepted: Int {
            verdicts.filter {
                if case .differs = $0.verdict { return true }
                return $0.verdict == .reproduced
            }.count
        }
    }

    /// The cases of the suite in `directory`, in catalog order.
    ///
    /// - Throws: ``ConformanceRunner/Failure`` when the catalog is missing or unreadable.
    package static func cases(suite directory: String, executable: String = WorkerProcess.workerExecutable()) throws
        -> [Case]
    {
        try ConformanceRunner.catalog(suite: directory, executable: executable).compactMap { entry in
            guard entry.selectedExpectation == .valid, let output = entry.output else { return nil }
            return Case(id: entry.id, path: entry.path, output: output)
        }
    }

    /// Runs `parser` over `cases` in workers and compares each accepted document's canonical form
    /// with the expected one.
    package static func run(
        parser: String, suite directory: String, cases: [Case], options: ConformanceRunner.Options,
        progress: ((Int) -> Void)? = nil
    ) -> ParserOutcome {
        var options = options
        options.workload = .document
        let conformanceCases = cases.map {
            ConformanceCase(id: $0.id, expectation: .valid, path: $0.path, sections: "", summary: "")
        }
        let (table, lines) = ConformanceRunner.runLines(
            parser: parser, suite: directory, cases: conformanceCases, options: options, progress: progress)
        let verdicts = cases.indices.map { index -> (case: Case, verdict: Verdict) in
            let result = table.results[index]
            let item = cases[index]
            switch result.outcome {
            case .accepted:
                guard let canonical = lines[index]?.canonical else {
                    return (item, .failed("no canonical form reported"))
                }
                guard let expected = expected(suite: directory, item) else {
                    return (item, .failed("cannot read \(item.output)"))
                }
                let ours = Array(canonical.utf8)
                return (item, ours == expected ? .reproduced : .differs(firstDifference(ours, expected)))
            case .rejected:
                return (item, .rejected(result.detail ?? "rejected"))
            case .crashed, .hung, .failed:
                return (item, .failed("\(result.outcome.rawValue): \(result.detail ?? "")"))
            }
        }
        return ParserOutcome(parser: parser, verdicts: verdicts)
    }

    /// `outcome` as the conformance table holds it.
    package static func events(_ outcome: ParserOutcome) -> ConformanceTable.CanonicalEvents {
        ConformanceTable.CanonicalEvents(
            results: outcome.verdicts.map { item, verdict in
                let (kind, detail): (ConformanceTable.CanonicalEvents.Verdict, String?)
                switch verdict {
                case .reproduced: (kind, detail) = (.reproduced, nil)
                case .differs(let difference): (kind, detail) = (.differs, difference)
                case .rejected(let error): (kind, detail) = (.rejected, error)
                case .failed(let what): (kind, detail) = (.failed, what)
                }
                return .init(caseID: item.id, path: item.path, verdict: kind, detail: detail)
            })
    }

    /// Whether `bench conformance` checks `parser`'s canonical events: it walks documents and
    /// reports their events.
    package static func checks(_ parser: String) -> Bool {
        ParserRegistry.documentNotApplicable[parser] == nil
            && ParserRegistry.documentParser(named: parser)?.reportsEvents == true
    }

    /// What the canonical-events check does, in words, as `bench conformance` states its method.
    package static func method(cases: Int) -> String {
        "each parser that walks documents is also judged on its canonical events: its events on each of the "
            + "\(cases) valid documents with an expected canonical form (the catalog's OUTPUT), written in James "
            + "Clark's canonical form and compared byte for byte (\"canonical events\": reproduced, differ, or not "
            + "read: rejected, crashed, hung)"
    }

    /// The expected canonical form of `item`, the second form's DOCTYPE of notations left out.
    package static func expected(suite directory: String, _ item: Case) -> [UInt8]? {
        let path = (directory as NSString).appendingPathComponent(item.output)
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        var bytes = [UInt8](data)
        let doctype = Array("<!DOCTYPE ".utf8)
        if bytes.starts(with: doctype) {
            // "<!DOCTYPE name [\n<!NOTATION …>\n]>\n": up to the first "]>" and its line feed.
            let close = Array("]>\n".utf8)
            if let end = (0..<max(0, bytes.count - close.count + 1)).first(where: {
                bytes[$0..<($0 + close.count)].elementsEqual(close)
            }) {
                bytes.removeFirst(end + close.count)
            }
        }
        return bytes
    }

    /// Where two canonical forms first differ: the byte offset, its line and column (from 1, the
    /// column in characters) and a few characters of each, invisible ones escaped (`VisibleText`).
    package static func firstDifference(_ ours: [UInt8], _ expected: [UInt8]) -> String {
        let common = zip(ours, expected).prefix { $0 == $1 }.count
        let lineStart = ours[..<common].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let line = ours[..<common].count { $0 == UInt8(ascii: "\n") } + 1
        let column = String(decoding: ours[lineStart..<common], as: UTF8.self).unicodeScalars.count + 1
        func around(_ bytes: [UInt8]) -> String {
            let start = max(0, common - 20)
            let end = min(bytes.count, common + 40)
            let text = String(decoding: bytes[start..<end], as: UTF8.self)
            return "\"" + VisibleText.escaped(text, limit: .max) + "\""
        }
        return "at byte \(common) (line \(line), column \(column)): \(around(ours)) where the expected form has "
            + around(expected)
    }
}
