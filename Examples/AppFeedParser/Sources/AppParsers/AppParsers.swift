import FeedParsers

/// The app's parsers, as both of its executables register them: the tool (`app-bench`, which
/// names them, lists them and plans their cells) and its worker (`app-bench-worker`, which runs
/// them).
public enum AppParsers {
    public static let all: [any SongFeedParser.Type] = [AppFeedParser.self, XMLEventParser<MiniXMLReader>.self]
}
