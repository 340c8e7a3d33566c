import BenchCLI
import FeedParsers

BenchTool.main(parsers: [AppFeedParser.self, XMLEventParser<MiniXMLReader>.self])
