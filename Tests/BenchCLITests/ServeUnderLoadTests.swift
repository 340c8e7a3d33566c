import BenchResults
import BenchTestSupport
import Foundation
import Testing

/// `bench serve` under a bounded load and against bad requests: each gets an HTTP error or a closed
/// connection, the server stays up and its memory stays bounded.
@Suite("bench serve under load and bad requests", .endToEnd)
struct ServeUnderLoadTests {
    /// Sends `request` on a new connection and reads until the server closes it or `wait` seconds
    /// pass without data; returns what came back.
    static func exchange(port: UInt16, _ request: [UInt8], wait: Double = 15) -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return "" }
        var timeout = timeval(tv_sec: Int(wait), tv_usec: Int(wait.truncatingRemainder(dividingBy: 1) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { break }  // the server may close before reading it all
            sent += count
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    static func statusLine(_ response: String) -> String {
        String(response.split(separator: "\r\n", maxSplits: 1).first ?? "")
    }

    @Test func badRequestsGetAnErrorOrAClosedConnection() throws {
        let server = try ServedFeed()
        #expect(server.port > 0, "no URL from bench serve")
        let get = Array("GET /top300.rss.xml HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        #expect(Self.statusLine(Self.exchange(port: server.port, get)) == "HTTP/1.1 200 OK")

        let garbage = Self.exchange(port: server.port, Array("NOT HTTP AT ALL\r\n\r\n".utf8))
        #expect(garbage.isEmpty || Self.statusLine(garbage).hasPrefix("HTTP/1.1 400"), "\(Self.statusLine(garbage))")
        let unknown = Self.exchange(port: server.port, Array("GET /nope.xml HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(Self.statusLine(unknown) == "HTTP/1.1 404 Not Found")
        let traversal = Self.exchange(
            port: server.port, Array("GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(Self.statusLine(traversal) == "HTTP/1.1 404 Not Found")
        let post = Self.exchange(
            port: server.port, Array("POST /top300.rss.xml HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc".utf8))
        #expect(Self.statusLine(post) == "HTTP/1.1 405 Method Not Allowed")
        let badQuery = Self.exchange(
            port: server.port, Array("GET /top300.rss.xml?fault=%zz&at=x HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        // A fault asked for and not injected would pass a client's test: an error that says why.
        #expect(Self.statusLine(badQuery) == "HTTP/1.1 400 Bad Request")
        #expect(badQuery.contains("fault must be one of"))
        for (query, said) in [
            ("fault=short&at=-1", "at must be a count of body bytes (0 or more), not '-1'"),
            ("fault=reset&at=99999999", "at=99999999 is not before the end of the body (901440 bytes)"),
            ("fault=loop&fault-start=0", "fault-start must be an item number (1 or more), not '0'"),
        ] {
            let reply = Self.exchange(
                port: server.port, Array("GET /top300.rss.xml?\(query) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            #expect(Self.statusLine(reply) == "HTTP/1.1 400 Bad Request", "\(query)")
            #expect(reply.contains(said), "\(query)")
        }
        // A 1 MB header, ten times.
        for _ in 0..<10 {
            let huge = Self.exchange(
                port: server.port,
                Array(
                    ("GET /top300.rss.xml HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 1 << 20) + "\r\n\r\n")
                        .utf8))
            #expect(huge.isEmpty || Self.statusLine(huge).hasPrefix("HTTP/1.1 4"), "\(Self.statusLine(huge))")
        }

        // A slow client does not hold the server, and is disconnected.
        let port = server.port
        let slow = Thread.detachNewThreadWithResult { Self.exchange(port: port, Array("GET /top3".utf8), wait: 30) }
        Thread.sleep(forTimeInterval: 0.5)
        #expect(Self.statusLine(Self.exchange(port: server.port, get)) == "HTTP/1.1 200 OK")
        #expect(slow.wait().isEmpty, "the slow client got an answer to half a request")

        // Still up, memory bounded.
        #expect(server.process.isRunning)
        #expect(Self.statusLine(Self.exchange(port: server.port, get)) == "HTTP/1.1 200 OK")
        #expect(server.residentBytes < 256 << 20, "bench serve holds \(server.residentBytes >> 20) MiB")
    }

    static var wrk: String? {
        ["/usr/bin/wrk", "/usr/local/bin/wrk"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test(.enabled(if: ServeUnderLoadTests.wrk != nil, "needs wrk (apt-get install wrk)"))
    func aRunMeasuresWhileWrkLoadsTheServer() throws {
        let server = try ServedFeed()
        let wrk = Process()
        wrk.executableURL = URL(fileURLWithPath: try #require(Self.wrk))
        wrk.arguments = ["-t1", "-c16", "-d8s", server.url]
        let wrkOutput = Pipe()
        wrk.standardOutput = wrkOutput
        wrk.standardError = FileHandle.nullDevice
        try wrk.run()
        let directory = try TemporaryDirectory()
        let result = try runBench([
            "run", "--url", server.url, "--scenario", "download", "--parsers", "expat", "--rounds", "1", "--iterations",
            "2",
            "--warmup", "0", "--no-store", "--output-dir", directory.path("out"), "--format", "json", "--quiet",
        ])
        let report = String(decoding: wrkOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        wrk.waitUntilExit()
        #expect(result.status == 0, "\(result.standardError)")
        let run = try JSONDecoder().decode(RunResult.self, from: Data(result.standardOutput.utf8))
        #expect(run.samples.filter { $0.cell.parser == "expat" }.allSatisfy { $0.error == nil && $0.songs == 300 })
        #expect(report.contains("requests in"), "\(report)")
        #expect(!report.contains("Non-2xx"), "\(report)")
        #expect(server.process.isRunning)
        #expect(server.residentBytes < 256 << 20, "bench serve holds \(server.residentBytes >> 20) MiB")
    }
}

extension Thread {
    /// Runs `body` on a new thread; `wait()` returns its result.
    static func detachNewThreadWithResult<T: Sendable>(_ body: @escaping @Sendable () -> T) -> ThreadResult<T> {
        let result = ThreadResult<T>()
        Thread.detachNewThread { result.set(body()) }
        return result
    }
}

final class ThreadResult<T: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var value: T?

    func set(_ value: T) {
        self.value = value
        done.signal()
    }

    func wait() -> T {
        done.wait()
        guard let value else { preconditionFailure("the thread signalled without a result") }
        return value
    }
}
