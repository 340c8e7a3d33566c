// swift-tools-version:6.0
//
// A clock frozen on demand, for the instruction-counting workers of `bench run --counter instructions`
// (see InstructionCounter in the bench package). A package of its own only so that it is a dynamic
// library product the bench executable can depend on: SwiftPM then builds `libFrozenClock.so` beside
// `bench`, where the counter finds it and preloads it into the counted worker.

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
