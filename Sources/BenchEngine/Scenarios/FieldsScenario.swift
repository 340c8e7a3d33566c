import BenchWorker
import FeedParsers
import FeedTransport
import Foundation
import SongFeed

/// `fields`: the whole feed (`fields-all`), and the same with `?fields=` naming only the song
/// fields (`fields-songs`): what a server-side selection saves the parse.
struct FieldsScenario: PracticeScenario {
    func practices(in plan: RunPlan) -> [Practice] { [.fields(selected: false), .fields(selected: true)] }

}
