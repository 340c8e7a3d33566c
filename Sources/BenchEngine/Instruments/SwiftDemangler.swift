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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["--simplified"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return (names, "Swift names are left mangled: \(tool) did not start (\(error.localizedDescription))")
        }
        // Written on a thread of its own: the tool writes as it reads, and a full output pipe would
        // stop it while this thread still writes.
        let text = Data(mangled.joined(separator: "\n").utf8 + [0x0A])
        let writer = Thread {
            input.fileHandleForWriting.write(text)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        guard process.terminationStatus == 0, lines.count >= mangled.count else {
            return (names, "Swift names are left mangled: \(tool) failed (status \(process.terminationStatus))")
        }
        var readable: [String: String] = [:]
        for (offset, name) in mangled.enumerated() { readable[name] = lines[offset] }
        return (names.map { readable[$0] ?? $0 }, nil)
    }
}
