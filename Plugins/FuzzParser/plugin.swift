import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory fuzz-parser --target TARGET [--seconds N]`:
/// a package's own parser under libFuzzer, in one command (Linux, the toolchain's libFuzzer).
///
/// The package depends on the suite (by path or by URL: the suite's sources are found in the
/// package graph, wherever SwiftPM put them). The command builds the suite's `FeedParsers`
/// instrumented (`-sanitize=fuzzer`) into the package's `.build-fuzz/`, links the package's fuzz
/// target (every Swift file of `Fuzz/`, or `--fuzzer FILE`) with TARGET's Swift files (its
/// `main.swift` left out: libFuzzer brings its own `main`), and runs it for `--seconds` (default 60)
/// over the suite's `Data/` as seeds. Findings go to `.build-fuzz/findings/`; the exit status is 1
/// when there are any. The work is the suite's `scripts/fuzz-parser.sh`, which shares its build,
/// link and run with `scripts/fuzz.sh` (`scripts/fuzz-common.sh`).
@main
struct FuzzParser: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let seconds = extractor.extractOption(named: "seconds").last ?? "60"
        let fuzzers = extractor.extractOption(named: "fuzzer")
        guard extractor.remainingArguments.isEmpty else {
            throw FuzzParserError("unexpected arguments: \(extractor.remainingArguments.joined(separator: " "))")
        }
        guard targetNames.count == 1, let targetName = targetNames.first else {
            throw FuzzParserError("name the parser's target: --target TARGET (the one that holds its adapter)")
        }
        guard let target = try context.package.targets(named: [targetName]).first as? SourceModuleTarget else {
            throw FuzzParserError("\(targetName) is not a target of \(context.package.displayName) with sources")
        }
        guard let suite = Self.suite(in: context.package) else {
            throw FuzzParserError(
                "\(context.package.displayName) does not depend on the suite (no package with the FeedParsers target)")
        }
        let sources = target.sourceFiles(withSuffix: "swift").map(\.url).filter { $0.lastPathComponent != "main.swift" }
        let package = context.package.directoryURL
        let fuzzerFiles: [URL]
        if fuzzers.isEmpty {
            let directory = package.appending(path: "Fuzz")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path())) ?? []
            fuzzerFiles = names.filter { $0.hasSuffix(".swift") }.sorted().map { directory.appending(path: $0) }
        } else {
            fuzzerFiles = fuzzers.map { URL(fileURLWithPath: $0, relativeTo: package).absoluteURL }
        }
        guard !fuzzerFiles.isEmpty else {
            throw FuzzParserError(
                "no fuzz target: put one in Fuzz/ (see the suite's Examples/AppFeedParser/Fuzz), or --fuzzer FILE")
        }
        let script = suite.directoryURL.appending(path: "scripts/fuzz-parser.sh")
        var command = [
            script.path(), "--suite", suite.directoryURL.path(), "--package", package.path(), "--seconds", seconds,
            "--name", targetName,
        ]
        command += fuzzerFiles.flatMap { ["--fuzzer", $0.path()] } + sources.map(\.path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = command
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FuzzParserError("scripts/fuzz-parser.sh exited with status \(process.terminationStatus)")
        }
    }

    /// The suite in `package`'s graph: the package that has the FeedParsers and BenchCLI targets.
    static func suite(in package: Package) -> Package? {
        var seen: Set<String> = []
        var queue = [package]
        while let next = queue.first {
            queue.removeFirst()
            guard seen.insert(next.id).inserted else { continue }
            let names = Set(next.targets.map(\.name))
            if names.contains("FeedParsers") && names.contains("BenchCLI") { return next }
            queue += next.dependencies.map(\.package)
        }
        return nil
    }
}

/// Why the command cannot fuzz.
struct FuzzParserError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
