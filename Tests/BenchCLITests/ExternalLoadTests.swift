#if canImport(Glibc)
    import BenchTestSupport
    import FeedParsers
    import ParserTestSupport
    import Foundation
    import Glibc
    import SongFeed
    import Testing

    #if canImport(FoundationXML)
        import FoundationXML
    #endif

    /// No parser of the suite opens a file or a connection that a document names (issue 41).
    ///
    /// An external DTD subset, an external parameter entity, an external general entity; `file:`,
    /// `http:` and relative identifiers alike. The files hold a marker and a default attribute;
    /// inotify on their directory sees every open or read, whoever makes it (this process or a
    /// worker); a listening socket sees every connection.
    @Suite("External loads")
    struct ExternalLoadTests {
        /// Parses the songs of `bytes` with `parser` in chunks of `chunkSize`.
        static func songs(_ parser: String, _ bytes: [UInt8], chunkSize: Int?) throws -> [Song] {
            try parserType(parser).parse(bytes, chunkSize: chunkSize)
        }

        /// The canonical form of `parser`'s events for `bytes`, pushed in chunks of `chunkSize`.
        static func canonical(_ parser: String, _ bytes: [UInt8], chunkSize: Int? = nil) throws -> String {
            let type = try #require(ParserRegistry.documentParser(named: parser))
            let sink = try DocumentSink()
            try type.walk(bytes, chunkSize: chunkSize, into: sink, recording: true)
            return String(decoding: CanonicalXML.write(sink.recordedEvents()), as: UTF8.self)
        }

        /// The parsers that report a document's events.
        static let walkers = ParserRegistry.documentParsers.filter { $0.reportsEvents }.map { $0.name }

        @Test(
            "No song parser opens what a feed names outside itself", arguments: songParsers, ExternalReference.allCases)
        func songWorkload(parser: String, reference: ExternalReference) throws {
            let outside = try Outside()
            for url in outside.urls {
                let bytes = Array(Samples.feed([reference.item], prolog: reference.prolog(root: "rss", url)).utf8)
                for chunkSize in [nil, 7] as [Int?] {
                    let label = "\(parser), \(url), chunk size \(chunkSize.map(String.init) ?? "whole")"
                    do {
                        let songs = try Self.songs(parser, bytes, chunkSize: chunkSize)
                        #expect(!songs.contains { $0.fieldValues.joined().contains(outside.marker) }, "\(label)")
                        if !reference.isNeeded { #expect(songs == [Samples.harakiri], "\(label)") }
                        #expect(!reference.failsAnyway(parser), "\(label): update KnownDeviation.noParameterEntities")
                    } catch let error as FeedParseError {
                        #expect(!error.message.contains(outside.marker), "\(label)")
                        #expect(
                            reference.isNeeded || reference.failsAnyway(parser),
                            "\(label): a declaration the feed does not use failed it: \(error)")
                    }
                }
            }
            #expect(outside.opened() == [], "\(parser) opened what the feed names")
            #expect(!outside.connected(), "\(parser) connected to the URL the feed names")
        }

        @Test(
            "No document parser opens what a document names outside itself", arguments: walkers,
            ExternalReference.allCases)
        func documentWorkload(parser: String, reference: ExternalReference) throws {
            let outside = try Outside()
            // Without its DTD, as every parser must read it when what the DTD names is not needed.
            let plain = reference.isNeeded ? nil : try Self.canonical("expat", Array(reference.body.utf8))
            for url in outside.urls {
                let bytes = Array((reference.prolog(root: "r", url) + reference.body).utf8)
                for chunkSize in [nil, 7] as [Int?] {
                    let label = "\(parser), \(url), chunk size \(chunkSize.map(String.init) ?? "whole")"
                    do {
                        let canonical = try Self.canonical(parser, bytes, chunkSize: chunkSize)
                        #expect(!canonical.contains(outside.marker), "\(label): \(canonical)")
                        if let plain { #expect(canonical == plain, "\(label)") }
                        #expect(!reference.failsAnyway(parser), "\(label): update KnownDeviation.noParameterEntities")
                    } catch let error as FeedParseError {
                        #expect(!error.message.contains(outside.marker), "\(label)")
                        #expect(
                            reference.isNeeded || reference.failsAnyway(parser),
                            "\(label): a declaration the document does not use failed it: \(error)")
                    }
                }
            }
            #expect(outside.opened() == [], "\(parser) opened what the document names")
            #expect(!outside.connected(), "\(parser) connected to the URL the document names")
        }

        @Test("Foundation's XMLParser does not put its own loader back; the C reference's is the same")
        func loaderStaysInForce() throws {
            ExternalLoads.refuse()
            #expect(ExternalLoads.areRefused)
            let parser = XMLParser(data: Data("<r/>".utf8))
            #expect(parser.parse())
            #expect(ExternalLoads.areRefused)
            _ = try parse("c-libxml2", Samples.feed([Samples.item()]))
            #expect(ExternalLoads.areRefused)
        }

        @Test(
            "expat's other passes (the document's shape, the feed's layout) open nothing",
            arguments: ExternalReference.allCases)
        func expatPasses(reference: ExternalReference) throws {
            let outside = try Outside()
            for url in outside.urls {
                let document = Array((reference.prolog(root: "r", url) + reference.body).utf8)
                let feed = Array(Samples.feed([reference.item], prolog: reference.prolog(root: "rss", url)).utf8)
                do {
                    _ = try DocumentProfiler.measure(document)
                } catch let error as FeedParseError {
                    #expect(reference.isNeeded, "\(url): \(error)")
                }
                do {
                    _ = try FeedLayout(feed)
                } catch let error as FeedParseError {
                    #expect(reference.isNeeded, "\(url): \(error)")
                }
            }
            #expect(outside.opened() == [])
            #expect(!outside.connected())
        }

        /// The documents of `references` at a `file:` and a relative identifier, beside the files they name.
        static func commandLineDocuments(_ outside: Outside, _ references: [ExternalReference]) throws -> [String] {
            var paths: [String] = []
            for reference in references {
                for (index, url) in outside.fileIdentifiers.enumerated() {
                    let name = "\(reference)-\(index).xml"
                    paths.append(try outside.directory.write(name, reference.prolog(root: "r", url) + reference.body))
                }
            }
            return paths
        }

        @Test(
            "bench verify --workload document: no parser's worker opens what the document names; all agree when it is not needed",
            arguments: ExternalReference.allCases)
        func verifyDocuments(reference: ExternalReference) throws {
            let outside = try Outside()
            let documents = try Self.commandLineDocuments(outside, [reference])
            let parsers = ParserRegistry.names.filter { !reference.failsAnyway($0) }
            outside.startWatching()
            // Run from the documents' directory: a relative identifier names the file beside them.
            let result = try runBench(
                ["verify"] + documents + [
                    "--workload", "document", "--canonical", "canonical", "--parsers", parsers.joined(separator: ","),
                ], in: outside.directory.url)
            #expect(outside.opened() == [], "\(result.standardOutput)")
            #expect(!result.standardOutput.contains(outside.marker), "\(result.standardOutput)")
            if !reference.isNeeded {
                #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            }
            let written =
                (try? FileManager.default.contentsOfDirectory(atPath: outside.directory.path("canonical"))) ?? []
            if !reference.isNeeded { #expect(written.count >= documents.count * 6) }
            for name in written {
                let text = try String(contentsOfFile: outside.directory.path("canonical/\(name)"), encoding: .utf8)
                #expect(!text.contains(outside.marker), "\(name): \(text)")
            }
        }

        @Test("bench run --document: the libxml2 parsers' workers open nothing the documents name")
        func runDocument() throws {
            let outside = try Outside()
            let documents = try Self.commandLineDocuments(outside, ExternalReference.allCases.filter { !$0.isNeeded })
            outside.startWatching()
            let result = try runBench(
                [
                    "run", "--parsers", "libxml2,c-libxml2,libxml2-dom,libxml2-reader", "--rounds", "1", "--iterations",
                    "1", "--warmup", "0", "--no-store", "--no-allocation-counts", "--format", "csv", "--output-dir",
                    outside.directory.path("out"),
                ] + documents.flatMap { ["--document", $0] }, in: outside.directory.url)
            #expect(result.status == 0, "\(result.standardError)")
            #expect(outside.opened() == [])
        }
    }

    /// How a document names something outside itself.
    enum ExternalReference: String, CaseIterable, CustomStringConvertible, Sendable {
        /// An external DTD subset whose declarations the document does not use.
        case subset
        /// An external DTD subset declaring an entity the document references.
        case subsetEntity
        /// An external parameter entity referenced in the internal subset, unused otherwise.
        case parameterEntity
        /// An external parameter entity declaring an entity the document references.
        case parameterEntityEntity
        /// An external general entity referenced in content.
        case generalEntity

        var description: String { rawValue }

        /// Whether the document uses what the outside file declares (without it, it may be an error).
        var isNeeded: Bool {
            switch self {
            case .subset, .parameterEntity: return false
            case .subsetEntity, .parameterEntityEntity, .generalEntity: return true
            }
        }

        /// The DOCTYPE declaration with root element `root` naming `url` (which ends in the file's name
        /// of ``Outside``, replaced by the one this reference names).
        func prolog(root: String, _ url: String) -> String {
            switch self {
            case .subset, .subsetEntity:
                return "\n<!DOCTYPE \(root) SYSTEM \"\(Outside.named(url, "ext.dtd"))\">"
            case .parameterEntity, .parameterEntityEntity:
                return "\n<!DOCTYPE \(root) [<!ENTITY % p SYSTEM \"\(Outside.named(url, "pe.ent"))\"> %p;]>"
            case .generalEntity:
                return "\n<!DOCTYPE \(root) [<!ENTITY ext SYSTEM \"\(Outside.named(url, "general.ent"))\">]>"
            }
        }

        /// The text that uses what the outside file declares, if this reference uses it.
        private var use: String {
            switch self {
            case .subset, .parameterEntity: return ""
            case .subsetEntity, .parameterEntityEntity: return " &leak;"
            case .generalEntity: return " &ext;"
            }
        }

        /// Whether `parser` fails the document whatever the outside file (a known deviation, not a load).
        func failsAnyway(_ parser: String) -> Bool {
            self == .parameterEntity && KnownDeviation.noParameterEntities.contains(parser)
        }

        /// A feed item whose title uses it.
        var item: String { Samples.item(title: isNeeded ? "before\(use) after" : Samples.harakiri.title) }

        /// A document's root element whose text uses it.
        var body: String { "\n<r a=\"1\">before\(use) after</r>\n" }
    }

    /// The files a document names, each holding a marker and a default attribute, in a directory
    /// watched for opens and reads (inotify), and a listening socket for `http:` identifiers.
    final class Outside {
        let directory: TemporaryDirectory
        let marker = "OUTSIDE-\(UUID().uuidString)"
        private var watch: Int32 = -1
        private let listener: Int32
        let port: UInt16

        init() throws {
            directory = try TemporaryDirectory()
            let declarations = """
                <!ATTLIST r injected CDATA "INJECTED-\(marker)">
                <!ATTLIST rss injected CDATA "INJECTED-\(marker)">
                <!ENTITY leak "\(marker)">

                """
            try directory.write("ext.dtd", declarations)
            try directory.write("pe.ent", declarations)
            try directory.write("general.ent", marker)
            (listener, port) = try Self.listen()
            startWatching()
        }

        deinit {
            if watch >= 0 { close(watch) }
            close(listener)
        }

        /// The identifiers of the files: `file:` URLs and an `http:` URL of the listening socket
        /// (whose path is the file's name).
        var urls: [String] {
            ["file://" + directory.path("ext.dtd"), "http://127.0.0.1:\(port)/ext.dtd"]
        }

        /// The `file:` URL and the relative identifier (resolved against the working directory).
        var fileIdentifiers: [String] { ["file://" + directory.path("ext.dtd"), "ext.dtd"] }

        /// `url` with its last component (`ext.dtd`) replaced by `name`.
        static func named(_ url: String, _ name: String) -> String {
            String(url.dropLast("ext.dtd".count)) + name
        }

        /// Starts (again) watching the directory: what happened before is forgotten.
        func startWatching() {
            if watch >= 0 { close(watch) }
            watch = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            if watch >= 0, inotify_add_watch(watch, directory.url.path, UInt32(IN_OPEN | IN_ACCESS)) < 0 {
                close(watch)
                watch = -1
            }
        }

        /// The names of the files opened or read since the watch began ("no watch" if there is none).
        func opened() -> [String] {
            guard watch >= 0 else { return ["no watch"] }
            var names: [String] = []
            var buffer = [UInt8](repeating: 0, count: 64 * 1_024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(watch, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                buffer.withUnsafeBytes { raw in
                    // struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of name.
                    var offset = 0
                    while offset + 16 <= count {
                        let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                        let name = raw[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                        let file = String(decoding: name, as: UTF8.self)
                        // Only the named files: the documents themselves are read by the tool.
                        if ["ext.dtd", "pe.ent", "general.ent"].contains(file), !names.contains(file) {
                            names.append(file)
                        }
                        offset += 16 + length
                    }
                }
            }
            return names
        }

        /// Whether anything connected to the listening socket (a connection waits in its backlog).
        func connected() -> Bool {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return false }
            close(client)
            return true
        }

        /// A non-blocking socket listening on 127.0.0.1, and its port.
        private static func listen() throws -> (Int32, UInt16) {
            let socket = Glibc.socket(
                AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    bind(socket, address, length) == 0 && Glibc.listen(socket, 16) == 0
                        && getsockname(socket, address, &length) == 0
                }
            }
            guard socket >= 0, bound else {
                if socket >= 0 { close(socket) }
                throw POSIXError(.EADDRNOTAVAIL)
            }
            return (socket, UInt16(bigEndian: address.sin_port))
        }
    }
#endif
