import BenchEngine
import Foundation
import Testing

@Suite("What every run records of its build")
struct EnvironmentProbeTests {
    /// The compiler's version, written into BenchEngine by the CompilerVersion plugin's shell command:
    /// the toolchain's own words, not its fallback. (The tests are built by the `swiftc` on `PATH`,
    /// as `swift test` runs it.)
    @Test func theCompilerVersionIsTheToolchains() throws {
        let recorded = EnvironmentProbe.swiftVersion()
        #expect(recorded.hasPrefix("Swift version "))
        #expect(recorded != "Swift version unknown")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "--version"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "swiftc --version failed")
        let line = try #require(text.split(separator: "\n").first { $0.contains("Swift version") })
        let start = try #require(line.range(of: "Swift version"))
        #expect(recorded == String(line[start.lowerBound...]))
    }
}
