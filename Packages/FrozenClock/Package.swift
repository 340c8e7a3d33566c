// swift-tools-version:6.0
//
// A clock frozen on demand, for the instruction-counting workers of `bench run --counter instructions`
// (see InstructionCounter in the bench package). A package of its own only so that it is a dynamic
// library product: `bench-worker-libraries` (Packages/WorkerLibraries) links it, so that SwiftPM
// builds `libFrozenClock.so` beside `bench`, where the counter finds it and preloads it into the
// counted worker; `bench` itself does not link it.

import PackageDescription

let package = Package(
    name: "FrozenClock",
    products: [
        .library(name: "FrozenClock", type: .dynamic, targets: ["FrozenClock"])
    ],
    targets: [
        .target(name: "FrozenClock")
    ]
)
