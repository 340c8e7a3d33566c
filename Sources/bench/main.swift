// The suite's own `bench`: every command, with the built-in parsers (see BenchCLI's BenchTool).
import BenchCLI

BenchTool.main()
