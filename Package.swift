// swift-tools-version:6.1
//
// The XML parser benchmark suite: which parser should a Swift app use to load an XML feed?
// See README.md for the two commands, and ../shared/DESIGN.md (beside a checkout) for the design.

import PackageDescription

import class Foundation.ProcessInfo

let package = Package(
    name: "xml-parser-bench",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "bench", targets: ["bench"]),
        // For a package that measures its own parsers beside the built-in ones: its tool's `main` is
        // `BenchTool.main(parsers: [...], worker: "NAME")` (BenchCLI's DocC article "Measuring your own parser").
        .library(name: "BenchCLI", targets: ["BenchCLI"]),
        // Its worker executable's one call, `WorkerTool.main(parsers: [...])`, with the same parsers:
        // the workers and the instruments alone, no store, report, argument parser or feed server.
        .library(name: "BenchWorker", targets: ["BenchWorker"]),
        // Its network worker's: `NetworkWorkerTool.main(parsers: [...])`.
        .library(name: "BenchNetworkWorker", targets: ["BenchNetworkWorker"]),
        // The parser protocols an adapter conforms to, and the songs it builds.
        .library(name: "FeedParsers", targets: ["FeedParsers", "SongFeed"]),
        // `swift package fuzz-parser --target TARGET`: a package's own parser under libFuzzer
        // (BenchCLI's DocC article "Measuring your own parser", "Fuzzing it").
        .plugin(name: "FuzzParser", targets: ["FuzzParser"]),
    ],
    // The optional parts, all on by default (the suite's own `swift run -c release bench` and
    // `swift test` build them): a package that depends on the suite leaves out what it does not use
    // with `traits: []` (or names the ones it keeps), and its first build skips their dependencies.
    // A command that needs a part left out says which trait brings it (`SuiteTrait`).
    traits: [
        .trait(
            name: "FeedServer",
            description:
                "The embedded feed server (FeedServing, SwiftNIO): the download scenarios and `bench serve`."),
        .trait(
            name: "SharedStore",
            description: "The shared PostgreSQL stats store (`--store postgres://…`, libpq)."),
        .trait(
            name: "CodableParsers",
            description: "The `xmlcoder` and `swxmlhash` parsers (XMLCoder, SWXMLHash)."),
        .default(enabledTraits: ["FeedServer", "SharedStore", "CodableParsers"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        // Two of the parsers measured (`xmlcoder`, `swxmlhash`): the Codable decoder and the tree
        // with lookups that Swift apps pick most, both over Foundation's XMLParser.
        .package(url: "https://github.com/CoreOffice/XMLCoder.git", exact: "0.18.2"),
        .package(url: "https://github.com/drmohundro/SWXMLHash.git", exact: "8.1.1"),
        // The allocation interposer that the counting workers preload and no process links: the
        // WorkerLibraries plugin compiles its C source into libMallocInterposerSwift.so (see
        // BenchWorkerLibraries).
        .package(url: "https://github.com/ordo-one/malloc-interposer.git", from: "1.6.1"),
    ],
    targets: [
        // MARK: System-library shims (each imported by one module: FeedParsers, SongFeed, FeedServing, StatsStore)
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .systemLibrary(
            name: "CExpat",
            pkgConfig: "expat",
            providers: [.apt(["libexpat1-dev"]), .brew(["expat"])]
        ),
        // OpenSSL's libcrypto: SHA-256, the digests of songs, feeds and stored runs (SongFeed's
        // SHA256Digest); the system's: swift-crypto built BoringSSL from source, 150 s of CPU in a debug
        // build alone (2026-11-26, this 2-core machine), again in release and for fuzzing.
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        // The system's zlib: the feed server's gzip bodies (`bench run --scenario gzip`, in
        // FeedServing) and the kept profiles' compression (BenchResults' `Gzip`). (swift-nio-extras' response compressor did this with a zlib of
        // its own, and brought twelve packages that every build resolved and checked out, none of
        // them built: swift-crypto, swift-nio-ssl, swift-nio-http2, …, 140 MB.)
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // PostgreSQL's client library: the shared stats store (`--store postgres://…`); only
        // StatsStore imports it.
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),

        // The same extraction as the libxml2 and expat adapters, in plain C (the `c-libxml2` and
        // `c-expat` reference parsers); only FeedParsers imports it.
        .target(name: "CReferenceParsers", dependencies: ["CLibXML2", "CExpat"]),

        // Client requests to valgrind's callgrind (instrument the counted worker from its first parse, not
        // its start-up); only BenchEngine imports it. Built without valgrind's header, its requests do
        // nothing and the counter instruments the whole worker.
        .target(name: "CCallgrind"),

        // MARK: Libraries, one concern each
        .target(
            name: "SongFeed",
            dependencies: ["CLibCrypto"]
        ),
        .target(
            name: "FeedParsers",
            dependencies: [
                "SongFeed", "CLibXML2", "CExpat", "CReferenceParsers",
                .product(name: "XMLCoder", package: "XMLCoder", condition: .when(traits: ["CodableParsers"])),
                .product(name: "SWXMLHash", package: "SWXMLHash", condition: .when(traits: ["CodableParsers"])),
            ]
        ),
        .target(name: "BenchResults", dependencies: ["CZlib"]),
        // What runs inside a worker process: the job contract, the workers, the instruments. No
        // store of runs, no report, no argument parser, no feed server: the worker executable
        // (`bench-worker`, or an outside package's own) holds this and the parsers alone.
        .target(
            name: "BenchWorker", dependencies: ["FeedParsers", "SongFeed", "BenchResults", "SongStore", "CCallgrind"]),
        // The network worker's fetches (URLSession, FeedTransport): apart, so that a worker that
        // parses from memory loads none of FoundationNetworking's libraries.
        .target(
            name: "BenchNetworkWorker",
            dependencies: ["BenchWorker", "FeedTransport", "FeedParsers", "SongFeed", "BenchResults"]),
        // The driver: a run's request, plan, sessions, verification and assessment; it starts
        // workers and never runs a job itself.
        .target(
            name: "BenchEngine",
            dependencies: [
                "BenchWorker", "FeedParsers", "SongFeed", "BenchResults", "FeedTransport", "SongStore", "CCallgrind",
            ],
            // The compiler's version, recorded with every run (EnvironmentProbe.swiftVersion()).
            plugins: ["CompilerVersion"]
        ),
        .plugin(name: "CompilerVersion", capability: .buildTool()),
        // The clients and what they share with a server; no SwiftNIO, so that BenchEngine, which
        // imports it, compiles beside SwiftNIO rather than after it.
        .target(name: "FeedTransport", dependencies: ["FeedParsers", "SongFeed", "BenchResults"]),
        // The embedded feed server (SwiftNIO): the CLI starts it for a run (`RunPlan.feedHost`).
        .target(
            name: "FeedServing",
            dependencies: [
                "FeedTransport", "FeedParsers", "BenchResults",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .target(
            name: "StatsStore",
            dependencies: [
                "BenchResults", .target(name: "CLibPQ", condition: .when(traits: ["SharedStore"])),
                .product(name: "GRDB", package: "GRDB.swift"),
                // GRDB's shim of the system SQLite: a report's rows read by column, as SQLite gives them.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                // SHA-256 of a stored run's content (a re-push recognises a run without reading it).
                "SongFeed",
            ]
        ),
        .target(name: "BenchReports", dependencies: ["BenchResults"]),
        // The songs written to an app's SQLite table (the `store` practice), through GRDB.
        .target(
            name: "SongStore",
            dependencies: [
                "SongFeed", .product(name: "GRDB", package: "GRDB.swift"),
                // GRDB's own shim of the system SQLite, for the page cache's counters (sqlite3_db_status).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),

        // MARK: The command-line tool: every command, as a library (a package with parsers of its own
        // runs it from its own executable), and the `bench` executable, its main alone.
        .target(
            name: "BenchCLI",
            dependencies: [
                // FeedParsers, SongFeed and FeedTransport for the names its options take (the parser
                // registry, `BenchTool.main(parsers:)`'s parser types, the feed generator, a network
                // profile). The feed server is FeedServing's: the CLI gives it to the engine's runs, and
                // serves it (`bench serve`).
                "BenchEngine", "BenchWorker", "BenchResults", "StatsStore", "BenchReports", "FeedTransport",
                "FeedParsers", "SongFeed",
                .target(name: "FeedServing", condition: .when(traits: ["FeedServer"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // Its resources are the two libraries: beside every executable that depends on BenchCLI.
                "BenchWorkerLibraries",
            ]
        ),
        // What only the counting workers preload, and no process links (WorkerLibrary): the
        // WorkerLibraries plugin compiles libFrozenClock.so (`time()` frozen for instruction counts:
        // libxml2 seeds its hashes from it; FrozenClock/) and libMallocInterposerSwift.so (the
        // allocation interposer's C source) as this target's resources, which SwiftPM copies into
        // `<package>_BenchWorkerLibraries.resources/` beside every executable that depends on it, for
        // the suite's `bench` and for an outside package's executable alike.
        .target(
            name: "BenchWorkerLibraries",
            dependencies: [
                // Named so that SwiftPM resolves the interposer's package for a package that depends on
                // the suite too (it leaves out the packages no used target names, whatever the
                // condition), where the plugin finds its source; under a condition that no build of
                // the suite meets (it does not build for WASI), so that nothing links it.
                .product(
                    name: "MallocInterposerSwift", package: "malloc-interposer", condition: .when(platforms: [.wasi]))
            ],
            exclude: ["FrozenClock"], plugins: ["WorkerLibraries"]),
        .plugin(name: "WorkerLibraries", capability: .buildTool()),
        // `swift package fuzz-parser`: builds a package's parser target and its fuzz target under
        // libFuzzer and runs it (scripts/fuzz-common.sh, shared with scripts/fuzz.sh).
        .plugin(
            name: "FuzzParser",
            capability: .command(
                intent: .custom(verb: "fuzz-parser", description: "Fuzz a package's own parser with libFuzzer."),
                permissions: [
                    .writeToPackageDirectory(
                        reason: "The instrumented build, the corpus and the findings go to .build-fuzz/.")
                ])
        ),
        // `bench`, and the worker it starts (built beside it, not linked into it).
        .executableTarget(name: "bench", dependencies: ["BenchCLI", "bench-worker", "bench-network-worker"]),
        .executableTarget(name: "bench-worker", dependencies: ["BenchWorker", "BenchWorkerLibraries"]),
        .executableTarget(
            name: "bench-network-worker", dependencies: ["BenchWorker", "BenchNetworkWorker", "BenchWorkerLibraries"]),

        // MARK: Tests, one target per module plus end-to-end tests of the built tool
        .target(
            name: "BenchTestSupport",
            dependencies: ["SongFeed", "BenchResults"],
            path: "Tests/BenchTestSupport"
        ),
        // What the parsers' tests know of them (their lists, known deviations, malformed documents),
        // for FeedParsersTests and the tests that run the parsers in workers.
        .target(
            name: "ParserTestSupport",
            dependencies: ["FeedParsers", "SongFeed", "BenchTestSupport"],
            path: "Tests/ParserTestSupport"
        ),
        .testTarget(name: "SongFeedTests", dependencies: ["SongFeed", "BenchTestSupport"]),
        .testTarget(
            name: "FeedParsersTests",
            dependencies: ["FeedParsers", "SongFeed", "BenchTestSupport", "ParserTestSupport"]),
        .testTarget(
            name: "BenchEngineTests",
            // The worker executables the engine starts (not `bench`, which is above it).
            dependencies: [
                "BenchEngine", "BenchWorker", "FeedParsers",
                .target(name: "FeedServing", condition: .when(traits: ["FeedServer"])),
                "SongFeed", "SongStore", "BenchTestSupport", "ParserTestSupport", "bench-worker",
                "bench-network-worker",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(name: "BenchResultsTests", dependencies: ["BenchResults", "BenchTestSupport"]),
        .testTarget(
            name: "FeedTransportTests",
            dependencies: [
                "FeedTransport", .target(name: "FeedServing", condition: .when(traits: ["FeedServer"])), "FeedParsers",
                "SongFeed", "BenchTestSupport",
            ]
        ),
        .testTarget(
            name: "StatsStoreTests",
            dependencies: [
                "StatsStore", "BenchResults", "BenchTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "BenchReportsTests", dependencies: ["BenchReports", "BenchResults", "BenchTestSupport"],
            // The golden files are read from the source tree (#filePath), not bundled.
            exclude: ["Golden"]),
        .testTarget(
            name: "SongStoreTests",
            dependencies: ["SongStore", "SongFeed", "BenchTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "BenchCLITests",
            dependencies: [
                "bench", "BenchCLI", "BenchEngine", "BenchWorker", "SongFeed", "BenchTestSupport", "ParserTestSupport",
                "StatsStore",
                "BenchResults",
                "FeedParsers",
                "SongStore", "BenchReports",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ]
)

// `BENCH_DOCC=1 swift package generate-documentation`: the DocC catalogs beside each library module
// (.ci/run builds them and fails on a warning). Added only when asked: used by that command alone and
// never linked, it made every build compile its two plugins first (3 s on 2 cores, before any
// target), and every package that depends on the suite fetch it and swift-docc-symbolkit.
if ProcessInfo.processInfo.environment["BENCH_DOCC"] == "1" {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"))
}
