// The suite's network worker: the jobs that fetch over HTTP (URLSession), with the built-in parsers.
import BenchNetworkWorker

NetworkWorkerTool.main()
