import Foundation

/// A library that only some workers load, first (`LD_PRELOAD`), from beside the executable: the
/// allocation interposer in the workers that count allocations (``AllocationCounter``), the frozen
/// clock in the instruction-counting worker (``InstructionCounter``).
///
/// No process links either: `readelf -d bench` names neither, so a `bench` copied or installed on
/// its own starts and does everything that does not count. SwiftPM builds both beside the
/// executable all the same, for the suite's `bench` and for an outside package's: BenchCLI depends
/// on the executable product `bench-worker-libraries` (`Packages/WorkerLibraries`), which SwiftPM
/// builds with the libraries it links into the executable's directory, and links into nothing
/// else. A count that needs a library that is not there says which file, where it was looked for
/// and how to get it (``missing(besideExecutable:)``).
public struct WorkerLibrary: Sendable, Hashable {
    /// The file's name.
    public var fileName: String
    /// What needs it ("allocation counts"), the subject of the sentence that says it is missing.
    public var neededBy: String
    /// Why they need it, said when it is missing.
    public var purpose: String

    /// ordo-one/malloc-interposer's library: its `malloc` counts each call while counting is on.
    public static let allocationInterposer = WorkerLibrary(
        fileName: "libMallocInterposerSwift.so", neededBy: "allocation counts",
        purpose: "the allocation interposer, preloaded into the counting workers")

    /// `Packages/FrozenClock`'s library: `time()` frozen where `BENCH_FROZEN_TIME` is set.
    public static let frozenClock = WorkerLibrary(
        fileName: "libFrozenClock.so", neededBy: "instruction counts",
        purpose: "the frozen clock, preloaded into the counted worker: libxml2 seeds its hashes from time()")

    /// The library's path beside `executable` (where SwiftPM builds it).
    public func path(besideExecutable executable: String) -> String {
        (WorkerProcess.directory(ofExecutable: executable) as NSString).appendingPathComponent(fileName)
    }

    /// Why the library cannot be preloaded from beside `executable`, when it is not there.
    ///
    /// - Returns: the file, where it was looked for, how to get it; `nil` when it is there.
    public func missing(besideExecutable executable: String) -> String? {
        let path = path(besideExecutable: executable)
        if FileManager.default.fileExists(atPath: path) { return nil }
        let name = (WorkerProcess.file(ofExecutable: executable) as NSString).lastPathComponent
        return "\(neededBy) need \(fileName) (\(purpose)), which is not beside \(name): looked for \(path). "
            + "Build with swift build -c release in \(name)'s package, which puts it beside \(name), or copy "
            + ".build/release/\(fileName) from that build beside \(name)"
    }
}
