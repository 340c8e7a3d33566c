// The embedded feed server's tests: in a build with the suite's trait FeedServer.
#if FeedServer
    import BenchTestSupport
    import FeedParsers
    import Foundation
    import SongFeed
    import Testing

    @testable import FeedServing
    @testable import FeedTransport

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// The server's pages, field selections and gzip bodies, and the clients that fetch them: following
    /// next links, a bounded queue, a cancel.
    @Suite("Pages, fields, gzip and the fetch queue", .serialized)
    struct PagedFeedTests {
        static let songFields = "item(title,category,itms:artist,itms:album,itms:releasedate)"

        static var wholeSongs: [Song] {
            get throws {
                try ExpatFeedParser.parse([UInt8](Data(contentsOf: URL(fileURLWithPath: TestPaths.top300))))
            }
        }

        func withServer<T>(_ profile: NetworkProfile = .loopback, _ body: (FeedServer) throws -> T) throws -> T {
            let server = try FeedServer.start(feeds: [TestPaths.top300], profile: profile)
            defer { try? server.stop() }
            return try body(server)
        }

        @Test func theLayoutFindsEveryItemAndItsFields() throws {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestPaths.top300)))
            let layout = try FeedLayout(bytes)
            #expect(layout.kind == .rss)
            #expect(layout.entries.count == 300)
            let first = try #require(layout.entries.first)
            #expect(bytes[first.startTag].elementsEqual("<item>".utf8))
            #expect(bytes[first.endTag].elementsEqual("</item>".utf8))
            #expect(first.children.contains { $0.namespace == Samples.itms && $0.localName == "artist" })
            #expect(layout.namespaces["itms"] == Samples.itms)
            #expect(throws: FeedParseError.self) { try FeedLayout(Array("<rss><channel><item>".utf8)) }
            #expect(throws: FeedParseError.self) { try FeedLayout(Array("<html/>".utf8)) }
        }

        @Test func pagesCarryTheirItemsAndANextLinkUntilTheEnd() throws {
            let whole = try Self.wholeSongs
            try withServer { server in
                let downloader = FeedDownloader(timeout: 10)
                let first = try downloader.fetch(
                    server.url(for: "top300.rss.xml", query: "start-index=1&max-results=25"),
                    parser: ExpatFeedParser.self,
                    keepBody: true)
                #expect(first.songs == Array(whole[0..<25]))
                #expect(NextLink.find(in: first.body) == "/top300.rss.xml?start-index=26&max-results=25")
                let last = try downloader.fetch(
                    server.url(for: "top300.rss.xml", query: "start-index=276&max-results=25"),
                    parser: ExpatFeedParser.self, keepBody: true)
                #expect(last.songs == Array(whole[275..<300]))
                #expect(NextLink.find(in: last.body) == nil)
                let beyond = try downloader.fetch(
                    server.url(for: "top300.rss.xml", query: "start-index=301"), parser: ExpatFeedParser.self)
                #expect(beyond.songs.isEmpty)
                // Each page has its own validator, and revalidates on its own.
                #expect(first.measurement.etag != last.measurement.etag)
                let again = try downloader.fetch(
                    server.url(for: "top300.rss.xml", query: "start-index=276&max-results=25"), parser: nil,
                    conditional: (last.measurement.etag, nil))
                #expect(again.measurement.status == 304)
            }
        }

        @Test(arguments: [25, 100, 300, 1_000])
        func followingNextLinksGivesTheWholeFeed(pageSize: Int) throws {
            let whole = try Self.wholeSongs
            try withServer { server in
                let (measured, songs) = try PagedFetch.followingNextLinks(
                    from: server.url(for: "top300.rss.xml", query: "max-results=\(pageSize)"),
                    parser: LibXML2FeedParser.self,
                    downloader: FeedDownloader(timeout: 10))
                #expect(songs == whole)
                #expect(measured.requests == (300 + pageSize - 1) / pageSize)
                #expect(measured.songs == 300)
            }
        }

        @Test func fieldsKeepOnlyTheSongFieldsAndTheSongs() throws {
            let whole = try Self.wholeSongs
            try withServer { server in
                let downloader = FeedDownloader(timeout: 10)
                let query =
                    "fields=" + (Self.songFields.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
                let selected = try downloader.fetch(
                    server.url(for: "top300.rss.xml", query: query), parser: ExpatFeedParser.self, keepBody: true)
                #expect(selected.songs == whole)
                #expect(selected.measurement.bytes * 10 < 901_440 * 3)
                let text = String(decoding: selected.body, as: UTF8.self)
                #expect(!text.contains("coverArt") && !text.contains("content:encoded"))
                // The paged, selected fetch gives the same songs too.
                let (_, pagedSongs) = try PagedFetch.followingNextLinks(
                    from: server.url(for: "top300.rss.xml", query: "max-results=40&" + query),
                    parser: ExpatFeedParser.self,
                    downloader: downloader)
                #expect(pagedSongs == whole)
            }
        }

        @Test(arguments: [
            ("fields=entry(title)", "only 'item(name,name,…)' is understood"),
            ("fields=item(title,foo:bar)", "no namespace prefix 'foo'"),
            ("fields=item(title/text())", "is not an element name"),
            ("start-index=0", "start-index must be an integer from 1"),
            ("start-index=x", "start-index must be an integer from 1"),
            ("max-results=-3", "max-results must be an integer from 1"),
            ("link=0", "link must be an integer from 1 to 64"),
            ("link=65", "link must be an integer from 1 to 64"),
            ("link=x", "link must be an integer from 1 to 64"),
        ])
        func aQueryThatCannotBeHonouredGets400WithAMessage(query: String, message: String) throws {
            try withServer { server in
                do {
                    _ = try FeedDownloader(timeout: 10).fetch(
                        server.url(for: "top300.rss.xml", query: query), parser: ExpatFeedParser.self)
                    Issue.record("\(query) was served")
                } catch let error as DownloadError {
                    #expect(error.kind == .httpStatus)
                    #expect(error.message.contains("HTTP 400"))
                    #expect(error.message.contains(message), "\(error.message)")
                }
            }
        }

        @Test func gzipBodiesAreInflatedAsTheyArriveAndSaveBytesOnTheWire() throws {
            let whole = try Self.wholeSongs
            try withServer { server in
                let downloader = FeedDownloader(timeout: 10)
                let zipped = try downloader.fetch(
                    server.url(for: "top300.rss.xml"), parser: LibXML2FeedParser.self, gzip: true)
                #expect(zipped.songs == whole)
                #expect(zipped.measurement.contentEncoding == "gzip")
                #expect(zipped.measurement.bytes == 901_440)
                let wire = try #require(zipped.measurement.wireBytes)
                #expect(wire > 0 && wire * 5 < 901_440)
                let plain = try downloader.fetch(server.url(for: "top300.rss.xml"), parser: nil)
                #expect(plain.measurement.contentEncoding == nil && plain.measurement.wireBytes == 901_440)
            }
        }

        @Test(arguments: [
            ("gzip", true), ("identity", false), ("gzip;q=0", false), ("deflate, gzip, br, zstd", true),
            ("x-gzip", true), ("GZIP ; Q=0.5", true), ("gzip; q=0.000", false), ("*", true), ("*;q=0", false),
            ("gzip;q=0, *", false), ("br", false), ("", false),
        ])
        func theAcceptEncodingsWeightsDecideOnGzip(field: String, gzip: Bool) {
            #expect(GzipBody.accepted(field.isEmpty ? [] : [field]) == gzip, "\(field)")
        }

        @Test func aGzipBodyIsOneMemberOfTheWholeFeed() throws {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestPaths.top300)))
            let zipped = try #require(GzipBody.compressed(bytes))
            // The gzip header (RFC 1952: magic, deflate) and the trailer's length of the input, mod 2^32.
            #expect(zipped.prefix(3).elementsEqual([0x1f, 0x8b, 8]))
            let length = zipped.suffix(4).reversed().reduce(0) { $0 << 8 | Int($1) }
            #expect(length == bytes.count)
            #expect(GzipBody.compressed([])?.count == 20)
        }

        @Test func anUnshapedRequestIsAnsweredAtOnceOnAnyProfile() throws {
            // A profile whose round trip alone (10 minutes) outlasts the client's 30 s limit: only a
            // response that skips the profile arrives (a download worker's warm-ups ask for that).
            let whole = try Self.wholeSongs
            try withServer(.custom(bandwidthKbps: 1, rttMs: 600_000)) { server in
                let url = server.unshapedURL(for: "top300.rss.xml")
                #expect(url.query == "shaping=off")
                let fetched = try FeedDownloader(timeout: 30).fetch(url, parser: ExpatFeedParser.self)
                #expect(fetched.songs == whole && fetched.measurement.bytes == 901_440)
            }
        }

        @Test func aLinkOfItsOwnCarriesTheWholeFeedAtTheProfilesBandwidth() throws {
            let whole = try Self.wholeSongs
            try withServer(.custom(bandwidthKbps: 40_000, rttMs: 5)) { server in
                let url = server.url(for: "top300.rss.xml", link: NetworkProfile.mostLinks)
                #expect(url.query == "link=64")
                let fetched = try FeedDownloader(timeout: 30).fetch(url, parser: ExpatFeedParser.self)
                #expect(fetched.songs == whole && fetched.measurement.bytes == 901_440)
                // Shaped as the shared link is: 901,440 bytes at 40 Mbit/s take 180 ms (the last byte may
                // land up to one 10 ms slice early).
                #expect(fetched.measurement.downloadNs >= 170_000_000)
            }
        }

        @Test func aGzipBodyCutShortIsATruncatedDownload() throws {
            try withServer { server in
                do {
                    _ = try FeedDownloader(timeout: 10).fetch(
                        server.url(for: "top300.rss.xml", query: "fault=short&at=20000"), parser: ExpatFeedParser.self,
                        gzip: true)
                    Issue.record("a cut gzip body was accepted")
                } catch let error as DownloadError {
                    #expect(error.kind == .truncated, "\(error)")
                    #expect(error.message.contains("gzip body cut short"), "\(error.message)")
                }
            }
        }

        @Test func aNextLinkThatLoopsEndsTheFetchWithAMessage() throws {
            try withServer { server in
                do {
                    _ = try PagedFetch.followingNextLinks(
                        from: server.url(for: "top300.rss.xml", query: "max-results=50&fault=loop"),
                        parser: ExpatFeedParser.self,
                        downloader: FeedDownloader(timeout: 10))
                    Issue.record("a looping next link was followed for ever")
                } catch let error as DownloadError {
                    #expect(error.kind == .loop)
                    #expect(error.message.contains("leads back to a page already fetched"))
                }
            }
        }

        @Test func aPageThatFailsMidBodyNamesThePage() throws {
            try withServer { server in
                do {
                    _ = try PagedFetch.followingNextLinks(
                        from: server.url(
                            for: "top300.rss.xml", query: "max-results=50&fault=reset&at=20000&fault-start=51"),
                        parser: ExpatFeedParser.self, downloader: FeedDownloader(timeout: 10))
                    Issue.record("a reset page was accepted")
                } catch let error as DownloadError {
                    #expect(error.kind == .truncated, "\(error)")
                    #expect(error.message.hasPrefix("page 2 "), "\(error.message)")
                }
            }
        }

        @Test(arguments: [1, 2, 4])
        func aQueueFetchesEveryPageFirstPageFirst(width: Int) throws {
            let whole = try Self.wholeSongs
            try withServer { server in
                let pages = PagedFetch.pageURLs(server.url(for: "top300.rss.xml"), entries: 300, pageSize: 25)
                #expect(pages.count == 12)
                let (measured, songs) = try PagedFetch.queued(
                    pages, parser: ExpatFeedParser.self, maxConcurrent: width, timeout: 10)
                #expect(songs == whole)
                #expect(measured.requests == 12)
                // Queued last, the first page starts among the first: its priority put it ahead (one at a
                // time, the others follow in the order they were queued).
                let order = try #require(measured.startOrder)
                #expect(order.prefix(width).contains(0))
                if width == 1 { #expect(order == Array(0..<12)) }
            }
        }

        @Test func aCancelAfterTheFirstPageKeepsItsSongsOnlyAndStartsNothingMore() throws {
            let whole = try Self.wholeSongs
            // A slow link, so that other pages are still on their way when the first one is in.
            try withServer(.custom(bandwidthKbps: 8_000, rttMs: 20)) { server in
                let pages = PagedFetch.pageURLs(server.url(for: "top300.rss.xml"), entries: 300, pageSize: 25)
                let (measured, songs) = try PagedFetch.queued(
                    pages, parser: ExpatFeedParser.self, maxConcurrent: 4, cancelAfterFirstPage: true, timeout: 10)
                #expect(songs == Array(whole[0..<25]))
                let cancel = try #require(measured.cancel)
                #expect(cancel.startedAfterCancel == 0)
                #expect(cancel.runningAtCancel <= 3)
                // Every page started before the cancel either was complete (and dropped) or was running.
                #expect(measured.requests == 1 + cancel.otherPagesCompleted + cancel.runningAtCancel)
            }
        }

        /// A flow that takes what it is given, up to what it has.
        final class FakeFlow: LinkFlow {
            var left: Int
            var received = 0
            init(_ bytes: Int) { left = bytes }
            func send(upTo limit: Int) -> Int {
                let n = min(limit, left)
                left -= n
                received += n
                return n
            }
            var hasBytesWaiting: Bool { left > 0 }
        }

        @Test func theLinkSharesItsBandwidthFairly() {
            let a = FakeFlow(10_000), b = FakeFlow(10_000), small = FakeFlow(100)
            var flows: [any LinkFlow] = [a, b, small]
            let left = NetworkLink.share(credit: 3_000, among: &flows)
            // The small flow's unused share goes to the others; nothing is left over or sent twice.
            #expect(small.received == 100)
            #expect(a.received + b.received == 2_900)
            #expect(abs(a.received - b.received) <= 1)
            #expect(left < 1)
            #expect(flows.count == 2)
        }
    }
#endif
