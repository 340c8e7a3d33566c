// swift-tools-version:6.1
//
// An app's own feed parser, measured by the suite beside libxml2 and expat: this package depends on
// the suite (by path here; by URL and version in yours); its tool is the whole `bench` with the
// app's parsers registered, and its worker holds those parsers and the suite's workers. See README.md.
//
// `traits: []`: none of the suite's optional parts, which this parser's commands do not use (the
// embedded feed server of the download scenarios, the shared PostgreSQL store, the XMLCoder and
// SWXMLHash parsers); its first build skips them. A command that needs one says which trait brings it.

import PackageDescription

let package = Package(
    name: "app-feed-parser",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "xml-parser-bench", path: "../..", traits: [])
    ],
    targets: [
        // The app's parsers: a library both executables register.
        .target(name: "AppParsers", dependencies: [.product(name: "FeedParsers", package: "xml-parser-bench")]),
        // The tool: every `bench` command, with the app's parsers.
        .executableTarget(
            name: "app-bench",
            dependencies: [
                "AppParsers", .product(name: "BenchCLI", package: "xml-parser-bench"),
                // Built beside it (not linked into it): the worker it starts.
                "app-bench-worker",
            ]
        ),
        // Its worker: the parsers and the suite's workers alone (no store, report or argument parser).
        .executableTarget(
            name: "app-bench-worker",
            dependencies: ["AppParsers", .product(name: "BenchWorker", package: "xml-parser-bench")]
        ),
    ]
)
