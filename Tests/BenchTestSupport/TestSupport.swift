import Foundation
import SongFeed

/// Where things are when the tests run: the package, the built `bench`, `../shared/data`.
public enum TestPaths {
    /// The package's root directory (this file is `Tests/BenchTestSupport/TestSupport.swift`).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The committed 300-song feed.
    public static var top300: String { packageRoot.appendingPathComponent("Data/top300.rss.xml").path }

    /// `../shared/data` beside the package (or `BENCH_SHARED_DATA`), when it is there.
    public static var sharedData: URL? {
        let candidate =
            ProcessInfo.processInfo.environment["BENCH_SHARED_DATA"].map { URL(fileURLWithPath: $0) }
            ?? packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
        return FileManager.default.fileExists(atPath: candidate.path) ? candidate : nil
    }

    /// Whether `../shared/data` is there; tests that need it are skipped with this message otherwise.
    public static var hasSharedData: Bool { sharedData != nil }
    public static let sharedDataMissing = "needs ../shared/data beside the package (absent in a lone clone)"

    /// The real 100-item iTunes feed of 2012 in `../shared/data`, when it is there.
    public static var realITunesFeed: String? {
        sharedData?.appendingPathComponent("itunes/newreleases-100-2012-05-15.rss.xml").path
    }

    /// The real iTunes Atom feed of 2013 (10 album entries), when `../shared/data` is there.
    public static var realITunesAtomFeed: String? {
        sharedData?.appendingPathComponent("itunes/topalbums-10-2013-06-25.atom.xml").path
    }

    /// The `bench` executable built beside the test bundle.
    public static var benchExecutable: String {
        var directory = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").deletingLastPathComponent()
        #if os(Linux)
            if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                directory = URL(fileURLWithPath: exe).deletingLastPathComponent()
            }
        #endif
        // On macOS the test binary sits inside a .xctest bundle.
        for candidate in [
            directory, directory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent(),
        ] {
            let path = candidate.appendingPathComponent("bench").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return directory.appendingPathComponent("bench").path
    }

    /// The suite's worker executable, `bench-worker`, built beside `bench`: what the engine's
    /// functions start (`WorkerProcess.workerExecutable()`).
    public static var workerExecutable: String {
        ((benchExecutable as NSString).deletingLastPathComponent as NSString).appendingPathComponent("bench-worker")
    }
}

/// A temporary directory, removed when the value is released.
public final class TemporaryDirectory: @unchecked Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("bench-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `bytes` to a file of this directory and returns its path.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = url.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        try write(name, Array(text.utf8))
    }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// The result of running a command.
public struct CommandResult: Sendable {
    public var status: Int32
    public var standardOutput: String
    public var standardError: String

    public init(status: Int32, standardOutput: String, standardError: String) {
        self.status = status
        self.standardOutput = standardOutput
        self.standardError = standardError
    }
}

/// Runs the built `bench` with `arguments` in `directory` (default: the package root), with
/// `environment` added to this process's.
public func runBench(
    _ arguments: [String], in directory: URL = TestPaths.packageRoot, environment: [String: String] = [:]
) throws -> CommandResult {
    try runProgram(TestPaths.benchExecutable, arguments, in: directory, environment: environment)
}

/// Runs `executable` with `arguments` in `directory` and collects its output.
public func runProgram(
    _ executable: String, _ arguments: [String], in directory: URL = TestPaths.packageRoot,
    environment: [String: String] = [:]
) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    // Read both pipes before waiting, so that a full pipe cannot block the child.
    let group = DispatchGroup()
    nonisolated(unsafe) var errorData = Data()
    group.enter()
    DispatchQueue.global().async {
        errorData = error.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return CommandResult(
        status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
        standardError: String(decoding: errorData, as: UTF8.self))
}

/// Small documents shared by the parser tests.
public enum Samples {
    /// The itms namespace URI.
    public static let itms = "http://phobos.apple.com/rss/1.0/modules/itms/"

    /// A feed with the given `item` bodies, the itms namespace bound to `prefix`.
    public static func feed(_ items: [String], prefix: String = "itms", prolog: String = "") -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\(prolog)\n<rss version=\"2.0\" xmlns:\(prefix)=\"\(itms)\">\n<channel>\n<title>Channel title, not a song</title>\n"
            + items.map { "<item>\n\($0)\n</item>\n" }.joined() + "</channel>\n</rss>\n"
    }

    /// One item with every song field, the itms elements written with `prefix`.
    public static func item(
        title: String = "Harakiri - Serj Tankian", category: String = "Rock", artist: String = "Serj Tankian",
        album: String = "Harakiri", date: String = "July 10, 2012", prefix: String = "itms"
    ) -> String {
        """
        <title>\(title)</title>
        <link>http://itunes.apple.com/album/id1?uo=1&amp;v0=9988</link>
        <category domain="http://itunes.apple.com/genre/music-rock/id21?uo=1&amp;v0=9988">\(category)</category>
        <\(prefix):artist>\(artist)</\(prefix):artist>
        <\(prefix):album>\(album)</\(prefix):album>
        <\(prefix):coverArt height="53" width="53">http://a1.mzstatic.com/x.53x53-50.jpg</\(prefix):coverArt>
        <\(prefix):releasedate>\(date)</\(prefix):releasedate>
        """
    }

    /// The song of ``item(title:category:artist:album:date:prefix:)`` with its defaults.
    public static let harakiri = Song(
        title: "Harakiri - Serj Tankian", category: "Rock", artist: "Serj Tankian", album: "Harakiri",
        releaseDate: SongDate(year: 2012, month: 7, day: 10))

    /// A billion-laughs document (10^9 expansions of "lol" if nothing stops it), the entity used in
    /// a song field and, optionally, in an element that is not one.
    public static func billionLaughs(inTitle: Bool = true) -> String {
        var dtd = "<!ENTITY lol \"lol\">"
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            dtd += "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
        }
        let body = inTitle ? "<title>&lol9;</title>" : "<description>&lol9;</description>"
        return "<?xml version=\"1.0\"?>\n<!DOCTYPE rss [\(dtd)]>\n<rss><channel><item>\(body)</item></channel></rss>\n"
    }
}

/// `bench serve --network loopback Data/top300.rss.xml` running until this value is freed, and the
/// URL it prints.
public final class ServedFeed {
    public let process = Process()
    /// The feed's URL ("" when the server printed none).
    public let url: String
    public var port: UInt16 { URL(string: url)?.port.flatMap { UInt16(exactly: $0) } ?? 0 }

    public init() throws {
        process.executableURL = URL(fileURLWithPath: TestPaths.benchExecutable)
        process.arguments = ["serve", "--network", "loopback", "Data/top300.rss.xml"]
        process.currentDirectoryURL = TestPaths.packageRoot
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        while !text.contains(".xml\n") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        url =
            text.split(separator: "\n").first { $0.contains("http://127.0.0.1:") }?.trimmingCharacters(in: .whitespaces)
            ?? ""
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }

    /// The server's resident memory, bytes (/proc).
    public var residentBytes: Int {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "") ?? 0) * 1024
    }
}

/// `text` with every run of whitespace made one space: a message as words, wherever the tool broke
/// its lines at the terminal's width (its errors, help and notes are wrapped).
public func words(_ text: String) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
}

/// The rows of a table in `text` as words: a line and the lines under it indented at least 4 deeper
/// than it (a last column broken at the terminal's width continues under itself; a table's rows are
/// 2 deeper than its heading) make one row, its whitespace one space, its indent dropped.
public func rows(_ text: String) -> [String] {
    var rows: [(indent: Int, text: String)] = []
    for line in text.split(separator: "\n") {
        let indent = line.prefix { $0 == " " }.count
        if let last = rows.last, indent >= last.indent + 4 {
            rows[rows.count - 1].text += " " + words(String(line))
        } else {
            rows.append((indent, words(String(line))))
        }
    }
    return rows.map(\.text)
}

/// The entries of `text` as words: a line and the indented lines under it (the tool's way of
/// continuing a line it broke at the terminal's width) make one entry, its whitespace one space.
public func entries(_ text: String) -> [String] {
    var entries: [String] = []
    for line in text.split(separator: "\n") {
        if line.first?.isWhitespace == true, let last = entries.popLast() {
            entries.append(last + " " + words(String(line)))
        } else {
            entries.append(words(String(line)))
        }
    }
    return entries
}
