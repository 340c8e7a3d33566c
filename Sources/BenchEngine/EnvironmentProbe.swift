import BenchResults
import FeedParsers
import Foundation

/// Reads the machine, build and library facts that every run records.
package enum EnvironmentProbe {
    /// "release" or "debug", from the compilation conditions of this binary.
    package static var buildConfiguration: String {
        #if DEBUG
            "debug"
        #else
            "release"
        #endif
    }

    package static var isDebugBuild: Bool { buildConfiguration == "debug" }

    /// The versions of the C libraries the parsers use, as every run records them.
    package static var libraryVersions: (libxml2: String, expat: String) {
        (LibXML2FeedParser.version, ExpatFeedParser.version)
    }

    package static func environment(runID: String, startedAt: String, commandLine: String) -> RunEnvironment {
        RunEnvironment(
            runID: runID, startedAt: startedAt, commandLine: commandLine, buildConfiguration: buildConfiguration,
            gitCommit: gitCommit(), host: host(), os: operatingSystem(), cpuModel: cpuModel(),
            cores: ProcessInfo.processInfo.activeProcessorCount, swiftVersion: swiftVersion(),
            libxml2Version: LibXML2FeedParser.version, expatVersion: ExpatFeedParser.version)
    }

    /// The machine's name in the history: `BENCH_HOST` when set (CI runners whose host names change
    /// with every job name themselves by it, so that their runs make one history), else the host name.
    package static func host() -> String {
        let named = ProcessInfo.processInfo.environment["BENCH_HOST"]?.trimmingCharacters(in: .whitespaces) ?? ""
        return named.isEmpty ? ProcessInfo.processInfo.hostName : named
    }

    /// A sortable, unique run identifier: UTC time plus four random hex digits.
    ///
    /// The environment of a run starting now, named by a new run ID, with this command line.
    package static func newRun() -> RunEnvironment {
        let started = Date()
        return environment(
            runID: newRunID(at: started), startedAt: RunEnvironment.iso8601(started),
            commandLine: CommandLine.arguments.joined(separator: " "))
    }

    package static func newRunID(at date: Date) -> String {
        RunEnvironment.runIDTimeFormatter().string(from: date) + "-"
            + String(format: "%04x", UInt16.random(in: 0...UInt16.max))
    }

    package static func gitCommit() -> String? {
        guard
            let commit = run("/usr/bin/env", ["git", "rev-parse", "HEAD"])?.trimmingCharacters(
                in: .whitespacesAndNewlines),
            commit.count == 40
        else { return nil }
        let dirty = run("/usr/bin/env", ["git", "status", "--porcelain", "--untracked-files=no"])?.isEmpty == false
        return dirty ? commit + "-dirty" : commit
    }

    /// The version of the compiler that built this binary ("Swift version 6.3.1 (swift-6.3.1-RELEASE)"),
    /// not of the `swift` on `PATH`: the first line of `swiftc --version`, recorded at build time by
    /// the package's `CompilerVersion` plugin.
    package static func swiftVersion() -> String {
        BuildCompiler.version
    }

    package static func operatingSystem() -> String {
        var name = ProcessInfo.processInfo.operatingSystemVersionString
        if let release = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8),
            let line = release.split(separator: "\n").first(where: { $0.hasPrefix("PRETTY_NAME=") })
        {
            name = line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        var uts = utsname()
        uname(&uts)
        let kernel = withUnsafeBytes(of: &uts.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let machine = withUnsafeBytes(of: &uts.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return "\(name), kernel \(kernel), \(machine)"
    }

    package static func cpuModel() -> String {
        if let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
            let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
            let colon = line.firstIndex(of: ":")
        {
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return run("/usr/sbin/sysctl", ["-n", "machdep.cpu.brand_string"])?.trimmingCharacters(
            in: .whitespacesAndNewlines) ?? "unknown"
    }

    /// Runs a command and returns its standard output, or `nil` when it fails.
    private static func run(_ executable: String, _ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
