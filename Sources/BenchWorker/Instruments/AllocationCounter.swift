import Foundation

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
/// block, which would change the time and memory of a timed parse. No process links it
/// (``WorkerLibrary``): a counting worker preloads it from beside the executable
/// (``countingEnvironment(executable:)``), and this type finds its functions in the process
/// (`dlsym`), where only that worker has them. Every other worker checks at its start that nothing
/// is counted (``isLoaded``); an interposer inherited from the caller's `LD_PRELOAD` is taken out
/// of a worker's.
package enum AllocationCounter {
    /// What one counted region allocated.
    package struct Counts: Sendable, Hashable, Codable {
        /// `malloc`-family calls.
        package var allocations: Int
        /// Bytes those calls asked for.
        package var bytes: Int
        /// Bytes asked for in the region and not freed by its end (what it left alive: a parse's
        /// songs, and any cache its library keeps).
        package var keptBytes: Int
    }

    /// The interposer's library, beside the `bench` executable (SwiftPM builds it there).
    package static func library(besideExecutable executable: String) -> String {
        WorkerLibrary.allocationInterposer.path(besideExecutable: executable)
    }

    /// The file name of the interposer's library.
    package static let libraryName = WorkerLibrary.allocationInterposer.fileName

    /// Why allocations cannot be counted by workers of `executable`: the interposer is not beside it
    /// (which file, where it was looked for, how to get it); `nil` when it is there.
    package static func unavailable(besideExecutable executable: String) -> String? {
        WorkerLibrary.allocationInterposer.missing(besideExecutable: executable)
    }

    /// The environment of a worker that counts allocations: the interposer loaded first.
    ///
    /// Hashing is made deterministic too (Swift's seed, and expat's salt with it: see
    /// `HashSeeding`), as for instruction counts: with a random seed the expat adapter's parse asked
    /// 16 bytes more or less from one process to the next, and once from one parse to the next.
    package static func countingEnvironment(executable: String) -> [String: String] {
        ["LD_PRELOAD": library(besideExecutable: executable), "SWIFT_DETERMINISTIC_HASHING": "1"]
    }

    /// The interposer's C functions (`interposer.h`), found in the process: only where its library
    /// was preloaded.
    struct Interposer: @unchecked Sendable {
        var enable: @convention(c) () -> Void
        var disable: @convention(c) () -> Void
        var reset: @convention(c) () -> Void
        /// `malloc_interposer_get_stats`: allocations, their bytes, small and large ones, frees, freed bytes.
        var statistics:
            @convention(c) (
                UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>,
                UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>
            ) -> Void

        /// The functions, looked up once; `nil` without the library.
        static let loaded: Interposer? = {
            #if canImport(Darwin)
                let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
            #else
                let everywhere: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
            #endif
            func function<T>(_ name: String, as type: T.Type) -> T? {
                dlsym(everywhere, name).map { unsafeBitCast($0, to: type) }
            }
            guard let enable = function("malloc_interposer_enable", as: (@convention(c) () -> Void).self),
                let disable = function("malloc_interposer_disable", as: (@convention(c) () -> Void).self),
                let reset = function("malloc_interposer_reset", as: (@convention(c) () -> Void).self),
                let statistics = function(
                    "malloc_interposer_get_stats",
                    as: (@convention(c) (
                        UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>,
                        UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>
                    ) -> Void).self)
            else { return nil }
            return Interposer(enable: enable, disable: disable, reset: reset, statistics: statistics)
        }()

        /// The allocations since the last reset, their bytes, and the bytes freed.
        func counts() -> Counts {
            var (allocations, bytes, small, large, frees, freedBytes): (Int64, Int64, Int64, Int64, Int64, Int64) =
                (0, 0, 0, 0, 0, 0)
            statistics(&allocations, &bytes, &small, &large, &frees, &freedBytes)
            return Counts(allocations: Int(allocations), bytes: Int(bytes), keptBytes: Int(bytes - freedBytes))
        }
    }

    /// Whether the interposer is the process's `malloc` (a block allocated while counting is on is counted).
    ///
    /// In a worker that times, it must not be; in one that counts, it must.
    package static var isLoaded: Bool {
        guard let interposer = Interposer.loaded else { return false }
        interposer.reset()
        interposer.enable()
        let block = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
        blackHole(block)
        block.deallocate()
        interposer.disable()
        let loaded = interposer.counts().allocations > 0
        interposer.reset()
        return loaded
    }

    /// Starts counting from zero.
    ///
    /// Call ``stop()`` to end the region. Without the interposer (``isLoaded``), nothing is counted.
    @inline(__always)
    package static func start() {
        guard let interposer = Interposer.loaded else { return }
        interposer.reset()
        interposer.enable()
    }

    /// Stops counting and returns what the region since ``start()`` allocated.
    @inline(__always)
    package static func stop() -> Counts {
        guard let interposer = Interposer.loaded else { return Counts(allocations: 0, bytes: 0, keptBytes: 0) }
        interposer.disable()
        return interposer.counts()
    }

    /// Counts the allocations of `body`.
    package static func count<T>(_ body: () throws -> T) rethrows -> (value: T, counts: Counts) {
        start()
        let value = try body()
        let counts = stop()
        return (value, counts)
    }

    /// A function with a known number of allocations, to check the counter (`bench worker
    /// count-allocations`): `blocks` calls of `malloc(bytes)`, freed again unless `keep` (then they
    /// stay allocated: a leak the size of the test, in a process that ends at once).
    package static func probe(blocks: Int, bytes: Int, keep: Bool) throws -> Counts {
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
    package struct WrongAllocator: Error, CustomStringConvertible, Sendable {
        package var description: String
    }

    /// Checks that the process has the allocator its work needs.
    package static func check(counting: Bool) throws {
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
                    + "changes times and memory): run this worker without it in LD_PRELOAD (bench run does)")
        }
    }
}
