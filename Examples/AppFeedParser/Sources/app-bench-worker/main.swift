// The worker `app-bench` starts for every cell, check and document: the app's parsers, the workers
// and the instruments, and nothing else of the tool, so that it starts in milliseconds.
import AppParsers
import BenchWorker

WorkerTool.main(parsers: AppParsers.all)
