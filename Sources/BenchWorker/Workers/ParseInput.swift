import BenchResults

/// How a measuring worker holds the bytes its parses consume: a scenario's hook
/// (`ScenarioID/parseInput`), which the worker (``MeasureWorker``) calls once, before its first
/// parse, for the scenario its job names (``MeasureJob/scenario``).
///
/// A scenario that parses the feed from somewhere else than a copy in memory (a mapping of its
/// file, say) is its own input type and a line of `ScenarioID/parseInput`: neither the job nor the
/// worker asks which scenario it is.
package protocol ParseInput: Sendable {
    /// Calls `body` with the bytes every parse consumes and keeps them until it returns.
    ///
    /// - Parameters:
    ///   - bytes: the feed as the worker read it.
    ///   - path: the feed's path (the job's).
    ///   - body: the parses.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws, or a ``FeedFileError`` when the input cannot be made.
    func withBytes<R>(_ bytes: [UInt8], path: String, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R
}

/// The feed's bytes in a page-aligned copy: every scenario's input unless it says otherwise.
///
/// Where a heap block lands depends on what the process allocated before, and copies and scans over
/// the bytes take a different path for each alignment. (The counted worker's start-up itself is
/// kept the same from run to run by `InstructionCounter`: the length of its arguments and
/// environment moved expat's count by thousands of instructions.)
struct AlignedCopy: ParseInput {
    func withBytes<R>(_ bytes: [UInt8], path: String, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        let aligned = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 4096)
        defer { aligned.deallocate() }
        bytes.withUnsafeBytes { aligned.copyMemory(from: $0) }
        return try body(UnsafeRawBufferPointer(rebasing: aligned[0..<bytes.count]))
    }
}

extension ScenarioID {
    /// What a measuring worker of this scenario parses: the worker side's registry of inputs.
    ///
    /// Every scenario parses the page-aligned copy today; one that parses its own input switches
    /// here, a line for it.
    package var parseInput: any ParseInput { AlignedCopy() }
}
