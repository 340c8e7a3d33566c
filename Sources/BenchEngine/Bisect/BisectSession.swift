import BenchWorker
import BenchResults
import Foundation

/// `bench bisect`: finds the commits whose instruction counts moved.
///
/// Each probed commit is checked out in one worktree (`.build-bisect/worktree` under the
/// repository's top, git-ignored as every `.build*` is) and built there in release with one scratch
/// directory (`.build-bisect/scratch`), so that each build after the first is incremental and the
/// repository's own checkout, HEAD, branches and index are untouched. Its own tool then counts one
/// parse of each parser after a warm-up (`run --counter instructions --rounds 1 --iterations 1
/// --warmup 1`): exact, so one probe decides.
///
/// The good and bad ends are counted first; the cells whose count moved beyond the threshold between
/// them are the ones sought. Then every stretch whose ends differ by the threshold, in the
/// direction of the change, is split at its middle until a step is two neighbouring commits: a
/// single step is found in ⌈log₂ n⌉ probes between the ends, and a range with several steps has
/// each found. A commit that does not build (or whose tool cannot count) is skipped, as `git bisect
/// skip` does, and a neighbour probed instead. Each step is explained against the commit before it
/// from the two probes' profiles (`CellExplanation`).
package struct BisectSession: Sendable {
    package var repository: GitRepository
    package var good: String
    package var bad: String
    /// The parsers counted; `nil`: the probed tool's default set.
    package var parsers: [String]?
    /// The feed every probe parses (an absolute path: the same bytes whatever the commit).
    package var feed: String
    /// The package to build, relative to the repository's top, and its executable.
    package var packagePath: String
    package var product: String
    package var threshold: Double
    /// The `swift` that builds each commit (the `PATH`'s).
    package var swift: String = BisectSession.defaultSwift

    package init(
        repository: GitRepository, good: String, bad: String, parsers: [String]?, feed: String,
        packagePath: String, product: String, threshold: Double
    ) {
        self.repository = repository
        self.good = good
        self.bad = bad
        self.parsers = parsers
        self.feed = feed
        self.packagePath = packagePath
        self.product = product
        self.threshold = threshold
    }

    /// A bisect that cannot start or go on: bad revisions, a dirty tree, no product, nothing builds.
    package struct Refusal: Error, CustomStringConvertible, Sendable {
        package var description: String
    }

    /// The parser that does no parsing: never a cell that moved.
    static let baseline = "null"

    var work: String { (repository.root as NSString).appendingPathComponent(".build-bisect") }
    var worktree: String { (work as NSString).appendingPathComponent("worktree") }
    var scratch: String { (work as NSString).appendingPathComponent("scratch") }

    /// Runs the bisect; `progress` gets what it does, a line at a time (for standard error).
    ///
    /// - Throws: ``Refusal`` for bad input (unknown revisions, GOOD not an ancestor of BAD, a dirty
    ///   checkout, a package without the product, ends that do not build or count); ``GitRepository/Failure``.
    package func run(progress: @escaping @Sendable (String) -> Void) throws -> BisectResult {
        let goodCommit = try repository.commit(good)
        let badCommit = try repository.commit(bad)
        guard goodCommit.hash != badCommit.hash else {
            throw Refusal(description: "--good and --bad are the same commit (\(goodCommit.short)): nothing to bisect")
        }
        guard try repository.isAncestor(goodCommit.hash, of: badCommit.hash) else {
            throw Refusal(
                description: "--good \(good) (\(goodCommit.short)) is not an ancestor of --bad \(bad) "
                    + "(\(badCommit.short)): bisect needs the good commit before the bad one in history")
        }
        let changes = try repository.uncommittedChanges()
        guard changes.isEmpty else {
            throw Refusal(
                description: "the working tree has uncommitted changes; commit or stash them first (bisect builds "
                    + "commits, and says what it found of them):\n" + changes)
        }
        guard FileManager.default.fileExists(atPath: feed) else {
            throw Refusal(description: "no feed at \(feed) (--feed FILE)")
        }
        let range = try repository.commits(after: goodCommit.hash, through: badCommit.hash)
        let commits = [goodCommit] + range
        let before = try repository.state()
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        progress(
            "bisect: \(range.count) commit\(range.count == 1 ? "" : "s") after \(goodCommit.short) up to \(badCommit.short); worktree \(worktree), scratch \(scratch)"
        )
        try repository.addWorktree(at: worktree, commit: goodCommit.hash)
        WorkerProcess.removeOnInterrupt(worktree)
        defer {
            repository.removeWorktree(at: worktree)
            WorkerProcess.forgetOnInterrupt(worktree)
            if (try? repository.state()) != before {
                progress("bisect: WARNING: the repository's HEAD, branches or index changed during the bisect")
            }
        }

        var probes: [BisectProbe] = []
        var byPosition: [Int: BisectProbe] = [:]
        func probe(_ position: Int) -> BisectProbe {
            if let known = byPosition[position] { return known }
            let made = self.probe(commits[position], position: position, progress: progress)
            probes.append(made)
            byPosition[position] = made
            return made
        }
        let last = commits.count - 1
        let first = probe(0)
        guard let goodCounts = first.counts else {
            throw Refusal(description: "the good commit \(goodCommit.short) cannot be counted: \(first.skipped ?? "")")
        }
        if WorkerProcess.interruption != nil { return interrupted(goodCommit, badCommit, range.count, probes) }
        let end = probe(last)
        if WorkerProcess.interruption != nil { return interrupted(goodCommit, badCommit, range.count, probes) }
        guard let badCounts = end.counts else {
            throw Refusal(description: "the bad commit \(badCommit.short) cannot be counted: \(end.skipped ?? "")")
        }
        let cells = goodCounts.keys.sorted().compactMap { parser -> BisectCell? in
            guard parser != Self.baseline, let b = badCounts[parser], let a = goodCounts[parser] else { return nil }
            return BisectCell(
                parser: parser, good: a, bad: b, moved: abs(Double(b - a)) >= threshold * Double(max(1, a)))
        }
        let moved = cells.filter(\.moved)
        var result = BisectResult(
            good: BisectCommit(goodCommit), bad: BisectCommit(badCommit), range: range.count, threshold: threshold,
            cells: cells, probes: [], steps: [], unresolved: [], interrupted: nil)
        guard !moved.isEmpty else {
            result.probes = probes
            return result
        }
        let direction = Dictionary(uniqueKeysWithValues: moved.map { ($0.parser, $0.bad >= $0.good ? 1.0 : -1.0) })
        /// Whether a moved cell's count went from `a` to `b` by the threshold, in its direction.
        func differs(_ a: [String: Int], _ b: [String: Int]) -> Bool {
            moved.contains { cell in
                guard let x = a[cell.parser], let y = b[cell.parser], let sign = direction[cell.parser] else {
                    return false
                }
                return Double(y - x) * sign >= threshold * Double(max(1, x))
            }
        }
        var pending = [(0, last)]
        var found: [(Int, Int)] = []
        var skippedPositions = Set<Int>()
        while let (lo, hi) = pending.popLast() {
            if WorkerProcess.interruption != nil { break }
            if hi == lo + 1 {
                found.append((lo, hi))
                continue
            }
            // The middle, or the nearest commit to it that was not skipped.
            let middle = (lo + hi) / 2
            let candidates = (lo + 1..<hi).sorted { (abs($0 - middle), $0) < (abs($1 - middle), $1) }
            var split: Int?
            for candidate in candidates where !skippedPositions.contains(candidate) {
                if WorkerProcess.interruption != nil { break }
                if probe(candidate).counts != nil {
                    split = candidate
                    break
                }
                skippedPositions.insert(candidate)
            }
            guard let split, let low = byPosition[lo]?.counts, let mid = byPosition[split]?.counts,
                let high = byPosition[hi]?.counts
            else {
                if WorkerProcess.interruption == nil {
                    result.unresolved.append(
                        BisectStretch(
                            from: BisectCommit(commits[lo]), to: BisectCommit(commits[hi]),
                            reason:
                                "the \(hi - lo - 1) commit\(hi - lo - 1 == 1 ? "" : "s") between them could not be counted (skipped): the step is one of \(commits[lo + 1...hi].map(\.short).joined(separator: ", "))"
                        ))
                }
                continue
            }
            let halves = [(lo, split, differs(low, mid)), (split, hi, differs(mid, high))]
            if !halves.contains(where: \.2) {
                result.unresolved.append(
                    BisectStretch(
                        from: BisectCommit(commits[lo]), to: BisectCommit(commits[hi]),
                        reason: "counts moved beyond the threshold over these commits, by none of them alone"))
            }
            // Later stretches first on the stack, so that the earlier is split first.
            for half in halves.reversed() where half.2 { pending.append((half.0, half.1)) }
        }
        result.probes = probes
        if let signal = WorkerProcess.interruption { result.interrupted = signalName(signal) }
        result.steps = found.sorted { $0.1 < $1.1 }.compactMap { lo, hi in
            guard let parent = byPosition[lo], let child = byPosition[hi], let a = parent.counts, let b = child.counts
            else { return nil }
            return step(parent: parent, child: child, before: a, after: b, moved: moved, direction: direction)
        }
        return result
    }

    private func interrupted(
        _ good: GitRepository.Commit, _ bad: GitRepository.Commit, _ range: Int, _ probes: [BisectProbe]
    ) -> BisectResult {
        BisectResult(
            good: BisectCommit(good), bad: BisectCommit(bad), range: range, threshold: threshold, cells: [],
            probes: probes, steps: [], unresolved: [], interrupted: WorkerProcess.interruption.map(signalName))
    }

    /// The step from `parent` to `child`, its moved cells explained from the two probes' profiles.
    private func step(
        parent: BisectProbe, child: BisectProbe, before: [String: Int], after: [String: Int], moved: [BisectCell],
        direction: [String: Double]
    ) -> BisectStep {
        let cells = moved.compactMap { cell -> BisectCell? in
            guard let a = before[cell.parser], let b = after[cell.parser] else { return nil }
            let sign = direction[cell.parser] ?? 1
            return BisectCell(
                parser: cell.parser, good: a, bad: b, moved: Double(b - a) * sign >= threshold * Double(max(1, a)))
        }
        var explanations: [CellExplanation] = []
        var unexplained: [String] = []
        let left = Self.profiles(in: parent.runDirectory)
        let right = Self.profiles(in: child.runDirectory)
        for cell in cells where cell.moved {
            let a = left.profiles.filter { $0.key.parser == cell.parser }
            let b = right.profiles.filter { $0.key.parser == cell.parser }
            guard let key = a.first?.key else {
                unexplained.append(
                    "\(cell.parser): no profile at \(parent.commit.short) (\(left.why ?? "its tool predates profiles"))"
                )
                continue
            }
            guard !b.isEmpty else {
                unexplained.append(
                    "\(cell.parser): no profile at \(child.commit.short) (\(right.why ?? "its tool predates profiles"))"
                )
                continue
            }
            explanations.append(
                CellExplanation.explain(
                    key, baseline: a, current: b, baselineRun: parent.commit.short, currentRun: child.commit.short))
        }
        return BisectStep(
            commit: child.commit, parent: parent.commit, cells: cells, explanations: explanations,
            unexplained: unexplained)
    }

    /// The profiles a probe's run wrote (`<run-id>-profiles.json.gz`), or why there are none.
    static func profiles(in directory: String?) -> (profiles: [CellProfile], why: String?) {
        guard let directory,
            let name = (try? FileManager.default.contentsOfDirectory(atPath: directory))?.first(where: {
                $0.hasSuffix("-profiles.json.gz")
            })
        else { return ([], nil) }
        let path = (directory as NSString).appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: path) else { return ([], "cannot read \(path)") }
        do {
            return (try ProfileArchive.decode(Array(data), source: path).profiles, nil)
        } catch {
            return ([], "\(error)")
        }
    }

    /// Builds and counts one commit.
    private func probe(_ commit: GitRepository.Commit, position: Int, progress: @escaping @Sendable (String) -> Void)
        -> BisectProbe
    {
        let started = Date()
        func skipped(_ why: String, build: Double, count: Double = 0) -> BisectProbe {
            progress("  \(commit.short) skipped: \(why)")
            return BisectProbe(
                commit: BisectCommit(commit), position: position, counts: nil, skipped: why, buildSeconds: build,
                countSeconds: count, runDirectory: nil)
        }
        do {
            try repository.checkout(worktree: worktree, commit: commit.hash)
        } catch {
            return skipped("cannot check it out: \(error)", build: 0)
        }
        progress("  \(commit.short) building (\(commit.subject.prefix(60)))…")
        let package = (worktree as NSString).appendingPathComponent(packagePath)
        let build: ChildProcess.Result
        do {
            build = try ChildProcess.run(
                swift,
                [
                    "build", "-c", "release", "--package-path", package, "--scratch-path", scratch,
                    "--product", product,
                ],
                in: package
            ) { line in
                // SwiftPM's own progress ("[412/800] Compiling …"), one line in a hundred.
                if let step = Self.buildStep(line), step % 100 == 0 { progress("    \(line.prefix(90))") }
            }
        } catch {
            return skipped("\(error)", build: Date().timeIntervalSince(started))
        }
        let built = Date().timeIntervalSince(started)
        if build.interrupted { return skipped("interrupted", build: built) }
        guard build.status == 0 else {
            let text = build.output + build.error
            let reason =
                text.split(separator: "\n").first { $0.contains("error:") }.map { String($0.prefix(200)) }
                ?? "exit \(build.status)"
            return skipped("its build failed: \(reason)", build: built)
        }
        let directory = (work as NSString).appendingPathComponent("probes/\(commit.short)")
        try? FileManager.default.removeItem(atPath: directory)
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let executable = (scratch as NSString).appendingPathComponent("release/\(product)")
        progress("  \(commit.short) built in \(String(format: "%.1f", built)) s; counting…")
        let counting = Date()
        var arguments = [
            "run", "--counter", "instructions", "--rounds", "1", "--iterations", "1", "--warmup", "1", "--feed",
            feed, "--no-store", "--quiet", "--format", "json", "--output-dir", directory,
        ]
        if let parsers { arguments += ["--parsers", parsers.joined(separator: ",")] }
        let count: ChildProcess.Result
        do {
            count = try ChildProcess.run(executable, arguments, in: package)
        } catch {
            return skipped("\(error)", build: built, count: Date().timeIntervalSince(counting))
        }
        let counted = Date().timeIntervalSince(counting)
        if count.interrupted { return skipped("interrupted", build: built, count: counted) }
        guard let counts = Self.counts(in: directory), !counts.isEmpty else {
            let reason =
                count.error.split(separator: "\n").first { $0.contains("rror") }.map { String($0.prefix(200)) }
                ?? "exit \(count.status), no counts written"
            return skipped("its tool could not count: \(reason)", build: built, count: counted)
        }
        progress(
            "  \(commit.short) counted in \(String(format: "%.1f", counted)) s: "
                + counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        return BisectProbe(
            commit: BisectCommit(commit), position: position, counts: counts, skipped: nil, buildSeconds: built,
            countSeconds: counted, runDirectory: directory)
    }

    /// Each parser's instructions from the run file in `directory`, read leniently (a tool of any
    /// commit writes `samples[].cell.parser` and `samples[].instructions`): the median of its
    /// counted parses.
    static func counts(in directory: String) -> [String: Int]? {
        guard
            let name = (try? FileManager.default.contentsOfDirectory(atPath: directory))?.sorted().first(where: {
                $0.range(of: #"^\d{8}T\d{6}Z-[0-9A-Za-z]+\.json$"#, options: .regularExpression) != nil
            }),
            let data = FileManager.default.contents(atPath: (directory as NSString).appendingPathComponent(name)),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let samples = object["samples"] as? [[String: Any]]
        else { return nil }
        var values: [String: [Int]] = [:]
        for sample in samples {
            guard let cell = sample["cell"] as? [String: Any], let parser = cell["parser"] as? String,
                let instructions = sample["instructions"] as? Int, sample["error"] == nil
            else { continue }
            values[parser, default: []].append(instructions)
        }
        return values.mapValues { counts in counts.sorted()[(counts.count - 1) / 2] }
    }

    /// The step number of a SwiftPM progress line ("[412/800] …").
    static func buildStep(_ line: String) -> Int? {
        guard line.hasPrefix("["), let slash = line.firstIndex(of: "/") else { return nil }
        return Int(line[line.index(after: line.startIndex)..<slash])
    }

    /// `swift`, for the builds: the `PATH`'s.
    package static var defaultSwift: String { InstructionCounter.findExecutable("swift") ?? "/usr/bin/swift" }
}

extension BisectCommit {
    init(_ commit: GitRepository.Commit) { self.init(hash: commit.hash, subject: commit.subject) }
}
