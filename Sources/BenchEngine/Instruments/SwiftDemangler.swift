import BenchWorker
import Foundation

/// Turns Swift's mangled names readable with the toolchain's `swift-demangle --simplified`, in one
/// process for a whole run's names; C names pass unchanged.
enum SwiftDemangler {
    /// The demangler: `swift-demangle` on the `PATH` or beside `swift`; `nil` when there is none.
    static let tool: String? = {
        if let found = InstructionCounter.findExecutable("swift-demangle") { return found }
        guard let swift = InstructionCounter.findExecutable("swift") else { return nil }
        let beside =
            ((swift as NSString).resolvingSymlinksInPath as NSString).deletingLastPathComponent
            + "/swift-demangle"
        return FileManager.default.isExecutableFile(atPath: beside) ? beside : nil
    }()

    /// Whether `name` looks mangled by Swift (`$s…`, `_$s…`, and the older `_T0…`, `$S…`).
    static func isMangled(_ name: String) -> Bool {
        ["$s", "_$s", "$S", "_$S", "_T0", "$e", "_$e"].contains { name.hasPrefix($0) }
    }

    /// `names` demangled, in order (a name that is not mangled, or that the tool leaves as it is,
    /// unchanged); all unchanged, with the reason, when there is no demangler or it fails.
    static func demangle(_ names: [String]) -> (names: [String], problem: String?) {
        let mangled = Array(Set(names.filter(isMangled))).sorted()
        guard !mangled.isEmpty else { return (names, nil) }
        guard let tool else {
            return (names, "Swift names are left mangled: swift-demangle (the toolchain's) was not found")
        }
        let result: ChildProcess.Result
        do {
            result = try ChildProcess.run(
                tool, ["--simplified"], in: FileManager.default.currentDirectoryPath,
                input: Data(mangled.joined(separator: "\n").utf8 + [0x0A]), stopsOnInterrupt: false)
        } catch {
            return (names, "Swift names are left mangled: \(tool) did not start (\(error))")
        }
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard result.status == 0, lines.count >= mangled.count else {
            return (names, "Swift names are left mangled: \(tool) failed (status \(result.status))")
        }
        var readable: [String: String] = [:]
        for (offset, name) in mangled.enumerated() { readable[name] = lines[offset] }
        return (names.map { readable[$0] ?? $0 }, nil)
    }
}
