import FeedParsers
import FeedTransport
import Foundation
import SongFeed

/// `fields`: the whole feed (`fields-all`), and the same with `?fields=` naming only the song
/// fields (`fields-songs`): what a server-side selection saves the parse.
struct FieldsScenario: PracticeScenario {
    /// The `fields=` selection that keeps every song field of an RSS item.
    static let songFields = "item(title,category,itms:artist,itms:album,itms:releasedate)"

    func practices(in plan: RunPlan) -> [Practice] { [.fields(selected: false), .fields(selected: true)] }

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
        return try PracticeWorker.fetchWhole(target, parser: parser, gzip: false, timeout: timeout)
    }
}
