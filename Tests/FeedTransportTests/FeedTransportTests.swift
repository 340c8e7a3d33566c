// The embedded feed server's tests: in a build with the suite's trait FeedServer.
#if FeedServer
    import BenchTestSupport
    import FeedParsers
    import FeedServing
    import FeedTransport
    import Foundation
    import SongFeed
    import Testing

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    @Suite("Feed server and downloader", .serialized)
    struct FeedTransportTests {
        static var feedBytes: [UInt8] { (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: TestPaths.top300)))) ?? [] }

        @discardableResult
        func withServer<T>(
            _ profile: NetworkProfile = .loopback, feeds: [String] = [TestPaths.top300],
            _ body: (FeedServer) throws -> T
        ) throws -> T {
            let server = try FeedServer.start(feeds: feeds, profile: profile)
            defer { try? server.stop() }
            return try body(server)
        }

        @Test func servesTheFileByteForByteWithValidators() throws {
            try withServer { server in
                let result = try FeedDownloader(timeout: 10).fetch(
                    server.url(for: "top300.rss.xml"), parser: nil, keepBody: true)
                #expect(result.body == Self.feedBytes)
                #expect(result.measurement.status == 200)
                #expect(result.measurement.bytes == 901_440)
                #expect(result.measurement.etag?.hasPrefix("\"") == true)
                #expect(result.measurement.lastModified?.hasSuffix("GMT") == true)
            }
        }

        @Test func aConditionalRequestGets304WithNoBody() throws {
            try withServer { server in
                let downloader = FeedDownloader(timeout: 10)
                let url = server.url(for: "top300.rss.xml")
                let first = try downloader.fetch(url, parser: nil).measurement
                let byTag = try downloader.fetch(url, parser: nil, conditional: (first.etag, nil)).measurement
                #expect(byTag.status == 304 && byTag.bytes == 0)
                let byDate = try downloader.fetch(url, parser: nil, conditional: (nil, first.lastModified)).measurement
                #expect(byDate.status == 304)
                let stale = try downloader.fetch(url, parser: nil, conditional: ("\"other\"", nil)).measurement
                #expect(stale.status == 200 && stale.bytes == 901_440)
                let old = try downloader.fetch(url, parser: nil, conditional: (nil, "Sun, 06 Nov 1994 08:49:37 GMT"))
                    .measurement
                #expect(old.status == 200)
            }
        }

        @Test func headAnswersWithHeadersOnly() throws {
            try withServer { server in
                var request = URLRequest(url: server.url(for: "top300.rss.xml"))
                request.httpMethod = "HEAD"
                // A HEAD has no body to compress: the identity length, whatever the client takes.
                request.setValue("gzip", forHTTPHeaderField: "Accept-Encoding")
                let (data, response) = try Self.blockingRequest(request)
                let http = try #require(response as? HTTPURLResponse)
                #expect(http.statusCode == 200)
                #expect(http.value(forHTTPHeaderField: "Content-Length") == "901440")
                #expect(http.value(forHTTPHeaderField: "Content-Encoding") == nil)
                #expect(http.value(forHTTPHeaderField: "ETag") != nil)
                #expect(data.isEmpty)
            }
        }

        @Test func aShapedResponseTakesAtLeastItsTransferTime() throws {
            // 100 KB at 800 kbit/s is 1.0 s of transfer: at least 0.9 s whatever the machine does.
            let directory = try TemporaryDirectory()
            let path = try directory.write("100k.xml", [UInt8](repeating: 0x20, count: 100_000))
            try withServer(.custom(bandwidthKbps: 800, rttMs: 0), feeds: [path]) { server in
                let started = Date()
                let result = try FeedDownloader(timeout: 10).fetch(server.url(for: "100k.xml"), parser: nil)
                #expect(result.measurement.bytes == 100_000)
                #expect(Date().timeIntervalSince(started) >= 0.9)
                #expect(result.measurement.downloadNs >= 900_000_000)
            }
        }

        @Test(arguments: ["libxml2", "expat"])
        func aPushParserDeliversTheFirstSongBeforeTheLastByte(parser: String) throws {
            try withServer(.custom(bandwidthKbps: 20_000, rttMs: 5)) { server in
                let type = try #require(ParserRegistry.parser(named: parser))
                let result = try FeedDownloader(timeout: 10).fetch(server.url(for: "top300.rss.xml"), parser: type)
                let m = result.measurement
                let firstSong = try #require(m.firstSongNs)
                #expect(firstSong < m.downloadNs, "first song at \(firstSong) ns, last byte at \(m.downloadNs) ns")
                #expect(m.totalNs >= m.downloadNs)
                #expect(m.parseNs > 0)
            }
        }

        @Test func foundationParsesOnlyOnceTheBodyIsComplete() throws {
            try withServer(.custom(bandwidthKbps: 20_000, rttMs: 5)) { server in
                let result = try FeedDownloader(timeout: 10).fetch(
                    server.url(for: "top300.rss.xml"), parser: FoundationFeedParser.self)
                let firstSong = try #require(result.measurement.firstSongNs)
                #expect(firstSong >= result.measurement.downloadNs)
            }
        }

        @Test(arguments: ParserRegistry.names)
        func theSameSongsThroughTheDownloadPath(parser: String) throws {
            let type = try #require(ParserRegistry.parser(named: parser))
            let expected = try type.parse(Self.feedBytes)
            try withServer(.lte) { server in
                let result = try FeedDownloader(timeout: 10).fetch(server.url(for: "top300.rss.xml"), parser: type)
                #expect(result.songs == expected)
                #expect(result.songs.count == (type.buildsSongs ? 300 : 0))
                #expect(result.measurement.bytes == Self.feedBytes.count)
            }
        }

        @Test(arguments: [
            ("?fault=404", DownloadError.Kind.httpStatus, "HTTP 404"),
            ("?fault=500", .httpStatus, "HTTP 500"),
            ("?fault=reset&at=300000", .truncated, "connection lost in the middle of the body"),
            ("?fault=short&at=300000", .truncated, "body shorter than its Content-Length"),
        ])
        func faultsEndInTheExpectedError(query: String, kind: DownloadError.Kind, message: String) throws {
            try withServer { server in
                let url = try #require(URL(string: server.url(for: "top300.rss.xml").absoluteString + query))
                do {
                    _ = try FeedDownloader(timeout: 10).fetch(url, parser: ExpatFeedParser.self)
                    Issue.record("\(query) did not fail")
                } catch let error as DownloadError {
                    #expect(error.kind == kind, "\(query): \(error)")
                    #expect(error.message.contains(message))
                    if query.contains("at=") { #expect(error.bytesReceived <= 300_000, "\(error)") }
                }
            }
        }

        @Test func anUnknownFeedIs404() throws {
            try withServer { server in
                #expect(throws: DownloadError.self) {
                    try FeedDownloader(timeout: 10).fetch(server.url(for: "nope.xml"), parser: nil)
                }
            }
        }

        @Test func aStallLongerThanTheTimeLimitEndsTheDownload() throws {
            try withServer { server in
                let url = try #require(
                    URL(string: server.url(for: "top300.rss.xml").absoluteString + "?fault=stall&at=50000"))
                let started = Date()
                do {
                    _ = try FeedDownloader(timeout: 1.5).fetch(url, parser: ExpatFeedParser.self)
                    Issue.record("a stall did not fail")
                } catch let error as DownloadError {
                    #expect(error.kind == .timedOut, "\(error)")
                    #expect(error.bytesReceived == 50_000)
                }
                #expect(Date().timeIntervalSince(started) < 30)
            }
        }

        @Test func aRefusedConnectionIsAnError() throws {
            // Start and stop a server to find a port nobody listens on.
            let server = try FeedServer.start(feeds: [TestPaths.top300], profile: .loopback)
            let url = server.url(for: "top300.rss.xml")
            try server.stop()
            do {
                _ = try FeedDownloader(timeout: 5).fetch(url, parser: nil)
                Issue.record("no error")
            } catch let error as DownloadError {
                #expect(error.kind == .connectionFailed, "\(error)")
            }
        }

        /// A feed is served by its file name: two files of one name are an error (one of them was
        /// unreachable, the other answering for both), the same file twice is served once; what cannot be
        /// served is said in words.
        @Test func twoFeedsOfOneNameAreAnError() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feeds-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            for side in ["a", "b"] {
                try FileManager.default.createDirectory(
                    at: directory.appendingPathComponent(side), withIntermediateDirectories: true)
                try Data("<rss>\(side)</rss>".utf8).write(to: directory.appendingPathComponent("\(side)/feed.xml"))
            }
            let a = directory.appendingPathComponent("a/feed.xml").path
            let b = directory.appendingPathComponent("b/feed.xml").path
            #expect(throws: FeedServerError.self) { try FeedServer.start(feeds: [a, b], profile: .loopback) }
            do {
                _ = try FeedServer.start(feeds: [a, b], profile: .loopback)
            } catch {
                #expect("\(error)".contains("two feeds named feed.xml"), "\(error)")
            }
            let once = try FeedServer.start(feeds: [a, a], profile: .loopback)
            defer { try? once.stop() }
            #expect(once.feedNames == ["feed.xml"])
            // Not a regular file: a directory, and a FIFO (whose read would wait for a writer for ever).
            let fifo = directory.appendingPathComponent("fifo.xml").path
            #expect(mkfifo(fifo, 0o600) == 0)
            for (path, said) in [
                (directory.path, "feed is a directory, not a file"), (fifo, "feed is not a regular file (a FIFO"),
            ] {
                do {
                    _ = try FeedServer.start(feeds: [path], profile: .loopback)
                    Issue.record("\(path) served")
                } catch {
                    #expect("\(error)".contains(said), "\(error)")
                }
            }
            // A port in use, in the system's words.
            do {
                _ = try FeedServer.start(feeds: [a], profile: .loopback, port: once.port)
                Issue.record("a second server on port \(once.port)")
            } catch {
                #expect("\(error)" == "cannot listen on 127.0.0.1:\(once.port): address already in use", "\(error)")
            }
        }

        @Test func profilesHaveTheirFigures() {
            #expect(NetworkProfile(name: "3g") == .threeG)
            #expect(NetworkProfile.threeG.bandwidthKbps == 1_600 && NetworkProfile.threeG.rttMs == 300)
            #expect(NetworkProfile(name: "custom", bandwidthKbps: 800, rttMs: 100)?.name == "custom-800kbps-100ms")
            #expect(NetworkProfile(name: "custom") == nil)
            #expect(NetworkProfile(name: "5g") == nil)
            #expect(NetworkProfile.loopback.bytesPerSecond == nil)
        }

        static func blockingRequest(_ request: URLRequest) throws -> (Data, URLResponse?) {
            final class Box: @unchecked Sendable {
                var data = Data(); var response: URLResponse?; var error: (any Error)?
            }
            let box = Box()
            let done = DispatchSemaphore(value: 0)
            URLSession(configuration: .ephemeral).dataTask(with: request) { data, response, error in
                box.data = data ?? Data()
                box.response = response
                box.error = error
                done.signal()
            }.resume()
            done.wait()
            if let error = box.error { throw error }
            return (box.data, box.response)
        }
    }
#endif
