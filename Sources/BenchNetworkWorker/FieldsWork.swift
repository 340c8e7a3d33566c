import BenchResults
import BenchWorker
import FeedParsers
import FeedTransport
import Foundation
import SongFeed

/// The worker's side of the `fields` scenario (`FieldsScenario`, in the engine): what an iteration does.
enum FieldsWork {
    /// The `fields=` selection that keeps every song field of an RSS item.
    static let songFields = "item(title,category,itms:artist,itms:album,itms:releasedate)"

    /// One iteration, in the worker: the whole feed, with the selection when `selected`.
    static func fetch(
        selected: Bool, parser: any SongFeedParser.Type, url: URL, timeout: Double
    ) throws -> (PagedFetchMeasurement, [Song]) {
        var target = url
        if selected {
            var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
            components?.queryItems = [URLQueryItem(name: "fields", value: songFields)]
            target = components?.url ?? url
        }
        return try URLSessionWork.fetchWhole(target, parser: parser, gzip: false, timeout: timeout)
    }
}
