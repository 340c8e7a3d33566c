import FeedTransport
import Foundation

/// The feeds a run measures, from what it names: feed files, a generated feed, a remote feed
/// (downloaded once), the document workload's documents, or the default feed.
///
/// ```swift
/// var resolver = FeedResolver(outputDirectory: "Results")
/// resolver.songs = 3_000
/// let (feeds, remoteURLs) = try resolver.resolve()  // Data/top300.rss.xml is not added: a feed was named
/// ```
package struct FeedResolver: Sendable {
    /// Feed files named.
    package var feeds: [String] = []
    /// The songs of a generated feed to measure too (cached under `<output-dir>/feeds/`).
    package var songs: Int?
    /// The document workload's documents; `nil` for the songs workload.
    package var documents: DocumentCorpus?
    /// A remote feed to download instead of the embedded server's feeds.
    package var url: URL?
    /// Where generated and downloaded feeds are kept (under `feeds/`).
    package var outputDirectory: String
    /// Seconds the download of ``url`` may take.
    package var timeoutSeconds = RunDefaults.timeoutSeconds

    /// The feed measured when none is named (and, with no ../shared/data, by the document workload).
    package static let defaultFeed = "Data/top300.rss.xml"

    package init(outputDirectory: String) {
        self.outputDirectory = outputDirectory
    }

    /// The feeds to measure, and the URL of each downloaded one (by path).
    ///
    /// - Parameter warn: told what the default corpus leaves out (``DocumentCorpus/paths(defaultCorpus:warn:)``).
    /// - Returns: the feeds' paths (a downloaded feed's under `<output-dir>/feeds/`), and ``url`` by
    ///   the path it was downloaded to.
    /// - Throws: ``FeedResolutionError``; a download's error.
    package func resolve(warn: (String) -> Void = { _ in }) throws -> (feeds: [String], remoteURLs: [String: URL]) {
        let paths = try self.paths(warn: warn)
        guard let url else { return (paths, [:]) }
        let path = try fetchRemoteFeed(url)
        return ([path], [path: url])
    }

    /// The feeds: the documents (``DocumentCorpus``, the default corpus when no feed is named),
    /// the feeds named, a generated feed, or ``defaultFeed``.
    func paths(warn: (String) -> Void) throws -> [String] {
        var paths = try documents?.paths(defaultCorpus: feeds.isEmpty, warn: warn) ?? []
        for path in feeds {
            guard FileManager.default.fileExists(atPath: path) else { throw FeedResolutionError.feedNotFound(path) }
            paths.append(path)
        }
        if let songs { paths.append(try GeneratedFeed.path(songs: songs, outputDirectory: outputDirectory)) }
        if paths.isEmpty {
            // With no document asked and no ../shared/data, the document workload measures the feed.
            guard FileManager.default.fileExists(atPath: Self.defaultFeed) else {
                throw FeedResolutionError.defaultFeedNotFound(Self.defaultFeed)
            }
            paths.append(Self.defaultFeed)
        }
        return Self.distinct(paths, warn: warn)
    }

    /// `paths` with each feed once; the others are told which was kept.
    ///
    /// The same file by another spelling (`a/../a/feed.xml`, a link) or the same bytes at another
    /// path would be measured twice, and the two cells of a parser pooled in one table's ratios (no
    /// parser at 1.00 there).
    static func distinct(_ paths: [String], warn: (String) -> Void) -> [String] {
        var kept: [(path: String, real: String, size: Int?)] = []
        let files = FileManager.default
        for path in paths {
            let real = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
            let size = (try? files.attributesOfItem(atPath: path))?[.size] as? Int
            if let same = kept.first(where: { $0.real == real }) {
                warn("\(path) is \(same.path), the same file: measured once")
            } else if let same = kept.first(where: {
                $0.size != nil && $0.size == size && files.contentsEqual(atPath: $0.path, andPath: path)
            }) {
                warn("\(path) holds the same bytes as \(same.path): measured once")
            } else {
                kept.append((path, real, size))
            }
        }
        return kept.map(\.path)
    }

    /// Downloads a remote feed once into `<output-dir>/feeds/`, for the agreement check and its identity.
    func fetchRemoteFeed(_ url: URL) throws -> String {
        let directory = (outputDirectory as NSString).appendingPathComponent("feeds")
        let name =
            "remote-"
            + String(url.absoluteString.map { $0.isLetter || $0.isNumber || $0 == "." ? $0 : "-" }.prefix(120))
        let path = (directory as NSString).appendingPathComponent(name.hasSuffix(".xml") ? name : name + ".xml")
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let body = try FeedDownloader(timeout: timeoutSeconds).fetch(url, parser: nil, keepBody: true).body
            guard FileManager.default.createFile(atPath: path, contents: Data(body)) else {
                throw FeedResolutionError.cannotWrite(path)
            }
        } catch let error as DownloadError {
            throw FeedResolutionError.cannotDownload(url, "\(error)")
        }
        return path
    }
}
