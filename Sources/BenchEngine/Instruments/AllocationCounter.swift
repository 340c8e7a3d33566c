import Foundation
import MallocInterposerSwift

/// Counts the `malloc`-family calls of a region of code, through ordo-one's malloc interposer.
///
/// **What is counted.** Every call of `malloc`, `calloc`, `realloc` (a grow or a shrink counts as one
/// allocation of the new size and one free of the old), `posix_memalign`, `aligned_alloc`,
/// `memalign` and `valloc` made by any code of the process while counting is on: Swift's own
/// allocations (class instances, array and string storage: `swift_allocObject` ends in `malloc`)
/// and the C libraries' alike (libxml2's `xmlMalloc`, expat's, Foundation's). The bytes are the
/// bytes *asked for*, not what the allocator rounds them up to. **Not counted**: memory that never
/// goes through `malloc` — stack, objects the Swift compiler promoted to the stack, `mmap` made
/// directly, static storage — and the allocator's own bookkeeping.
///
/// **How it is loaded.** The interposer replaces `malloc` for the whole process, so it must be
/// loaded first (`LD_PRELOAD`) and only in the workers that count: it adds a 16-byte header to every
/// block, which would change the time and memory of a timed parse. Linking `bench` against it puts
/// it before libc in the order the dynamic linker searches, so every other worker gets
/// `LD_PRELOAD=libc.so.6`, which puts libc's `malloc` back in front (`plainEnvironment(adding:)`),
/// and checks at its start that nothing is counted (``isLoaded``).
public enum AllocationCounter {
    /// What one counted region allocated.
    public struct Counts: Sendable, Hashable, Codable {
        /// `malloc`-family calls.
        public var allocations: Int
        /// Bytes those calls asked for.
        public var bytes: Int
        /// Bytes asked for in the region and not freed by its end (what it left alive: a parse's
        /// songs, and any cache its library keeps).
        public var keptBytes: Int
    }

    /// The interposer's library, beside the `bench` executable (SwiftPM builds it there).
    public static func library(besideExecutable executable: String) -> String {
        (WorkerProcess.directory(ofExecutable: executable) as NSString).appendingPathComponent(libraryName)
    }

    /// The file name of the interposer's library.
    public static let libraryName = "libMallocInterposerSwift.so"

    /// The environment of a worker that counts allocations: the interposer loaded first.
    ///
    /// Hashing is made deterministic too (Swift's seed, and expat's salt with it: see
    /// `HashSeeding`), as for instruction counts: with a random seed the expat adapter's parse asked
    /// 16 bytes more or less from one process to the next, and once from one parse to the next.
    public static func countingEnvironment(executable: String) -> [String: String] {
        ["LD_PRELOAD": library(besideExecutable: executable), "SWIFT_DETERMINISTIC_HASHING": "1"]
    }

    /// `LD_PRELOAD` for every worker that does not count allocations: libc first.
    ///
    /// So that its `malloc` is the one every library calls, before any other preloaded library (`others`,
    /// e.g. the frozen clock, which must come before libc to replace `time()`).
    public static func plainPreload(before others: [String] = []) -> String {
        (others + ["libc.so.6"]).joined(separator: ":")
    }

    /// Whether the interposer is the process's `malloc` (a block allocated while counting is on is counted).
    ///
    /// In a worker that times, it must not be; in one that counts, it must.
    public static var isLoaded: Bool {
        MallocInterposerSwift.reset()
        MallocInterposerSwift.hook()
        let block = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
        blackHole(block)
        block.deallocate()
        MallocInterposerSwift.unhook()
        let loaded = MallocInterposerSwift.getStatistics().mallocCount > 0
        MallocInterposerSwift.reset()
        return loaded
    }

    /// Starts counting from zero.
    ///
    /// Call ``stop()`` to end the region.
    @inline(__always)
    public static func start() {
        MallocInterposerSwift.reset()
        MallocInterposerSwift.hook()
    }

    /// Stops counting and returns what the region since ``start()`` allocated.
    @inline(__always)
    public static func stop() -> Counts {
        MallocInterposerSwift.unhook()
        let statistics = MallocInterposerSwift.getStatistics()
        return Counts(
            allocations: statistics.mallocCount, bytes: statistics.mallocBytesCount,
            keptBytes: statistics.mallocBytesCount - statistics.freeBytesCount)
    }

    /// Counts the allocations of `body`.
    public static func count<T>(_ body: () throws -> T) rethrows -> (value: T, counts: Counts) {
        start()
        let value = try body()
        let counts = stop()
        return (value, counts)
    }

    /// A function with a known number of allocations, to check the counter (`bench worker
    /// count-allocations`): `blocks` calls of `malloc(bytes)`, freed again unless `keep` (then they
    /// stay allocated: a leak the size of the test, in a process that ends at once).
    public static func probe(blocks: Int, bytes: Int, keep: Bool) throws -> Counts {
        try check(counting: true)
        var pointers = [UnsafeMutableRawPointer?](repeating: nil, count: max(0, blocks))
        let counted = pointers.withUnsafeMutableBufferPointer { slots in
            count {
                for index in slots.indices { slots[index] = malloc(bytes) }
                if !keep {
                    for index in slots.indices { free(slots[index]) }
                }
            }
        }
        blackHole(pointers)
        return counted.counts
    }

    /// Why a worker cannot measure: a timing worker with the interposer loaded, or a counting worker
    /// without it.
    public struct WrongAllocator: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Checks that the process has the allocator its work needs.
    public static func check(counting: Bool) throws {
        let loaded = isLoaded
        if counting && !loaded {
            throw WrongAllocator(
                description:
                    "allocation counts need the interposer loaded first: LD_PRELOAD=\(libraryName) (bench run sets it)")
        }
        if !counting && loaded {
            throw WrongAllocator(
                description:
                    "the allocation interposer is this worker's malloc (it adds 16 bytes to every block, which "
                    + "changes times and memory): run workers with LD_PRELOAD=libc.so.6 (bench run sets it)")
        }
    }
}
