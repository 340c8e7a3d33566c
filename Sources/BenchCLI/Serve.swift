import BenchWorker
import ArgumentParser
import BenchEngine
import BenchResults
#if FeedServer
    internal import FeedServing
#endif
import Foundation

/// `bench serve`: the embedded feed server, on its own.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve feeds over HTTP on 127.0.0.1 with a network profile, until Ctrl-C.",
        discussion: """
            Each feed is served by its file name, with Content-Length, ETag and Last-Modified; conditional \
            requests get 304 and HEAD is answered. Faults for trying a client: ?fault=404, ?fault=500, \
            ?fault=reset&at=N, ?fault=short&at=N, ?fault=stall&at=N (N body bytes first). ?shaping=off answers \
            at once, without the profile (bench run's download warm-ups ask for it).
            """)

    @Option(help: "The port; 0 takes any free one.")
    var port: Int = 0

    @OptionGroup var networkOptions: NetworkOptions

    @Argument(help: "Feeds to serve (default: the *.xml files in Data/).", completion: .file(extensions: ["xml"]))
    var feeds: [String] = []

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
    }

    func run() throws {
        WorkerProcess.unblockTerminationSignals()
        guard let profile = networkOptions.profile(default: .loopback) else {
            throw CommandFailure(description: "unknown network profile \(networkOptions.network?.rawValue ?? "")")
        }
        let paths = feeds.isEmpty ? try BenchEngineFeeds.inData() : ListArgument.split(feeds)
        #if FeedServer
            let server: FeedServer
            do {
                server = try FeedServer.start(feeds: paths, profile: profile, port: port)
            } catch {
                throw CommandFailure(description: "\(error)")
            }
            let served = server.feedNames.count
            print("Serving \(served) feed\(served == 1 ? "" : "s") with network \(profile) — Ctrl-C to stop:")
            for name in server.feedNames { print("  \(server.url(for: name).absoluteString)") }
            fflush(nil)  // all streams: the URLs must show before the server blocks
            try server.wait()
        #else
            _ = paths
            throw SuiteTraitMissing(.feedServer, neededBy: "bench serve (the embedded feed server)")
        #endif
    }
}

/// The default feeds of `bench serve` and `bench verify`: the *.xml files in Data/.
enum BenchEngineFeeds {
    static func inData() throws -> [String] {
        do {
            return try FeedFile.feeds(inDirectory: "Data")
        } catch {
            throw CommandFailure(description: "\(error) (run from the package directory, or name the feeds)")
        }
    }
}
