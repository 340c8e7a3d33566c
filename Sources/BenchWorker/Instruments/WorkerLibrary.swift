import Foundation

/// A library that only some workers load, first (`LD_PRELOAD`), from beside the executable: the
/// allocation interposer in the workers that count allocations (``AllocationCounter``), the frozen
/// clock in the instruction-counting worker (`InstructionCounter`).
///
/// No process links either: `readelf -d bench` names neither, so a `bench` copied or installed on
/// its own starts and does everything that does not count. SwiftPM builds both beside the
/// executable all the same, for the suite's `bench` and for an outside package's: the
/// WorkerLibraries plugin compiles them as the resources of the target `BenchWorkerLibraries`, which
/// BenchCLI depends on, and SwiftPM copies them into `<package>_BenchWorkerLibraries.resources/` in
/// the executable's directory. A library is looked for beside the executable first (a copy of
/// `bench` with its libraries put beside it), then in that directory. A count that needs a library
/// that is not there says which file, where it was looked for and how to get it
/// (``missing(besideExecutable:)``).
package struct WorkerLibrary: Sendable, Hashable {
    /// The file's name.
    package var fileName: String
    /// What needs it ("allocation counts"), the subject of the sentence that says it is missing.
    package var neededBy: String
    /// Why they need it, said when it is missing.
    package var purpose: String

    /// ordo-one/malloc-interposer's library: its `malloc` counts each call while counting is on.
    package static let allocationInterposer = WorkerLibrary(
        fileName: "libMallocInterposerSwift.so", neededBy: "allocation counts",
        purpose: "the allocation interposer, preloaded into the counting workers")

    /// The frozen clock's library (`Sources/BenchWorkerLibraries/FrozenClock`): `time()` frozen where
    /// `BENCH_FROZEN_TIME` is set.
    package static let frozenClock = WorkerLibrary(
        fileName: "libFrozenClock.so", neededBy: "instruction counts",
        purpose: "the frozen clock, preloaded into the counted worker: libxml2 seeds its hashes from time()")

    /// The end of the name of the directory SwiftPM copies the libraries into, beside the
    /// executable: `<package>_BenchWorkerLibraries.resources` (the start is the suite's package name
    /// as the build knows it).
    package static let resourceDirectorySuffix = "_BenchWorkerLibraries.resources"

    /// The library's path for `executable`: beside it when it is there, else in the resource
    /// directory beside it (where SwiftPM builds it), else the path beside it (which is missing).
    package func path(besideExecutable executable: String) -> String {
        candidates(besideExecutable: executable).first { FileManager.default.fileExists(atPath: $0) }
            ?? (WorkerProcess.directory(ofExecutable: executable) as NSString).appendingPathComponent(fileName)
    }

    /// Where the library is looked for, in order: beside `executable`, then in each resource
    /// directory beside it (``resourceDirectorySuffix``).
    func candidates(besideExecutable executable: String) -> [String] {
        let directory = WorkerProcess.directory(ofExecutable: executable) as NSString
        let bundles = ((try? FileManager.default.contentsOfDirectory(atPath: directory as String)) ?? [])
            .filter { $0.hasSuffix(Self.resourceDirectorySuffix) }.sorted()
        return [directory.appendingPathComponent(fileName)]
            + bundles.map { (directory.appendingPathComponent($0) as NSString).appendingPathComponent(fileName) }
    }

    /// Why the library cannot be preloaded from beside `executable`, when it is not there.
    ///
    /// - Returns: the file, where it was looked for, how to get it; `nil` when it is there.
    package func missing(besideExecutable executable: String) -> String? {
        let places = candidates(besideExecutable: executable)
        if places.contains(where: { FileManager.default.fileExists(atPath: $0) }) { return nil }
        let name = (WorkerProcess.file(ofExecutable: executable) as NSString).lastPathComponent
        let resources = "xml-parser-bench\(Self.resourceDirectorySuffix)"
        return "\(neededBy) need \(fileName) (\(purpose)), which is not beside \(name): looked for "
            + "\(places.joined(separator: ", ")). Build with swift build -c release in \(name)'s package, which puts "
            + "it in \(resources)/ beside \(name), or copy .build/release/\(resources)/\(fileName) from that build "
            + "beside \(name)"
    }
}
