// swift-tools-version:6.0
//
// The two libraries that `bench`'s counting workers preload, built beside the executable without it
// linking them (see WorkerLibrary in the bench package):
// - libMallocInterposerSwift.so, the allocation interposer (ordo-one/malloc-interposer), preloaded
//   into the workers that count allocations;
// - libFrozenClock.so (Packages/FrozenClock), preloaded into the instruction-counting worker.
//
// A package of its own because of how SwiftPM builds a dependency that is an executable product of
// another package: it builds it, and the dynamic libraries it links, into the same directory as the
// executable that depends on it, and links none of them into that executable (an executable target
// of the same package, or a library product, is linked; a plugin's tools are built apart, as
// `lib…-tool.so`). The suite's BenchCLI depends on `bench-worker-libraries`, so that every build of
// `bench`, or of an outside package's executable, builds both libraries beside it; `readelf -d`
// of the executable names neither.

import PackageDescription

let package = Package(
    name: "WorkerLibraries",
    products: [
        .executable(name: "bench-worker-libraries", targets: ["bench-worker-libraries"])
    ],
    dependencies: [
        .package(path: "../FrozenClock"),
        // Its `malloc` replaces libc's in the process that loads it first (LD_PRELOAD), and adds a
        // 16-byte header to every block: only the counting workers load it.
        .package(url: "https://github.com/ordo-one/malloc-interposer.git", from: "1.6.1"),
    ],
    targets: [
        // Says where each library was loaded from: what a worker beside it would preload.
        .executableTarget(
            name: "bench-worker-libraries",
            dependencies: [
                .product(name: "FrozenClock", package: "FrozenClock"),
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]
        )
    ]
)
