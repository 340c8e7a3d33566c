import BenchResults
import FeedParsers
import Foundation
import SongFeed

/// What only a network worker does: fetch feeds over HTTP with URLSession, as an app would (the
/// `download` and `conditional` scenarios, and the `paged`, `fields`, `gzip`, `queue` and `cancel`
/// practices).
///
/// URLSession is FoundationNetworking's, which brings libcurl and some thirty libraries of its
/// own: loading them is most of a worker's start (15 ms against 8 ms for FoundationXML alone,
/// measured on the suite's 2-core machine). So the worker that parses from memory (`bench-worker`)
/// does not link them; the network worker (`bench-network-worker`, BenchNetworkWorker) is the same
/// worker with this conformance registered (`WorkerTool.main(parsers:network:)`), and the engine
/// starts it for the jobs that fetch (``WorkerProcess/networkWorkerExecutable()``).
package protocol NetworkWork: SendableMetatype {
    /// A download worker's job: `warmup` + `iterations` fetches of the feed with a parser.
    static func download(_ job: DownloadJob) throws -> DownloadWorkerReport
    /// One iteration of a network practice: its fetches, and the songs they built.
    static func fetch(_ job: PracticeJob, parser: any SongFeedParser.Type) throws -> (PagedFetchMeasurement, [Song])
    /// Before a `cancel` cell's iterations: the whole uncancelled fetch, whose digest is the
    /// worker's and whose first page the cancelled fetches must keep.
    static func firstPage(
        width: Int, pageSize: Int, parser: any SongFeedParser.Type, url: URL, entries: Int, timeout: Double
    ) throws -> (digest: String, firstPage: [Song])
}

/// The network work this worker executable registered, if any.
package enum NetworkWorkRegistry {
    private static let value = LockedValue<(any NetworkWork.Type)?>(nil)

    static func register(_ work: (any NetworkWork.Type)?) {
        value.withLock { $0 = work }
    }

    /// The registered network work.
    ///
    /// - Throws: ``WorkerJobError`` in a worker without it (`bench-worker`): the engine sends the
    ///   jobs that fetch to the network worker.
    static func registered() throws -> any NetworkWork.Type {
        guard let work = value.withLock({ $0 }) else {
            throw WorkerJobError(
                description:
                    "this worker does not fetch over the network (it links no URLSession): a job that fetches runs in "
                    + "the network worker (`bench-network-worker`, or the one a package names in "
                    + "`BenchTool.main(parsers:worker:networkWorker:)`)")
        }
        return work
    }
}
