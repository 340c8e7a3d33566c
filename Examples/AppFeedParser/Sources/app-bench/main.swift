import BenchCLI

BenchTool.main(parsers: [AppFeedParser.self])
