import BenchResults
import BenchTestSupport
import Foundation
import Testing

@testable import BenchEngine

/// `bench bisect` on synthetic histories: a git repository whose "package" holds each parser's
/// instruction count in a file, built by a stand-in for `swift` (its `build` makes
/// an executable whose `run` writes a run file with those counts, as a counted run of the suite
/// does), so that the search, the skips, the worktree and what is left behind are checked in
/// seconds, without compiling.
@Suite("bisect: the commits whose counts moved")
struct BisectTests {
    /// Runs a bisect of `root` from its first commit to its last with the stand-in `swift`.
    static func bisect(_ root: String, in directory: TemporaryDirectory, threshold: Double = 0.01) throws
        -> BisectResult
    {
        let swift = try SyntheticHistory.installFakeSwift(in: directory)
        let repository = try GitRepository(containing: root)
        let first = try #require(
            try repository.run(["rev-list", "--max-parents=0", "HEAD"]).output.split(separator: "\n").first)
        var session = BisectSession(
            repository: repository, good: String(first), bad: "HEAD", parsers: nil, feed: root + "/feed.xml",
            packagePath: ".", product: "bench", threshold: threshold)
        session.swift = swift
        return try session.run { _ in }
    }

    @Test(.serialized, arguments: [1, 5, 8, 15])
    func oneStepIsFoundInLogTwoProbes(at step: Int) throws {
        let directory = try TemporaryDirectory()
        let root = try SyntheticHistory.repository(SyntheticHistory.counts([(step, 3)]), in: directory)
        let before = try GitRepository(containing: root).state()
        let result = try Self.bisect(root, in: directory)
        #expect(result.steps.map(\.commit.subject) == ["commit \(step)"])
        #expect(result.steps.first?.parent.subject == "commit \(step - 1)")
        // 15 commits after the good one: ⌈log₂ 15⌉ = 4 probes between the ends.
        #expect(result.probesBetween <= 4)
        #expect(result.cells.first { $0.parser == "app" }?.moved == true)
        #expect(result.cells.contains { $0.parser == "null" } == false)
        // The repository as it was: no worktree left, HEAD and branches unchanged.
        let repository = try GitRepository(containing: root)
        #expect(try repository.state() == before)
        #expect(try repository.run(["worktree", "list"]).output.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: root + "/.build-bisect/worktree"))
    }

    @Test func twoStepsAreBothFound() throws {
        let directory = try TemporaryDirectory()
        let root = try SyntheticHistory.repository(SyntheticHistory.counts([(4, 2), (11, 3)]), in: directory)
        let result = try Self.bisect(root, in: directory)
        #expect(result.steps.map(\.commit.subject) == ["commit 4", "commit 11"])
    }

    @Test func aCommitThatDoesNotBuildIsSkipped() throws {
        let directory = try TemporaryDirectory()
        // The middle commit (7) and the one before it do not build; the step is at 10.
        let root = try SyntheticHistory.repository(SyntheticHistory.counts([(10, 3)]), broken: [6, 7], in: directory)
        let result = try Self.bisect(root, in: directory)
        #expect(result.steps.map(\.commit.subject) == ["commit 10"])
        #expect(result.unresolved.isEmpty)
        let skipped = result.probes.filter { $0.skipped != nil }
        #expect(!skipped.isEmpty)
        #expect(skipped.allSatisfy { $0.skipped?.contains("does not build") == true })
    }

    /// As `git bisect` says "the first bad commit could be any of": the step is at 9, but 7 and 8
    /// could not be counted, so it may be any of 7, 8 and 9.
    @Test func aStepNextToCommitsThatDoNotBuildIsAStretch() throws {
        let directory = try TemporaryDirectory()
        let root = try SyntheticHistory.repository(SyntheticHistory.counts([(9, 3)]), broken: [7, 8], in: directory)
        let result = try Self.bisect(root, in: directory)
        #expect(result.steps.isEmpty)
        #expect(result.unresolved.count == 1)
        #expect(result.unresolved.first?.reason.contains("could not be counted") == true)
        #expect(result.unresolved.first?.from.subject == "commit 6")
        #expect(result.unresolved.first?.to.subject == "commit 9")
    }

    @Test func nothingMovedFindsNothing() throws {
        let directory = try TemporaryDirectory()
        let root = try SyntheticHistory.repository(SyntheticHistory.counts([]), in: directory)
        let result = try Self.bisect(root, in: directory)
        #expect(result.steps.isEmpty)
        #expect(result.cells.allSatisfy { !$0.moved })
        #expect(result.probes.count == 2)
    }

    @Test func aChangeSpreadOverCommitsIsSaid() throws {
        let directory = try TemporaryDirectory()
        // Four steps of 0.4%: 1.6% between the ends, none by 1% alone.
        let root = try SyntheticHistory.repository(
            SyntheticHistory.counts([(3, 0.4), (6, 0.4), (9, 0.4), (12, 0.4)]), in: directory)
        let result = try Self.bisect(root, in: directory)
        #expect(result.steps.isEmpty)
        #expect(result.unresolved.contains { $0.reason.contains("by none of them alone") })
    }

    @Test func badInputIsRefused() throws {
        let directory = try TemporaryDirectory()
        let root = try SyntheticHistory.repository(SyntheticHistory.counts([(5, 3)], commits: 6), in: directory)
        let repository = try GitRepository(containing: root)
        func session(good: String, bad: String) -> BisectSession {
            BisectSession(
                repository: repository, good: good, bad: bad, parsers: nil, feed: root + "/feed.xml",
                packagePath: ".", product: "bench", threshold: 0.01)
        }
        #expect(throws: GitRepository.Failure.self) { try session(good: "nosuchrev", bad: "HEAD").run { _ in } }
        #expect(throws: BisectSession.Refusal.self) { try session(good: "HEAD", bad: "HEAD~3").run { _ in } }
        #expect(throws: BisectSession.Refusal.self) { try session(good: "HEAD", bad: "HEAD").run { _ in } }
        try "changed\n".write(toFile: root + "/counts", atomically: true, encoding: .utf8)
        #expect(throws: BisectSession.Refusal.self) { try session(good: "HEAD~3", bad: "HEAD").run { _ in } }
        #expect(throws: GitRepository.Failure.self) { try GitRepository(containing: directory.path("")) }
    }
}
