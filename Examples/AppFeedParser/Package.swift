// swift-tools-version:6.1
//
// An app's own feed parser, measured by the suite beside libxml2 and expat: this package depends on
// the suite (by path here; by URL and version in yours) and its executable is the whole `bench`,
// with the app's parser registered. See README.md.
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
        .executableTarget(
            name: "app-bench",
            dependencies: [
                .product(name: "BenchCLI", package: "xml-parser-bench"),
                .product(name: "FeedParsers", package: "xml-parser-bench"),
            ]
        )
    ]
)
