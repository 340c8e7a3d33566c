import BenchResults
import FeedParsers
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// One `TEST` of the catalog, as the catalog worker reports it.
package struct CatalogEntry: Codable, Sendable {
    package var id: String
    package var type: String
    package var entities: String?
    package var recommendation: String?
    package var version: String?
    package var edition: String?
    package var path: String
    /// The expected canonical form's path (the catalog's `OUTPUT`, `xml:base` applied), if any.
    package var output: String?
    package var sections: String
    package var summary: String

    /// The document or expected output this test names outside the suite in `directory`, if any.
    ///
    /// Outside: a path that climbs out with `..`, or one that symbolic links in the suite lead out of
    /// it (``leadsOut(_:inside:)``; an absolute path is read inside the suite, as the worker joins every
    /// path to it). `inside` is the suite's ``insidePrefix(_:)``.
    package func pathOutsideSuite(_ directory: String, inside: String) -> String? {
        [path, output].compactMap { $0 }.first { name in
            Self.climbsOut(name)
                || Self.leadsOut((directory as NSString).appendingPathComponent(name), inside: inside)
        }
    }

    /// What every resolved path inside the suite in `directory` starts with: its own resolved path
    /// and a slash.
    package static func insidePrefix(_ directory: String) -> String {
        let root = resolved(directory) ?? directory
        return root.hasSuffix("/") ? root : root + "/"
    }

    /// Whether `path`, in a suite whose ``insidePrefix(_:)`` is `inside`, is a file or a directory that
    /// symbolic links lead out of it.
    ///
    /// A path that names no file (yet) is judged by what does exist of it: its nearest ancestor that
    /// resolves must be inside, and no part of it may be a symbolic link that leads nowhere (the file
    /// it names could appear outside between this check and the read).
    package static func leadsOut(_ path: String, inside: String) -> Bool {
        var current = path
        while true {
            if let real = resolved(current) { return !(real + "/").hasPrefix(inside) }
            var status = stat()
            if lstat(current, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK { return true }
            let parent = (current as NSString).deletingLastPathComponent
            if parent.isEmpty || parent == current { return false }
            current = parent
        }
    }

    /// `path` with every symbolic link in it followed (`realpath(3)`); `nil` when it names no file.
    static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `path`, relative to a directory, leaves it ("a/../../b").
    package static func climbsOut(_ path: String) -> Bool {
        var depth = 0
        for component in path.split(separator: "/") {
            if component == ".." {
                depth -= 1
                if depth < 0 { return true }
            } else if component != "." {
                depth += 1
            }
        }
        return false
    }

    /// The case, when `ConformanceRunner/rules` choose this test.
    package var selected: ConformanceCase? {
        guard let expectation = selectedExpectation else { return nil }
        return ConformanceCase(id: id, expectation: expectation, path: path, sections: sections, summary: summary)
    }

    /// What a parser must do with this test, when `ConformanceRunner/rules` choose it.
    package var selectedExpectation: ConformanceCase.Expectation? {
        let expectation: ConformanceCase.Expectation
        switch type {
        case "not-wf": expectation = .notWellFormed
        case "valid": expectation = .valid
        default: return nil
        }
        guard (entities ?? "none") == "none" else { return nil }
        let xml10 = ["XML1.0", "XML1.0-errata2e", "XML1.0-errata3e", "XML1.0-errata4e"]
        guard recommendation.map(xml10.contains) ?? true, (version ?? "1.0") == "1.0" else { return nil }
        if let edition, !edition.split(separator: " ").contains("5") { return nil }
        return expectation
    }

    /// A catalog that cannot be opened or read, with where it failed.
    package struct Unreadable: Error, CustomStringConvertible, Sendable {
        package var description: String
    }

    /// Reads every `TEST` of the flattened catalog at `path` (the worker's side).
    package static func read(catalog path: String) throws -> [CatalogEntry] {
        // The catalog is flattened: it needs nothing outside it (its DOCTYPE names testcases.dtd).
        ExternalLoads.refuse()
        guard let parser = XMLParser(contentsOf: URL(fileURLWithPath: path)) else {
            throw CatalogEntry.Unreadable(description: "cannot open \(path)")
        }
        let reader = CatalogReader()
        parser.delegate = reader
        parser.shouldResolveExternalEntities = false
        guard parser.parse(), reader.depth == 0 else {
            let error = parser.parserError.map { "\($0.localizedDescription)" } ?? "the catalog ended early"
            throw CatalogEntry.Unreadable(
                description: "\(path), line \(parser.lineNumber), column \(parser.columnNumber): \(error)")
        }
        return reader.entries
    }
}

/// The delegate that reads the catalog: `xml:base` of each enclosing `TESTCASES`, each `TEST`'s
/// attributes and text.
private final class CatalogReader: NSObject, XMLParserDelegate {
    var entries: [CatalogEntry] = []
    var bases: [String] = [""]
    var depth = 0
    var current: CatalogEntry?

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        depth += 1
        let base = bases.last ?? ""
        switch name {
        case "TESTCASES", "TESTSUITE":
            let own = attributes["xml:base"] ?? ""
            bases.append(own.hasPrefix("/") ? own : base + own)
        case "TEST":
            bases.append(base)
            current = CatalogEntry(
                id: attributes["ID"] ?? "", type: attributes["TYPE"] ?? "", entities: attributes["ENTITIES"],
                recommendation: attributes["RECOMMENDATION"], version: attributes["VERSION"],
                edition: attributes["EDITION"],
                path: base + (attributes["URI"] ?? ""), output: attributes["OUTPUT"].map { base + $0 },
                sections: attributes["SECTIONS"] ?? "", summary: "")
        default:
            bases.append(base)
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        current?.summary += string
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        depth -= 1
        bases.removeLast()
        if name == "TEST", var entry = current {
            entry.summary = entry.summary.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            entries.append(entry)
            current = nil
        }
    }
}
