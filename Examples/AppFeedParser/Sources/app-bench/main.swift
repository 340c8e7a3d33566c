// The whole `bench` tool with the app's parsers; its workers are `app-bench-worker`, built beside it.
import AppParsers
import BenchCLI

BenchTool.main(parsers: AppParsers.all, worker: "app-bench-worker", networkWorker: nil)
