// The suite's worker: runs the one job `bench` gives it on standard input, with the built-in
// parsers (see BenchWorker's WorkerTool).
import BenchWorker

WorkerTool.main()
