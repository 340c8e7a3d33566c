import SongFeed

/// Where two parsers' answers to one document first differ, in words: what a verification, a contract
/// check and a test report when a parser disagrees with its reference.
package enum OutputDifference {
    /// The first event where two streams differ (from 1), both sides, their invisible characters
    /// escaped; two texts from where they first differ, with its line and column in the text (the
    /// events carry no position in the document); or the first event one side has and the other
    /// does not.
    package static func first(
        _ events: [DocumentEvent], _ expected: [DocumentEvent], parser: String, reference: String
    ) -> String {
        let common = zip(events, expected).prefix { $0 == $1 }.count
        if common < events.count, common < expected.count {
            if case .text(let ours) = events[common], case .text(let theirs) = expected[common],
                let difference = VisibleText.firstDifference(ours, theirs)
            {
                return "event \(common + 1), text from its line \(difference.line), column \(difference.column): "
                    + "\(parser) has \"\(difference.ours)\", \(reference) has \"\(difference.theirs)\""
            }
            return
                "event \(common + 1): \(parser) has \(events[common].summary), \(reference) has \(expected[common].summary)"
        }
        if common < events.count {
            return "event \(common + 1): \(parser) has \(events[common].summary), \(reference) has no more events"
        }
        if common < expected.count {
            return "event \(common + 1): \(parser) has no more events, \(reference) has \(expected[common].summary)"
        }
        return "the same events"
    }

    /// The first song where two lists differ: which song, which field, both values; or the two counts.
    package static func first(_ songs: [Song], _ expected: [Song], parser: String, reference: String) -> String {
        for index in 0..<min(songs.count, expected.count) where songs[index] != expected[index] {
            let ours = songs[index].fieldValues
            let theirs = expected[index].fieldValues
            for field in Song.fieldNames.indices where ours[field] != theirs[field] {
                return "song \(index + 1), field \(Song.fieldNames[field]): \(parser) has \(quoted(ours[field])), "
                    + "\(reference) has \(quoted(theirs[field]))"
            }
        }
        return "\(parser) built \(songs.count) songs, \(reference) built \(expected.count)"
    }

    private static func quoted(_ text: String) -> String { "\"" + VisibleText.escaped(text) + "\"" }
}
