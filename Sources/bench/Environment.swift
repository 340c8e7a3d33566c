import BenchEngine
import BenchResults
import FeedParsers
import Foundation

/// Reads the machine, build and library facts that every run records.
enum EnvironmentProbe {
    /// "release" or "debug", from the compilation conditions of this binary.
    static var buildConfiguration: String {
        #if DEBUG
            "debug"
        #else
            "release"
        #endif
    }

    static var isDebugBuild: Bool { buildConfiguration == "debug" }

    static func environment(runID: String, startedAt: String, commandLine: String) -> RunEnvironment {
        RunEnvironment(
            runID: runID, startedAt: startedAt, commandLine: commandLine, buildConfiguration: buildConfiguration,
            gitCommit: gitCommit(), host: host(), os: operatingSystem(), cpuModel: cpuModel(),
            cores: ProcessInfo.processInfo.activeProcessorCount, swiftVersion: swiftVersion(),
            libxml2Version: LibXML2FeedParser.version, expatVersion: ExpatFeedParser.version)
    }

    /// The machine's name in the history: `BENCH_HOST` when set (CI runners whose host names change
    /// with every job name themselves by it, so that their runs make one history), else the host name.
    static func host() -> String {
        let named = ProcessInfo.processInfo.environment["BENCH_HOST"]?.trimmingCharacters(in: .whitespaces) ?? ""
        return named.isEmpty ? ProcessInfo.processInfo.hostName : named
    }

    /// A sortable, unique run identifier: UTC time plus four random hex digits.
    ///
    /// The environment of a run starting now, named by a new run ID, with this command line.
    static func newRun() -> RunEnvironment {
        let started = Date()
        return environment(
            runID: newRunID(at: started), startedAt: BenchSession.iso8601(started),
            commandLine: CommandLine.arguments.joined(separator: " "))
    }

    static func newRunID(at date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date) + "-" + String(format: "%04x", UInt16.random(in: 0...UInt16.max))
    }

    static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    static func gitCommit() -> String? {
        guard
            let commit = run("/usr/bin/env", ["git", "rev-parse", "HEAD"])?.trimmingCharacters(
                in: .whitespacesAndNewlines),
            commit.count == 40
        else { return nil }
        let dirty = run("/usr/bin/env", ["git", "status", "--porcelain", "--untracked-files=no"])?.isEmpty == false
        return dirty ? commit + "-dirty" : commit
    }

    /// The version of the compiler that built this binary ("Swift version 6.3.1"), not of the `swift`
    /// on `PATH`: read at compile time, to the patch release.
    static func swiftVersion() -> String {
        #if compiler(>=6.5)
            return "Swift version 6.5 or later"
        #elseif compiler(>=6.4.5)
            return "Swift version 6.4.5"
        #elseif compiler(>=6.4.4)
            return "Swift version 6.4.4"
        #elseif compiler(>=6.4.3)
            return "Swift version 6.4.3"
        #elseif compiler(>=6.4.2)
            return "Swift version 6.4.2"
        #elseif compiler(>=6.4.1)
            return "Swift version 6.4.1"
        #elseif compiler(>=6.4)
            return "Swift version 6.4"
        #elseif compiler(>=6.3.5)
            return "Swift version 6.3.5"
        #elseif compiler(>=6.3.4)
            return "Swift version 6.3.4"
        #elseif compiler(>=6.3.3)
            return "Swift version 6.3.3"
        #elseif compiler(>=6.3.2)
            return "Swift version 6.3.2"
        #elseif compiler(>=6.3.1)
            return "Swift version 6.3.1"
        #elseif compiler(>=6.3)
            return "Swift version 6.3"
        #elseif compiler(>=6.2.5)
            return "Swift version 6.2.5"
        #elseif compiler(>=6.2.4)
            return "Swift version 6.2.4"
        #elseif compiler(>=6.2.3)
            return "Swift version 6.2.3"
        #elseif compiler(>=6.2.2)
            return "Swift version 6.2.2"
        #elseif compiler(>=6.2.1)
            return "Swift version 6.2.1"
        #elseif compiler(>=6.2)
            return "Swift version 6.2"
        #elseif compiler(>=6.1.5)
            return "Swift version 6.1.5"
        #elseif compiler(>=6.1.4)
            return "Swift version 6.1.4"
        #elseif compiler(>=6.1.3)
            return "Swift version 6.1.3"
        #elseif compiler(>=6.1.2)
            return "Swift version 6.1.2"
        #elseif compiler(>=6.1.1)
            return "Swift version 6.1.1"
        #elseif compiler(>=6.1)
            return "Swift version 6.1"
        #elseif compiler(>=6.0.5)
            return "Swift version 6.0.5"
        #elseif compiler(>=6.0.4)
            return "Swift version 6.0.4"
        #elseif compiler(>=6.0.3)
            return "Swift version 6.0.3"
        #elseif compiler(>=6.0.2)
            return "Swift version 6.0.2"
        #elseif compiler(>=6.0.1)
            return "Swift version 6.0.1"
        #elseif compiler(>=6.0)
            return "Swift version 6.0"
        #elseif compiler(>=5.10.5)
            return "Swift version 5.10.5"
        #elseif compiler(>=5.10.4)
            return "Swift version 5.10.4"
        #elseif compiler(>=5.10.3)
            return "Swift version 5.10.3"
        #elseif compiler(>=5.10.2)
            return "Swift version 5.10.2"
        #elseif compiler(>=5.10.1)
            return "Swift version 5.10.1"
        #elseif compiler(>=5.10)
            return "Swift version 5.10"
        #elseif compiler(>=5.9.5)
            return "Swift version 5.9.5"
        #elseif compiler(>=5.9.4)
            return "Swift version 5.9.4"
        #elseif compiler(>=5.9.3)
            return "Swift version 5.9.3"
        #elseif compiler(>=5.9.2)
            return "Swift version 5.9.2"
        #elseif compiler(>=5.9.1)
            return "Swift version 5.9.1"
        #elseif compiler(>=5.9)
            return "Swift version 5.9"
        #else
            return "Swift version before 5.9"
        #endif
    }

    static func operatingSystem() -> String {
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

    static func cpuModel() -> String {
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
