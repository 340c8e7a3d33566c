import BenchResults
import Foundation

/// The files a run writes under its output directory: `<run-id>-summary.csv`, `-samples.csv`,
/// `-documents.csv` (a document-workload run's measured shapes), `-document-contrasts.csv` (its
/// ratios that differ between documents beyond their intervals),
/// `.json`, `.html`, and the `latest-summary.csv`, `latest.json`, `latest.html` copies; and the run
/// files read back (`bench compare`, `bench store import`).
public struct RunFiles: Sendable {
    public var directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// A run file or directory that cannot be written or read, with the path and the system's reason.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Makes the directory and checks that a file can be written in it, before anything is measured:
    /// a read-only or missing directory is an error at once, not after the run.
    public func checkWritable() throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw Failure(
                description:
                    "cannot create the output directory \(directory): \(Self.reason(error, creating: directory))")
        }
        let probe = (directory as NSString).appendingPathComponent(".bench-write-check-\(getpid())")
        defer { try? FileManager.default.removeItem(atPath: probe) }
        do {
            try Data("bench".utf8).write(to: URL(fileURLWithPath: probe))
        } catch {
            throw Failure(
                description: "cannot write in the output directory \(directory): \(Self.reason(error))")
        }
    }

    /// The copies of the newest run's files.
    public static let latestNames = ["latest-summary.csv", "latest.json", "latest.html"]

    /// Writes the run's files; returns the paths of the run's own (not the `latest` copies).
    ///
    /// The `latest` copies of an earlier run are removed first: when a file cannot be written (a
    /// full disk) none is left that names another run as the latest.
    public func write(_ result: RunResult, html: String, profiles: [CellProfile] = []) throws -> [String] {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw Failure(
                description: "cannot create the output directory \(directory): \(error.localizedDescription)")
        }
        for name in Self.latestNames where FileManager.default.fileExists(atPath: path(of: name)) {
            do {
                try FileManager.default.removeItem(atPath: path(of: name))
            } catch {
                throw Failure(description: "cannot replace \(path(of: name)): \(Self.reason(error))")
            }
        }
        let runID = result.environment.runID
        let summary = RunReport.summaryCSV(result.cells, noise: result.noise, timedSink: result.settings.timedSink)
        let json = try RunReport.json(result)
        let files =
            [
                ("\(runID)-summary.csv", summary),
                ("\(runID)-samples.csv", RunReport.samplesCSV(result.samples, runID: runID)),
                ("\(runID).json", json),
                ("\(runID).html", html),
            ]
            + (PracticeFigures.of(result.cells).isEmpty
                ? []
                : [
                    ("\(runID)-practices.csv", RunReport.practicesCSV(result.cells)),
                    ("\(runID)-practices.json", try RunReport.practicesJSON(result.cells)),
                ])
            + (result.documents.map { [("\(runID)-documents.csv", RunReport.documentsCSV($0))] } ?? [])
            + (result.betweenDocuments.map { [("\(runID)-document-contrasts.csv", RunReport.betweenDocumentsCSV($0))] }
                ?? [])
        var written: [String] = []
        for (name, text) in files {
            written.append(try write(text, to: name))
        }
        if !profiles.isEmpty {
            let archive = try ProfileArchive(runID: runID, profiles: profiles).encoded()
            written.append(try write(archive, to: ProfileArchive.fileName(runID: runID)))
        }
        _ = try write(summary, to: "latest-summary.csv")
        _ = try write(json, to: "latest.json")
        _ = try write(html, to: "latest.html")
        return written
    }

    /// The run files of a directory (`<run-id>.json`, not the `latest`, `-practices` or `-sweep`
    /// files beside them), oldest first.
    public static func runFiles(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".json") && looksLikeRunID(String($0.dropLast(5))) }.sorted()
            .map { (directory as NSString).appendingPathComponent($0) }
    }

    /// A run file read back.
    public static func read(_ path: String) throws -> RunResult {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "cannot read \(path)")
        }
        do {
            return try JSONDecoder().decode(RunResult.self, from: data)
        } catch {
            throw Failure(description: "\(path) is not a run file of `bench run` (\(error))")
        }
    }

    /// The profiles beside the run file `path` (`<run-id>-profiles.json.gz`).
    ///
    /// `bench run --counter instructions` writes them; each cell's is decoded when it is explained;
    /// `[]` when there is no such file.
    ///
    /// - Throws: ``Failure`` naming the file when it is there but is not a profile archive
    ///   (damaged, truncated).
    public static func profiles(besideRunFile path: String, runID: String) throws -> [StoredProfile] {
        let file = ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(
            ProfileArchive.fileName(runID: runID))
        guard let data = FileManager.default.contents(atPath: file) else { return [] }
        do {
            let archive = try ProfileArchive.decode(Array(data), source: file)
            return try archive.profiles.map {
                StoredProfile(
                    key: $0.key, parse: $0.parse, runID: runID, source: file, data: try ProfileArchive.encode($0))
            }
        } catch {
            throw Failure(description: "\(error)")
        }
    }

    /// The path of one of the directory's files.
    public func path(of name: String) -> String {
        (directory as NSString).appendingPathComponent(name)
    }

    /// Writes `text` to the file `name` of the directory, atomically; returns its path.
    public func write(_ text: String, to name: String) throws -> String {
        try write(Array(text.utf8), to: name)
    }

    /// Writes `bytes` to the file `name` of the directory, atomically; returns its path.
    public func write(_ bytes: [UInt8], to name: String) throws -> String {
        let path = path(of: name)
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw Failure(description: "cannot write \(path): \(Self.reason(error, writing: path))")
        }
        return path
    }

    /// The system's reason ("No space left on device"), not only Foundation's summary.
    public static func reason(_ error: any Error) -> String {
        if let cocoa = error as? CocoaError {
            switch cocoa.code {
            case .fileWriteOutOfSpace: return "No space left on device"
            case .fileWriteVolumeReadOnly: return "Read-only file system"
            case .fileWriteNoPermission: return "Permission denied"
            default: break
            }
        }
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        return nsError.localizedDescription
    }

    /// Why the file `path` could not be written: what is in its way (a directory at the path, a
    /// file among its parents, a parent that is missing), which Foundation reports only as "error
    /// 512", or else the system's reason.
    public static func reason(_ error: any Error, writing path: String) -> String {
        guard !path.isEmpty else { return "no path given" }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return "it is a directory"
        }
        let parent = (path as NSString).deletingLastPathComponent
        let directory = parent.isEmpty ? "." : parent
        if let file = fileInTheWay(of: directory) { return "\(file) is not a directory" }
        guard FileManager.default.fileExists(atPath: directory) else { return "\(directory) does not exist" }
        return reason(error)
    }

    /// Why the directory `path` could not be made: a file at the path or among its parents, or
    /// else the system's reason.
    public static func reason(_ error: any Error, creating path: String) -> String {
        guard !path.isEmpty else { return "no path given" }
        if let file = fileInTheWay(of: path) { return file == path ? "it is a file" : "\(file) is not a directory" }
        return reason(error)
    }

    /// The nearest of `path` and its parents that exists, when it is not a directory.
    private static func fileInTheWay(of path: String) -> String? {
        var candidate = path
        var isDirectory: ObjCBool = false
        while !FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory) {
            let parent = (candidate as NSString).deletingLastPathComponent
            guard !parent.isEmpty, parent != candidate else { return nil }
            candidate = parent
        }
        return isDirectory.boolValue ? nil : candidate
    }

    /// "20261122T033512Z-4f1c": what `bench run` names its runs (a time, a dash, a suffix without
    /// dashes: "<run-id>-sweep" and "<run-id>-practices" are not runs).
    public static func looksLikeRunID(_ text: String) -> Bool {
        text.range(of: #"^\d{8}T\d{6}Z-[0-9A-Za-z]+$"#, options: .regularExpression) != nil
    }
}
